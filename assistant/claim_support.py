"""Claim-level support: each sentence of an answer checked against the text of the sources it cites.

A lane is split into claims (sentences and list items, citation markers kept with the sentence
they follow). A claim cites the ids in its own markers, or inherits its paragraph's. Its support
score, in [0, 1], is

    coverage x 0.5 ** (number of meaning-changing disagreements)

where *coverage* is the share of the claim's content words (stemmed, glossary synonyms folded
together) found in the best-matching sentences of the cited sources (at most three, chosen
greedily: the *aligned* sentences), and a *disagreement* is a kind of element that changes meaning
and must agree exactly: numbers and percentages, durations and frequencies, named roles and
owners, capitalised names (products, organisations, months), negation, and modal strength
(must / should / may / must not). So one disagreement halves the score: with the default
threshold no claim with a changed number, owner, modal or flipped negation passes.

Every lane kind has a rule (``LANE_RULES`` in docs/source-boundaries.md):

- source lanes (Package says, Current/public source says, Uploaded session source says): every
  claim cites, or inherits, and is supported;
- Synthesis, Assessment and Divergence: a claim about the sources is checked the same way; an
  explicitly labelled implication (a paragraph that says "This is an implication of ...", or a
  claim opening with a label such as "Implication:", "Conflict:", "Decision needed:" or a review
  finding "pass:", "concern:" ...) needs a citation somewhere in its paragraph and may not bring
  in a number, name, role or quotation that no source sent contains;
- Missing evidence / owner decision needed: each item cites a source or names a role the
  package sources sent name, under the same no-new-elements check;
- the exact no-divergence and not-retrieved sentences are always allowed.

Deterministic: no model, no network. Stemming and synonyms come from ``assistant.retrieval``.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from assistant import lanes
from assistant.answer_check import MARKER_RE, citation_ids

# The project's text analysis, imported in this one place.
from assistant.expansion import Expansion
from assistant.output_rails import plain_text
from assistant.prompt import ProviderRequest, SourceRef
from assistant.types import Lane
from assistant.units import ROW, units
from core.text import STOPWORDS, content_stems, stems, words

DEFAULT_THRESHOLD = 0.85
MAX_ALIGNED = 3
# A further aligned sentence must add at least this many of the claim's words.
MIN_FURTHER_GAIN = 2
# Coverage at which alignment stops looking for more sentences.
ENOUGH_COVERAGE = 0.95

SOURCE, IMPLICATION, OWNER, FIXED = "source", "implication", "owner", "fixed"
SOURCE_LANES = (lanes.PACKAGE_SAYS, lanes.CURRENT_SAYS, lanes.UPLOADED_SAYS)
FIXED_TEXTS = {
    lanes.DIVERGENCE: lanes.DIVERGENCE_FALLBACK,
    lanes.CURRENT_SAYS: lanes.CURRENT_NOT_RETRIEVED,
}

# Reasons a claim falls short; a diagnostic names these, never the claim's text.
UNCITED = "no citation"
COVERAGE = "content not found in the cited sources"
NUMBER, DURATION, ROLE, ENTITY = "number", "duration or frequency", "role or owner", "name"
NEGATION, MODAL, QUOTE = "negation", "modal strength", "quotation"

_BULLET = re.compile(r"^[ \t]*(?:[-*•]|\d{1,2}[.)])[ \t]+")
_MARKER_TAIL = r"[ \t]*\[\s*[A-Za-z]+\d+(?:\s*[,;]\s*[A-Za-z]*\d+)*\s*\]"
# A sentence ends at . ! ? (markers that follow stay with it), or at a colon that a marker follows.
_SENTENCE_END = re.compile(
    r"[.!?…]+[\"'”’)]*(?:" + _MARKER_TAIL + r")*|[:;](?:" + _MARKER_TAIL + r")+"
)
_STARTS_SENTENCE = re.compile(r"\s+(?=[\"'“‘(*A-Z0-9])")
IMPLICATION_LABEL = re.compile(
    r"^[\s\"'“*_]*(?:implications?|conflict|decision needed|owner decision needed|assessment|"
    r"pass|concern|blocker|missing evidence|not covered|finding)\s*(?:\*\*|__)?\s*:",
    re.I,
)
IMPLICATION_SENTENCE = re.compile(
    r"\b(?:this is|these are|they are) (?:an? )?(?:implications?|assessments?|review assistance)\b",
    re.I,
)

_NEGATION = re.compile(
    r"\b(?:not|no|never|none|nor|neither|cannot|without|nothing|nobody|nowhere)\b|n[’']t\b", re.I
)
_MODALS: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "must not",
        re.compile(
            r"\b(?:must|shall|may) (?:not|never)\b|\bcannot\b|\bcan(?:[’']t| not)\b|\bmustn[’']t\b"
            r"|\b(?:is|are) (?:not (?:allowed|permitted)|prohibited|forbidden)\b",
            re.I,
        ),
    ),
    ("should not", re.compile(r"\bshould(?: not| never|n[’']t)\b", re.I)),
    (
        "must",
        re.compile(
            r"\b(?:must|shall|(?:is|are) required to|(?:is|are) mandatory|ha(?:s|ve) to|needs? to)\b",
            re.I,
        ),
    ),
    ("should", re.compile(r"\b(?:should|(?:is|are) recommended|ought to)\b", re.I)),
    ("may", re.compile(r"\b(?:may|might|can|could|(?:is|are) optional)\b", re.I)),
)
_MODAL_WORDS = frozenset(
    "must shall should may might can could cannot ought mandatory optional required recommended "
    "not never no none nor neither without nothing nobody nowhere".split()
)
_NUMBER_WORDS = {
    "zero": "0",
    "one": "1",
    "two": "2",
    "three": "3",
    "four": "4",
    "five": "5",
    "six": "6",
    "seven": "7",
    "eight": "8",
    "nine": "9",
    "ten": "10",
    "eleven": "11",
    "twelve": "12",
    "fifteen": "15",
    "twenty": "20",
    "thirty": "30",
    "forty": "40",
    "fifty": "50",
    "ninety": "90",
    "hundred": "100",
}
_NUMBER = re.compile(
    r"(?<![\w.])(\d+(?:[.,]\d+)*)\s*(%|percent\b|per cent\b)?|\b("
    + "|".join(_NUMBER_WORDS)
    + r")\b",
    re.I,
)
_UNIT = (
    r"(?:business |working |calendar )?(minute|hour|day|week|month|quarter|year|sprint|release)s?\b"
)
_DURATION = re.compile(
    r"(?<![\w.])(\d+(?:\.\d+)?|" + "|".join(_NUMBER_WORDS) + r")(?:\s*-\s*|\s+)" + _UNIT, re.I
)
_FREQUENCY = re.compile(
    r"\b(daily|weekly|fortnightly|biweekly|monthly|quarterly|annually|yearly|annual|hourly)\b", re.I
)
_MONTHS = frozenset(
    "january february march april may june july august september october november december".split()
)
_ROLE = re.compile(
    r"\b(?:(?:product|risk|source|platform|model|data|security|gate|sustainment|service|business|"
    r"technical|system|process|information|control|change|release|application|vendor|privacy|"
    r"compliance|engineering|delivery|quality|validation|clinical|budget|portfolio)\s+"
    r"(?:owner|reviewer|officer|lead|steward|manager|approver|architect|sponsor|custodian)s?"
    r"|data protection officers?|chief information security officers?|ciso|dpo"
    r"|change advisory boards?|architecture review boards?|legal counsel|ethics board"
    r"|steering committee|governance board)\b",
    re.I,
)
_CAPITALISED = re.compile(r"(?<![\w'’])[A-Z][A-Za-z0-9]*(?:[-&.][A-Za-z0-9]+)*")
_QUOTED = re.compile(r"[\"“]([^\"“”\n]{3,}?)[\"”]")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"'(*`])")


# ------------------------------------------------------------------------------------- claims
@dataclass(frozen=True)
class Claim:
    """One sentence or list item of a lane, with the span it occupies in the lane text."""

    lane: str
    position: int
    text: str
    start: int
    end: int
    own_ids: tuple[str, ...]
    paragraph_ids: tuple[str, ...]
    implication: bool
    list_item: bool

    @property
    def ids(self) -> tuple[str, ...]:
        return self.own_ids or self.paragraph_ids

    @cached_property
    def body(self) -> str:
        """The claim without markers, bullet, label or wrapping quotes."""
        text = MARKER_RE.sub(" ", self.text)
        text = _BULLET.sub("", text)
        text = " ".join(text.split()).strip()
        return text.removeprefix(lanes.WARNS_AGAINST).strip()


@dataclass(frozen=True)
class ClaimScore:
    """A claim's support: score, the kind of rule applied, the sources that support it, why not."""

    lane: str
    position: int
    kind: str
    score: float
    supported: bool
    source_ids: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "lane": self.lane,
            "position": self.position,
            "kind": self.kind,
            "score": round(self.score, 3),
            "supported": self.supported,
            "source_ids": list(self.source_ids),
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True)
class SupportReport:
    """Every claim's score and the answer's overall score (the mean; 1.0 with no claims)."""

    claims: tuple[ClaimScore, ...]
    threshold: float

    @property
    def score(self) -> float:
        if not self.claims:
            return 1.0
        return round(sum(c.score for c in self.claims) / len(self.claims), 3)

    @property
    def unsupported(self) -> tuple[ClaimScore, ...]:
        return tuple(c for c in self.claims if not c.supported)

    @property
    def ok(self) -> bool:
        return not self.unsupported


