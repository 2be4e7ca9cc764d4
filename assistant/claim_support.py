"""Claim support: each claim of an answer scored against the text of the sources it cites.

Claims and the facts they carry come from ``assistant.claims``. A claim's support score, in
[0, 1], is

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
  explicitly labelled implication needs a citation somewhere in its paragraph and may not bring
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
from typing import Any

from assistant import lanes
from assistant.claims import (
    IMPLICATION_LABEL,
    MODAL_WORDS,
    QUOTED,
    Claim,
    durations,
    flat,
    lane_claims,
    modals,
    negation_scopes,
    numbers,
    numbers_counted,
    roles,
    verbatim,
)

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

# Reasons a claim falls short; a diagnostic names these, never the claim's text.
UNCITED = "no citation"
COVERAGE = "content not found in the cited sources"
NUMBER, DURATION, ROLE, ENTITY = "number", "duration or frequency", "role or owner", "name"
NEGATION, MODAL, QUOTE = "negation", "modal strength", "quotation"

_CAPITALISED = re.compile(r"(?<![\w'’])[A-Z][A-Za-z0-9]*(?:[-&.][A-Za-z0-9]+)*")
_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"'(*`])")


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
        _STRUCTURAL = frozenset(content_stems(" ".join(MODAL_WORDS)))
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
    for m in QUOTED.finditer(body):
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
