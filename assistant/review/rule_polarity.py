"""Whether a draft sentence does what a package rule forbids, and whether the rule is about it at all.

A prohibition (``assistant/package/criteria.py``) says what a draft shows when it breaks a rule:
its signals. Two things decide whether a sentence holding those words really does the forbidden
thing, and both come from reading the sentence beside the rule rather than from more words:

- **polarity**: a forbidden phrase the sentence denies ("does not answer from general
  knowledge") is the rule kept, not broken; one it affirms is the rule broken, even when some
  other clause of the sentence holds a denial ("where the library does not cover a question, the
  assistant answers from general knowledge"). A denial scopes over its own clause only: clauses
  end at punctuation and at the words that open a new one ("so", "because", "which", ...).
  "rather than" and "instead of" deny what follows them.
- **applicability**: a rule constrains a subject, the noun that qualifies the forbidden thing
  ("a *developer* laptop"). When the sentence names another holder of that thing ("end *users'*
  laptops", or "their laptops" in a clause that opens with "customers"), the rule is not about the
  sentence, which is then no evidence for or against it. Only agent nouns (a person's role:
  developer, user, customer, engineer, employee) are compared, by stem, abbreviation or the
  general-English word embedding; a name, a pronoun or an unqualified thing leaves the rule
  applying, so a draft's own team ("Lena", "we", "the team") is never excused.

The matched words are kept so that each status can say why it follows (``Reason``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from assistant.models.word_embedding import embed
from assistant.package.criteria import Prohibition
from core.text import STOPWORDS, stem_words, stems, words

#: Words that deny what their clause says ("not", "without", "excluded", "never" ...), as stems.
NEGATIONS = frozenset(
    {"no", "not", "never", "without", "none", "nobody", "neither", "nor", "t", "cannot", "skip"}
    # the negative pronouns as the stemmer leaves them: nothing, nobody, nowhere
    | {"noth", "nobodi", "nowher"}
)
DENIALS = NEGATIONS | {"exclud", "drop", "drops", "strip", "remov", "absent"}
#: How many words after a thing a denial may stand and still deny it ("kill criteria are not").
DENIED_AFTER = 3
#: Two-word markers that deny what follows them in their clause, as stems.
_CONTRASTS = (("rather", "than"), ("instead", "of"))
NEGATION_WINDOW = 6
#: The most words a signal's parts may spread over (first part's start to last part's end).
SIGNAL_WINDOW = 40
#: Where a clause ends: punctuation, a spaced dash, and the words that open a new clause.
_CLAUSE_BREAK = re.compile(
    r"[,;:()\[\]\u2014\u2013]|\s-\s|\b(?:so|because|since|while|whereas|unless|until|which|but|"
    r"although|though|whereby)\b",
    re.I,
)
_POSSESSIVES = frozenset({"their", "her", "his", "its", "our", "my", "your"})
#: Words between a qualifier and the thing it qualifies ("users' own laptops", "Marek's laptop").
_BETWEEN = frozenset({"own", "s"})
#: Endings of agent nouns (a person by role): developer, auditor, analyst, applicant, student,
#: employee, technician. Morphology, not a list of roles.
_AGENT_ENDINGS = ("er", "or", "ist", "ant", "ent", "ee", "ian")
#: From this cosine two agent nouns name the same subject in the word embedding.
SAME_SUBJECT_SIMILARITY = 0.5


@dataclass(frozen=True)
class Reading:
    """One text as words and stems, position by position, with the clause each word sits in."""

    words: tuple[str, ...]
    stems: tuple[str, ...]
    clauses: tuple[int, ...]

    def clause_span(self, at: int) -> range:
        clause = self.clauses[at]
        start = at
        while start > 0 and self.clauses[start - 1] == clause:
            start -= 1
        end = at
        while end < len(self.clauses) and self.clauses[end] == clause:
            end += 1
        return range(start, end)


@lru_cache(maxsize=4096)
def read(text: str) -> Reading:
    found: list[str] = []
    clauses: list[int] = []
    for number, piece in enumerate(_CLAUSE_BREAK.split(text)):
        piece_words = words(piece)
        found += piece_words
        clauses += [number] * len(piece_words)
    return Reading(tuple(found), tuple(stem_words(found)), tuple(clauses))


def _positions(seq: tuple[str, ...], phrase: tuple[str, ...]) -> list[int]:
    n = len(phrase)
    return [i for i in range(len(seq) - n + 1) if seq[i : i + n] == phrase] if n else []


def denied(reading: Reading, start: int, end: int) -> bool:
    """Whether the clause holding words ``start:end`` denies them: a denial anywhere in the
    clause outside those words, or a contrast marker ("rather than") before them."""
    span = reading.clause_span(start)
    for i in span:
        if start <= i < end:
            continue
        if reading.stems[i] in DENIALS:
            return True
        if i < start and tuple(reading.stems[i : i + 2]) in _CONTRASTS:
            return True
    return False


def _negated_before(reading: Reading, at: int) -> bool:
    return any(w in NEGATIONS for w in reading.stems[max(0, at - NEGATION_WINDOW) : at])


@dataclass(frozen=True)
class Span:
    """Words of a sentence that matched one part of a signal."""

    start: int
    end: int
    negative: bool

    def text(self, reading: Reading) -> str:
        return " ".join(reading.words[self.start : self.end])


@dataclass(frozen=True)
class SignalMatch:
    """A sentence doing what a prohibition forbids: the words that show it."""

    prohibition: Prohibition
    spans: tuple[Span, ...]
    reading: Reading

    def shown_by(self) -> str:
        """What the sentence affirms and what it denies, in its own words: 'affirms "model
        output", "written" and denies "human check"'."""
        affirmed = ", ".join(f'"{s.text(self.reading)}"' for s in self.spans if not s.negative)
        denied = ", ".join(f'"{s.text(self.reading)}"' for s in self.spans if s.negative)
        said = [f"affirms {affirmed}"] if affirmed else []
        said += [f"denies {denied}"] if denied else []
        return " and ".join(said)