def _paragraph_spans(text: str) -> list[tuple[int, int]]:
    return [
        (m.start(), m.end())
        for m in re.finditer(r"(?:[^\n]|\n(?![ \t]*\n))+", text)
        if m.group(0).strip()
    ]


def _blocks(text: str, start: int, end: int) -> list[tuple[int, int, bool]]:
    """A paragraph's list items and runs of prose lines: (start, end, is_list_item)."""
    out: list[tuple[int, int, bool]] = []
    pos = start
    for line in text[start:end].splitlines(keepends=True):
        line_start, line_end = pos, pos + len(line.rstrip("\n"))
        pos += len(line)
        if not line.strip():
            continue
        item = bool(_BULLET.match(line))
        if item or not out or out[-1][2]:
            out.append((line_start, line_end, item))
        else:
            out[-1] = (out[-1][0], line_end, False)
    return out


def _sentences(text: str, start: int, end: int) -> list[tuple[int, int]]:
    spans: list[tuple[int, int]] = []
    cursor = start
    for m in _SENTENCE_END.finditer(text, start, end):
        after = text[m.end() : end]
        closed_by_marker = m.group(0).rstrip().endswith("]")
        if after.strip() and not closed_by_marker and not _STARTS_SENTENCE.match(after):
            continue
        if text[cursor : m.end()].strip():
            spans.append((cursor, m.end()))
        cursor = m.end()
    if text[cursor:end].strip():
        spans.append((cursor, end))
    return [_trimmed(text, s, e) for s, e in spans]


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


