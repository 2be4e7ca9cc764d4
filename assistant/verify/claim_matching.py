"""Claim matching: which cited sentences a claim aligns with, and where it disagrees with them.

Alignment is greedy over the claim's content words (at most three sentences); the checks are the
elements that must agree exactly: numbers, durations, roles, capitalised names, negation, modal
strength and quotations. ``assistant.verify.claim_support`` turns their results into a score.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence, Set
from itertools import pairwise

from assistant.verify.claim_analysis import Analyzer, Sentence, SourceText
from assistant.verify.claims import (
    IMPLICATION_LABEL,
    QUOTED,
    flat,
    negation_scopes,
    numbers,
    roles,
    verbatim,
)
from core.text import STOPWORDS, content_stems, words

MAX_ALIGNED = 3
# A further aligned sentence must add at least this many of the claim's words.
MIN_FURTHER_GAIN = 2
# Coverage at which alignment stops looking for more sentences.
ENOUGH_COVERAGE = 0.95

# The item labels of the missing-evidence lane (assistant/review/criteria_lanes.py): the lane's
# own words, never a name the sources must hold.
_MISSING_ITEM_LABEL = re.compile(
    r"^[\s*_]*(?:missing|evidence to complete|blocker to resolve)\s*(?:\*\*|__)?\s*:", re.I
)
_CAPITALISED = re.compile(r"(?<![\w'’])[A-Z][A-Za-z0-9]*(?:[-&.][A-Za-z0-9]+)*")


def entities(body: str, analyzer: Analyzer) -> set[str]:
    """Capitalised names in a claim: any capitalised word not opening the sentence, and an opening
    word that is an acronym or mixed-case name, or that the package's vocabulary never uses."""
    text = IMPLICATION_LABEL.sub("", body, count=1)
    text = _MISSING_ITEM_LABEL.sub("", text, count=1).lstrip(" \"'“‘(*_")
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


def missing_entities(body: str, analyzer: Analyzer, sources: Sequence[SourceText]) -> bool:
    found = entities(body, analyzer)
    if not found:
        return False
    known = frozenset().union(*(src.words for src in sources))
    tokens = frozenset().union(*(s.tokens for src in sources for s in [*src.sentences, src.header]))
    alternatives = analyzer.claim_alternatives(body)
    return any(not analyzer.name_known(e, known, tokens, alternatives) for e in found)


def exceeds(claim: Counter[str], available: Iterable[Counter[str]]) -> bool:
    """Whether the claim has more of some element than the given sentences together."""
    total: Counter[str] = Counter()
    for counts in available:
        total.update(counts)
    return any(n > total[k] for k, n in claim.items())


def critical_stems(body: str) -> set[str]:
    """Stems of the elements checked exactly (numbers, roles): alignment does not use them."""
    out = set(content_stems(" ".join(numbers(body))))
    for role in roles(body):
        out.update(content_stems(role))
    return out


def align(
    claim_terms: list[str],
    alternatives: dict[str, set[str]],
    sentences: Sequence[Sentence],
    ties: Sequence[str] = (),
) -> tuple[list[Sentence], float]:
    """Greedy alignment: the sentences covering most of the claim's words, and the share covered.

    Among sentences covering as many of ``claim_terms``, the one holding more of ``ties`` wins,
    then the most specific: a claim whose own words are few ("Accountable: ...; Consulted: ...")
    is aligned with the table row it quotes, not with the header that shares those few words.
    """
    tie_terms = set(ties)
    wanted = list(dict.fromkeys(claim_terms))
    if not wanted:
        return [], 1.0

    def hits(sentence: Sentence, remaining: set[str]) -> set[str]:
        return {
            t
            for t in remaining
            if t in sentence.tokens or alternatives.get(t, set()) & sentence.tokens
        }

    remaining = set(wanted)
    aligned: list[Sentence] = []
    while remaining and len(aligned) < MAX_ALIGNED:
        # Most of the claim's remaining words; among equals, the most specific sentence.
        best, gain, best_key = None, set(), (0, 0, 0)
        for sentence in sentences:
            if sentence in aligned:
                continue
            got = hits(sentence, remaining)
            key = (
                len(got),
                len(hits(sentence, tie_terms)) if tie_terms else 0,
                -len(sentence.terms),
            )
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


def is_attributed_quote(
    body: str, sources: Sequence[SourceText], page_joins: Set[tuple[str, str]] = frozenset()
) -> bool:
    """A verbatim quotation of the cited sources introduced only by where it comes from
    (``Draft PRD.pdf, page 3: "..."``): the quote is the claim, and it is the source's text.

    ``page_joins`` are the (page N, page N+1) excerpt id pairs that the server found one sentence
    to run across (``assistant.review.criterion_assessment.Check.continued_id``): cited in that order, the
    quote may run from the end of the first into the start of the second.
    """
    shaped = _ATTRIBUTED.match(body)
    if shaped is None:
        return False
    joined = [
        f"{a.text_flat} {b.text_flat}"
        for a, b in pairwise(sources)
        if (a.citation_id, b.citation_id) in page_joins
    ]
    haystack = "\n".join([*(src.flat for src in sources), *joined])
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


def covered_share(
    terms: list[str], alternatives: dict[str, set[str]], sentences: Sequence[Sentence]
) -> float:
    wanted = set(terms)
    if not wanted:
        return 1.0
    tokens = frozenset().union(*(s.tokens for s in sentences)) if sentences else frozenset()
    covered = {t for t in wanted if t in tokens or alternatives.get(t, set()) & tokens}
    return len(covered) / len(wanted)


def negation_differs(body: str, aligned: Sequence[Sentence], pool: Sequence[Sentence]) -> bool:
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


def bad_quotes(body: str, sources: Sequence[SourceText]) -> bool:
    haystack = "\n".join(src.flat for src in sources)
    for m in QUOTED.finditer(body):
        quoted = flat(m.group(1)).rstrip("…").rstrip(".").strip()
        if quoted and quoted not in haystack:
            return True
    return False