def _spans(reading: Reading, alternatives: tuple[str, ...], scoped: bool) -> list[Span]:
    """Every place one part of a signal is shown: a denied alternative ("not x") where a
    negation stands just before it; an affirmed one where nothing denies it (its clause, in a
    signal of affirmed words only; the words just before it, in a signal with a denied part)."""
    out = []
    for alternative in alternatives:
        negative = alternative.startswith("not ")
        phrase = tuple(stems(alternative[4:] if negative else alternative))
        for at in _positions(reading.stems, phrase):
            if negative != _negated_before(reading, at):
                continue
            if not negative and scoped and denied(reading, at, at + len(phrase)):
                continue
            out.append(Span(at, at + len(phrase), negative))
    return out


def _together(parts: list[list[Span]]) -> tuple[Span, ...] | None:
    """One span per part, all within ``SIGNAL_WINDOW`` words: the parts of a signal describe one
    act, so words strewn across a flattened table do not show it."""
    for anchor in parts[0]:
        chosen = [anchor]
        for spans in parts[1:]:
            chosen.append(min(spans, key=lambda s: abs(s.start - anchor.start)))
        if max(s.end for s in chosen) - min(s.start for s in chosen) <= SIGNAL_WINDOW:
            return tuple(chosen)
    return None


def signal_match(text: str, prohibition: Prohibition) -> SignalMatch | None:
    """The first signal of ``prohibition`` the sentence shows, affirmed, or None.

    In a signal of affirmed words only, each must be affirmed in its own clause; a signal with a
    denied part ("not human") carries its denial itself, so its other parts need only not be
    negated just before.
    """
    reading = read(text)
    for signal in prohibition.signals:
        scoped = not any(a.startswith("not ") for part in signal for a in part)
        parts = [_spans(reading, part, scoped) for part in signal]
        if all(parts) and (spans := _together(parts)) is not None:
            return SignalMatch(prohibition, spans, reading)
    return None