def split_claims(label: str, text: str) -> list[Claim]:
    """The claims of one lane's text, in order, each with its own and its paragraph's citations."""
    claims: list[Claim] = []
    for p_start, p_end in _paragraph_spans(text):
        paragraph = text[p_start:p_end]
        paragraph_ids = tuple(dict.fromkeys(citation_ids(paragraph)))
        labelled = bool(IMPLICATION_SENTENCE.search(paragraph)) or bool(
            IMPLICATION_LABEL.match(paragraph)
        )
        for b_start, b_end, item in _blocks(text, p_start, p_end):
            item_labelled = item and bool(
                IMPLICATION_LABEL.match(_BULLET.sub("", text[b_start:b_end]))
            )
            for s_start, s_end in _sentences(text, b_start, b_end):
                sentence = text[s_start:s_end]
                if not re.search(r"\w", MARKER_RE.sub("", sentence)):
                    continue
                claims.append(
                    Claim(
                        lane=label,
                        position=len(claims) + 1,
                        text=sentence,
                        start=s_start,
                        end=s_end,
                        own_ids=tuple(dict.fromkeys(citation_ids(sentence))),
                        paragraph_ids=paragraph_ids,
                        implication=labelled or item_labelled,
                        list_item=item,
                    )
                )
    return claims


