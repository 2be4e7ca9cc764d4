"""Claims and the facts a claim carries: an answer lane split into sentences and list items.

A lane is split into claims (sentences and list items, citation markers kept with the sentence
they follow). A claim cites the ids in its own markers, or inherits its paragraph's. A claim is an
*implication* when its paragraph says so ("This is an implication of ...") or it opens with a
label such as "Implication:", "Conflict:", "Decision needed:" or a review finding "pass:",
"concern:" ...; the exact fixed sentences of a lane (no divergence, not retrieved) carry no claims.

The facts that must agree exactly between a claim and its sources are read here, from any text:
numbers and percentages (digits and number words alike), durations and frequencies, named roles
and owners, modal strength (must / should / may / must not), and what each negation applies to;
with the flattened form in which quotations are compared. Scoring them against the cited sources
is ``assistant.verify.claim_support``'s job.

Deterministic: no model, no network.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cached_property

from assistant.domain import lanes
from assistant.domain.types import Lane
from assistant.verify.answer_check import MARKER_RE, citation_ids
from core.text import STOPWORDS, content_stems, words

FIXED_TEXTS = {
    lanes.DIVERGENCE: lanes.DIVERGENCE_FALLBACK,
    lanes.CURRENT_SAYS: lanes.CURRENT_NOT_RETRIEVED,
}

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
MODAL_WORDS = frozenset(
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
QUOTED = re.compile(r"[\"“]([^\"“”\n]{3,}?)[\"”]")


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


def lane_claims(lane: Lane) -> list[Claim]:
    """The claims of a lane, none for the exact fixed sentences."""
    fixed = FIXED_TEXTS.get(lane.label)
    if fixed is not None and " ".join(lane.text.split()) == fixed:
        return []
    return split_claims(lane.label, lane.text)


# ------------------------------------------------------------------------------ facts
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
            if t not in STOPWORDS and t not in MODAL_WORDS and t not in ("be", "t")
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
    return QUOTED.sub(
        lambda m: " " if verbatim(m.group(1).rstrip("…"), flat_sources) else m.group(0), body
    )