def denies(text: str, thing: str) -> str:
    """The words with which ``text`` says a thing is not there or not done ("we are not setting
    kill criteria", "we will skip the risk screen", "kill criteria: none"), or "".

    The denial stands before the thing in its clause, or just after it; a question ("not yet
    approved?") asserts nothing and denies nothing.
    """
    if text.rstrip().endswith("?"):
        return ""
    reading = read(text)
    phrase = tuple(stems(thing))
    for at in _positions(reading.stems, phrase):
        end = at + len(phrase)
        clause = reading.clause_span(at)
        before = [i for i in range(clause.start, at) if reading.stems[i] in DENIALS]
        after = [
            i
            for i in range(end, min(end + DENIED_AFTER, clause.stop))
            if reading.stems[i] in DENIALS
        ]
        if before or after:
            first = min(before or [at])
            last = max(after or [end - 1])
            return " ".join(reading.words[first : last + 1])
    return ""


def _agent(word: str) -> bool:
    """Whether a word looks like an agent noun (a person by role), singular or plural."""
    if word in STOPWORDS or word in DENIALS or len(word) < 4:
        return False
    singular = word[:-1] if word.endswith("s") else word
    return singular.endswith(_AGENT_ENDINGS)


def _qualifier(reading: Reading, start: int) -> str:
    """The agent noun that holds the thing at ``start``: the word before it ("developer
    laptop", "users' own laptops"), or, after a possessive ("their laptops"), the first agent
    noun of its clause; "" when there is none."""
    at = start - 1
    while at >= 0 and reading.words[at] in _BETWEEN:
        at -= 1
    if at < 0 or reading.clauses[at] != reading.clauses[start]:
        return ""
    word = reading.words[at]
    if word in _POSSESSIVES:
        return next((w for w in _opening_phrase(reading, start) if _agent(w)), "")
    return word if _agent(word) else ""


def _opening_phrase(reading: Reading, at: int) -> list[str]:
    """The words a clause opens with, up to its first function word ("the two developers
    will ..." -> two, developers; "Omar builds the helper" -> omar, builds): where its subject
    stands, so that a thing named later in the clause ("the helper") is never taken for it."""
    clause = reading.clause_span(at)
    found = list(reading.words[clause.start : at])
    while found and found[0] in STOPWORDS:
        found.pop(0)
    run = []
    for w in found:
        if w in STOPWORDS:
            break
        run.append(w)
    return run


def _same_subject(a: str, b: str) -> bool:
    sa, sb = stem_words([a, b])
    if sa == sb or (min(len(sa), len(sb)) >= 3 and (sa.startswith(sb) or sb.startswith(sa))):
        return True
    va, vb = embed([a, b])
    return float(va @ vb) >= SAME_SUBJECT_SIMILARITY


@dataclass(frozen=True)
class Inapplicable:
    """A prohibition whose signal a sentence shows, but about another subject than the rule's."""

    prohibition: Prohibition
    thing: str
    rule_subject: str
    draft_subject: str

    def reason(self) -> str:
        return (
            f'the package rule "{self.prohibition.rule}" is about "{self.thing}" of the '
            f'{self.rule_subject}; the draft\'s sentence is about "{self.thing}" of the '
            f"{self.draft_subject}, another subject, so the rule does not apply to it"
        )


def inapplicable(match: SignalMatch) -> Inapplicable | None:
    """Why the rule does not apply to the matched sentence (another subject), or None.

    For each affirmed matched thing, the rule's own qualifier of that thing is compared with the
    sentence's; the rule applies unless both are agent nouns and they differ.
    """
    rule = read(match.prohibition.rule)
    for span in match.spans:
        if span.negative:
            continue
        phrase = match.reading.stems[span.start : span.end]
        rule_subject = next(
            (q for at in _positions(rule.stems, phrase) if (q := _qualifier(rule, at))), ""
        )
        if not rule_subject:
            continue
        draft_subject = _qualifier(match.reading, span.start)
        if draft_subject and not _same_subject(rule_subject, draft_subject):
            return Inapplicable(
                match.prohibition, span.text(match.reading), rule_subject, draft_subject
            )
    return None