# ------------------------------------------------------------------------------------ analysis
def numbers(text: str) -> set[str]:
    """Numbers and percentages, digits and number words alike ("two" is "2", "30 percent" "30%")."""
    out = set()
    for m in _NUMBER.finditer(text):
        if m.group(3):
            out.add(_NUMBER_WORDS[m.group(3).lower()])
        else:
            value = m.group(1).replace(",", "")
            out.add(value + "%" if m.group(2) else value)
    return out


def durations(text: str) -> set[str]:
    found = {
        f"{_NUMBER_WORDS.get(m.group(1).lower(), m.group(1))} {m.group(2).lower()}"
        for m in _DURATION.finditer(text)
    }
    return found | {
        m.group(1)
        .lower()
        .replace("annual", "annually")
        .replace("yearly", "annually")
        .replace("annuallyly", "annually")
        for m in _FREQUENCY.finditer(text)
    }


def roles(text: str) -> set[str]:
    return {re.sub(r"s$", "", " ".join(m.group(0).lower().split())) for m in _ROLE.finditer(text)}


def modals(text: str) -> Counter[str]:
    """Modal strengths, counted: "must not" before "must", so each phrase counts once."""
    found: Counter[str] = Counter()
    for name, pattern in _MODALS:
        found[name] += len(pattern.findall(text))
        text = pattern.sub(" ", text)
    return +found


_NEGATION_WORDS = frozenset(
    "not no never none nor neither cannot without nothing nobody nowhere".split()
)
NEGATION_REACH = 6


def negation_scopes(text: str) -> Counter[str]:
    """What each negation applies to: the stem of the first content word after it ("" if none)."""
    seq = words(text)
    found: Counter[str] = Counter()
    for i, word in enumerate(seq):
        contracted = word == "t" and i > 0 and seq[i - 1].endswith("n")  # "can't", "doesn't"
        if word not in _NEGATION_WORDS and not contracted:
            continue
        following = [
            t
            for t in seq[i + 1 : i + 1 + NEGATION_REACH]
            if t not in STOPWORDS and t not in _MODAL_WORDS and t not in ("be", "t")
        ]
        stem = content_stems(following[0]) if following else []
        found[stem[0] if stem else ""] += 1
    return found


def numbers_counted(text: str) -> Counter[str]:
    out: Counter[str] = Counter()
    for m in _NUMBER.finditer(text):
        if m.group(3):
            out[_NUMBER_WORDS[m.group(3).lower()]] += 1
        else:
            value = m.group(1).replace(",", "")
            out[value + "%" if m.group(2) else value] += 1
    return out


def negated(text: str) -> bool:
    return bool(_NEGATION.search(text))


def flat(text: str) -> str:
    """Lower-case, whitespace collapsed, quotation marks dropped, square brackets read as round
    ones (a lane quotes user text with "(39)" for "[39]": brackets there would read as citations)."""
    text = re.sub(r"[\"“”‘’']", "", text).replace("[", "(").replace("]", ")")
    return " ".join(text.split()).lower()


def verbatim(body: str, flat_sources: str) -> bool:
    """Whether a claim's text (final punctuation aside) is a quote of the flattened sources."""
    quoted = flat(body).rstrip(".;:, ")
    return bool(quoted) and quoted in flat_sources


def without_quotes_of(body: str, flat_sources: str) -> str:
    """``body`` with every quotation that is verbatim in the flattened sources removed."""
    return _QUOTED.sub(
        lambda m: " " if verbatim(m.group(1).rstrip("…"), flat_sources) else m.group(0), body
    )


@dataclass(eq=False)
class _Sentence:
    text: str
    terms: frozenset[str]
    tokens: frozenset[str]
    numbers: Counter[str] = field(default_factory=Counter)
    durations: set[str] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)
    modals: Counter[str] = field(default_factory=Counter)
    negations: Counter[str] = field(default_factory=Counter)


class Analyzer:
    """Text analysis shared by every claim of one answer: stems, glossary synonyms, package words."""

    MEMO_SIZE = 50_000

    def __init__(self, expansion: Expansion, vocabulary: Container[str] = ()) -> None:
        self.expansion = expansion
        self.vocabulary = vocabulary
        # The same package rows are sent again and again: a sentence is analysed once per
        # process (read-only afterwards), not on every answer.
        self._sentences: dict[str, _Sentence] = {}

    def terms(self, text: str) -> list[str]:
        """Content stems, without modal and negation words (those are checked on their own)."""
        return [s for s in content_stems(text) if s not in _structural_stems()]

    def tokens(self, text: str) -> frozenset[str]:
        """What a source offers for matching: its stems, glossary phrases and canonical terms."""
        seq = stems(text)
        expanded = {t for ts in self.expansion.expansions_by_word(seq).values() for t in ts}
        return frozenset(seq) | frozenset(self.expansion.phrase_tokens(seq)) | expanded

    def claim_alternatives(self, text: str) -> dict[str, set[str]]:
        """For each claim stem inside a glossary synonym, the canonical tokens it may match."""
        return self.expansion.expansions_by_word(stems(text))

    def sentence(self, text: str) -> _Sentence:
        found = self._sentences.get(text)
        if found is None:
            if len(self._sentences) >= self.MEMO_SIZE:
                self._sentences.clear()
            found = self._sentences[text] = self._analyse(text)
        return found

    def _analyse(self, text: str) -> _Sentence:
        return _Sentence(
            text=text,
            terms=frozenset(self.terms(text)),
            tokens=self.tokens(text),
            numbers=numbers_counted(text),
            durations=durations(text),
            roles=roles(text),
            modals=modals(text),
            negations=negation_scopes(text),
        )

    def same_phrase(self, phrase: str, known: Iterable[str]) -> bool:
        """Whether ``phrase`` is one of ``known``, or a glossary synonym of one of them."""
        mine = tuple(stems(phrase))
        canonical = self.expansion.synonyms.get(mine, mine)
        for other in known:
            theirs = tuple(stems(other))
            if (
                theirs in (mine, canonical)
                or self.expansion.synonyms.get(theirs, theirs) == canonical
            ):
                return True
        return False

    def name_known(
        self,
        name: str,
        known_words: frozenset[str],
        source_tokens: frozenset[str],
        alternatives: dict[str, set[str]],
    ) -> bool:
        """Whether a capitalised name occurs in the sources, itself or as (part of) a glossary
        synonym of a term the sources use ("BAU owner" for "sustainment owner")."""
        if set(words(name)) <= known_words:
            return True
        return all(alternatives.get(stem, set()) & source_tokens for stem in stems(name))

    def known_word(self, word: str) -> bool:
        stem = content_stems(word)
        return not stem or stem[0] in self.vocabulary


_STRUCTURAL: frozenset[str] | None = None


def _structural_stems() -> frozenset[str]:
    global _STRUCTURAL
    if _STRUCTURAL is None:
        _STRUCTURAL = frozenset(content_stems(" ".join(_MODAL_WORDS)))
    return _STRUCTURAL


@dataclass
class SourceText:
    """One sent source, analysed: its sentences and the words of its text, title and metadata."""

    citation_id: str
    sentences: list[_Sentence]
    header: _Sentence
    words: frozenset[str]
    flat: str
    header_words: frozenset[str] = frozenset()

    @classmethod
    def of(cls, ref: SourceRef, analyzer: Analyzer) -> SourceText:
        text = plain_text(ref.text)
        header_text = plain_text(" ".join([ref.title, *(str(v) for v in ref.meta.values())]))
        sentences = [
            analyzer.sentence(s)
            for line in text.splitlines()
            if line.strip()
            for s in _SENTENCE_SPLIT.split(line.strip())
            if s.strip()
        ]
        sentences += [analyzer.sentence(plain_text(row)) for row in row_readings(ref.text)]
        header = analyzer.sentence(header_text)
        return cls(
            citation_id=ref.citation_id,
            sentences=sentences,
            header=header,
            words=frozenset(words(text + " " + header_text)),
            flat=flat(text + "\n" + header_text),
            header_words=frozenset(words(header_text)),
        )


def row_readings(text: str) -> list[str]:
    """Each table row of a source as the offline answer quotes it, with its header ("Pilot —
    Gate owner: Product owner"): a quoted row is read against the row it quotes."""
    return [u.text for u in units(text) if u.kind == ROW]


def entities(body: str, analyzer: Analyzer) -> set[str]:
    """Capitalised names in a claim: any capitalised word not opening the sentence, and an opening
    word that is an acronym or mixed-case name, or that the package's vocabulary never uses."""
    text = IMPLICATION_LABEL.sub("", body, count=1).lstrip(" \"'“‘(*_")
    found = set()
    for m in _CAPITALISED.finditer(text):
        word = m.group(0).rstrip(".")
        if not word or word.lower() in STOPWORDS or len(word) == 1:
            continue
        opening = not text[: m.start()].strip()
        odd_case = any(c.isupper() or c.isdigit() for c in word[1:])
        if opening and not odd_case and analyzer.known_word(word):
            continue
        found.add(word)
    return found


def _missing_entities(body: str, analyzer: Analyzer, sources: Sequence[SourceText]) -> bool:
    found = entities(body, analyzer)
    if not found:
        return False
    known = frozenset().union(*(src.words for src in sources))
    tokens = frozenset().union(*(s.tokens for src in sources for s in [*src.sentences, src.header]))
    alternatives = analyzer.claim_alternatives(body)
    return any(not analyzer.name_known(e, known, tokens, alternatives) for e in found)


def _exceeds(claim: Counter[str], available: Iterable[Counter[str]]) -> bool:
    """Whether the claim has more of some element than the given sentences together."""
    total: Counter[str] = Counter()
    for counts in available:
        total.update(counts)
    return any(n > total[k] for k, n in claim.items())


def _critical_stems(body: str) -> set[str]:
    """Stems of the elements checked exactly (numbers, roles): alignment does not use them."""
    out = set(content_stems(" ".join(numbers(body))))
    for role in roles(body):
        out.update(content_stems(role))
    return out


# ------------------------------------------------------------------------------------- scoring
def _coverage(
    claim_terms: list[str], alternatives: dict[str, set[str]], sentences: Sequence[_Sentence]
) -> tuple[list[_Sentence], float]:
    """Greedy alignment: the sentences covering most of the claim's words, and the share covered."""
    wanted = list(dict.fromkeys(claim_terms))
    if not wanted:
        return [], 1.0

    def hits(sentence: _Sentence, remaining: set[str]) -> set[str]:
        return {
            t
            for t in remaining
            if t in sentence.tokens or alternatives.get(t, set()) & sentence.tokens
        }

    remaining = set(wanted)
    aligned: list[_Sentence] = []
    while remaining and len(aligned) < MAX_ALIGNED:
        # Most of the claim's remaining words; among equals, the most specific sentence.
        best, gain, best_key = None, set(), (0, 0)
        for sentence in sentences:
            if sentence in aligned:
                continue
            got = hits(sentence, remaining)
            key = (len(got), -len(sentence.terms))
            if got and key > best_key:
                best, gain, best_key = sentence, got, key
        needed = 1 if not aligned else MIN_FURTHER_GAIN
        if best is None or len(gain) < needed:
            break
        aligned.append(best)
        remaining -= gain
        if 1 - len(remaining) / len(wanted) >= ENOUGH_COVERAGE:
            break
    return aligned, 1 - len(remaining) / len(wanted)


def score_source_claim(
    claim: Claim, sources: Sequence[SourceText], analyzer: Analyzer, threshold: float
) -> ClaimScore:
    """A claim about the sources it cites: coverage and exact agreement on what changes meaning."""
    if not sources:
        return ClaimScore(claim.lane, claim.position, SOURCE, 0.0, False, (), (UNCITED,))
    body = claim.body
    if _is_attributed_quote(body, sources):
        ids = tuple(src.citation_id for src in sources)
        return ClaimScore(claim.lane, claim.position, SOURCE, 1.0, True, ids)
    terms = analyzer.terms(body)
    alternatives = analyzer.claim_alternatives(body)
    pool = [s for src in sources for s in src.sentences]
    headers = [src.header for src in sources]
    # Align on the claim's ordinary words, so that a changed number or role cannot pull in
    # another sentence that happens to contain it; then measure coverage on every word.
    critical = _critical_stems(body)
    aligned, _ = _coverage([t for t in terms if t not in critical] or terms, alternatives, pool)
    context = [*aligned, *headers]
    coverage = _covered_share(terms, alternatives, context)
    reasons = []
    if coverage < threshold:
        reasons.append(COVERAGE)
    if _exceeds(numbers_counted(body), (s.numbers for s in context)):
        reasons.append(NUMBER)
    if durations(body) - set().union(*(s.durations for s in context)):
        reasons.append(DURATION)
    context_roles = set().union(*(s.roles for s in context))
    if any(not analyzer.same_phrase(r, context_roles) for r in roles(body)):
        reasons.append(ROLE)
    if _missing_entities(body, analyzer, sources):
        reasons.append(ENTITY)
    if _negation_differs(body, aligned, pool):
        reasons.append(NEGATION)
    if _exceeds(modals(body), (s.modals for s in aligned)):
        reasons.append(MODAL)
    if _bad_quotes(body, sources):
        reasons.append(QUOTE)
    disagreements = len([r for r in reasons if r != COVERAGE])
    score = coverage * 0.5**disagreements
    by_id = {id(s): src.citation_id for src in sources for s in src.sentences}
    support_ids = tuple(dict.fromkeys(by_id[id(s)] for s in aligned if id(s) in by_id))
    return ClaimScore(
        claim.lane, claim.position, SOURCE, score, score >= threshold, support_ids, tuple(reasons)
    )


def _is_attributed_quote(body: str, sources: Sequence[SourceText]) -> bool:
    """A verbatim quotation of the cited sources introduced only by where it comes from
    (``Draft PRD.pdf, page 3: "..."``): the quote is the claim, and it is the source's text."""
    shaped = _ATTRIBUTED.match(body)
    if shaped is None:
        return False
    haystack = "\n".join(src.flat for src in sources)
    if not verbatim(shaped.group("quote").rstrip("…"), haystack):
        return False
    header_words = frozenset().union(*(src.header_words for src in sources))
    where_words = [w for w in words(shaped.group("where")) if not w.isdigit()]
    return all(w in header_words or w in _ANCHOR_WORDS for w in where_words)


# ``where: "quote"``, the quote running to the last quotation mark (it may quote quotes itself).
_ATTRIBUTED = re.compile(r'^(?P<where>[^"“]*?):\s*["“](?P<quote>.+)["”][.\s]*$', re.S)


_ANCHOR_WORDS = frozenset(
    {"page", "pages", "line", "lines", "row", "rows", "column", "section", "json", "path"}
)


def _covered_share(
    terms: list[str], alternatives: dict[str, set[str]], sentences: Sequence[_Sentence]
) -> float:
    wanted = set(terms)
    if not wanted:
        return 1.0
    tokens = frozenset().union(*(s.tokens for s in sentences)) if sentences else frozenset()
    covered = {t for t in wanted if t in tokens or alternatives.get(t, set()) & tokens}
    return len(covered) / len(wanted)


def _negation_differs(body: str, aligned: Sequence[_Sentence], pool: Sequence[_Sentence]) -> bool:
    """A negation the cited sources never apply to that word, or one the aligned sentences apply
    to a word the claim uses without it."""
    claimed = negation_scopes(body)
    anywhere = set().union(*(s.negations for s in pool)) if pool else set()
    if any(scope not in anywhere for scope in claimed):
        return True
    claim_stems = set(content_stems(body))
    expected: Counter[str] = Counter()
    for sentence in aligned:
        expected.update({k: n for k, n in sentence.negations.items() if k and k in claim_stems})
    return any(claimed[k] < n for k, n in expected.items())


def _bad_quotes(body: str, sources: Sequence[SourceText]) -> bool:
    haystack = "\n".join(src.flat for src in sources)
    for m in _QUOTED.finditer(body):
        quoted = flat(m.group(1)).rstrip("…").rstrip(".").strip()
        if quoted and quoted not in haystack:
            return True
    return False


def score_bounded_claim(
    claim: Claim,
    kind: str,
    sent: Sequence[SourceText],
    package_roles: set[str],
    analyzer: Analyzer,
    threshold: float,
) -> ClaimScore:
    """An implication or owner item: cited (or, for an owner item, naming a package role) and
    bringing in no number, name, role or quotation that the sources sent do not contain."""
    body = claim.body
    reasons = []
    named = roles(body)
    if not claim.ids and not (
        kind == OWNER and any(analyzer.same_phrase(r, package_roles) for r in named)
    ):
        reasons.append(UNCITED)
    everything = [*(s for src in sent for s in src.sentences), *(src.header for src in sent)]
    if numbers(body) - set().union(*(set(s.numbers) for s in everything)):
        reasons.append(NUMBER)
    if durations(body) - set().union(*(s.durations for s in everything)):
        reasons.append(DURATION)
    sent_roles = set().union(*(s.roles for s in everything))
    if any(not analyzer.same_phrase(r, sent_roles) for r in named):
        reasons.append(ROLE)
    if _missing_entities(body, analyzer, sent):
        reasons.append(ENTITY)
    if _bad_quotes(body, sent):
        reasons.append(QUOTE)
    score = 0.0 if UNCITED in reasons else 0.5 ** len(reasons)
    return ClaimScore(
        claim.lane,
        claim.position,
        kind,
        score,
        score >= threshold,
        tuple(claim.ids),
        tuple(reasons),
    )


def lane_claims(lane: Lane) -> list[Claim]:
    """The claims of a lane, none for the exact fixed sentences."""
    fixed = FIXED_TEXTS.get(lane.label)
    if fixed is not None and " ".join(lane.text.split()) == fixed:
        return []
    return split_claims(lane.label, lane.text)


_ANALYZERS: dict[tuple[int, int], Analyzer] = {}


def analyzer_for(expansion: Expansion, vocabulary: Container[str] = ()) -> Analyzer:
    """One analyzer per (expansion, vocabulary) pair in use: the pack's, in the app."""
    key = (id(expansion), id(vocabulary))
    found = _ANALYZERS.get(key)
    if found is None or found.expansion is not expansion or found.vocabulary is not vocabulary:
        if len(_ANALYZERS) >= 8:
            _ANALYZERS.clear()
        found = _ANALYZERS[key] = Analyzer(expansion, vocabulary)
    return found


def check(
    answer_lanes: Sequence[Lane],
    request: ProviderRequest,
    *,
    expansion: Expansion,
    vocabulary: Container[str] = (),
    threshold: float = DEFAULT_THRESHOLD,
) -> SupportReport:
    """Score every claim of verified lanes against the sources sent; the rule depends on the lane."""
    analyzer = analyzer_for(expansion, vocabulary)
    sent = {ref.citation_id: SourceText.of(ref, analyzer) for ref in request.all_refs()}
    package_roles = set().union(set(), *(roles(ref.text) for ref in request.package_refs))
    scores: list[ClaimScore] = []
    for lane in answer_lanes:
        claims = lane_claims(lane)
        if not claims:
            scores.append(ClaimScore(lane.label, 0, FIXED, 1.0, True))
            continue
        for claim in claims:
            if lane.label == lanes.MISSING_EVIDENCE:
                scores.append(
                    score_bounded_claim(
                        claim, OWNER, list(sent.values()), package_roles, analyzer, threshold
                    )
                )
            elif claim.implication and lane.label not in SOURCE_LANES:
                scores.append(
                    score_bounded_claim(
                        claim, IMPLICATION, list(sent.values()), package_roles, analyzer, threshold
                    )
                )
            else:
                cited = [sent[cid] for cid in claim.ids if cid in sent]
                scores.append(score_source_claim(claim, cited, analyzer, threshold))
    return SupportReport(tuple(scores), threshold)
