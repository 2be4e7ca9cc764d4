"""The support decision: whether the leading rows cover enough of the question to answer from."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.expansion import Expansion
from core.text import stemmed_stopwords

#: A question's distinct content stems, and the glossary terms each expands to.
QuestionWords = tuple[list[str], dict[str, set[str]]]


@dataclass(frozen=True)
class SupportThreshold:
    """Calibrated minimum evidence for "package support".

    ``coverage`` is the share of the question's informative weight (IDF of each distinct query
    word, ``unknown_weight`` for words the package never uses) that the top row matches, and
    ``coverage_top`` the share the leading rows match together (a question spanning two
    sections); ``min_matched_weight`` asks for at least one reasonably specific word in common.
    Calibrated on tests/eval/questions.jsonl: see docs/evaluation.md.
    """

    min_score: float = 1.0
    min_coverage: float = 0.2
    min_coverage_top: float = 0.45
    min_matched_weight: float = 1.5
    unknown_weight: float = 2.0


def question_words(seq: Sequence[str], expansion: Expansion) -> QuestionWords:
    """The question's distinct content stems, and the glossary terms each expands to."""
    base = list(dict.fromkeys(s for s in seq if s not in stemmed_stopwords()))
    return base, expansion.expansions_by_word(seq)


def coverage(
    words: QuestionWords,
    matched_set: set[str],
    idf: Callable[[str], float | None],
    threshold: SupportThreshold,
) -> tuple[float, float]:
    """IDF-weighted share of the question's own words (not expansions) that rows match.

    A word counts as matched when the rows have it, or when they have the canonical glossary
    term that the word (or the phrase it is part of) expands to. Returns (share, matched weight).
    """
    base, expansions = words
    total = matched = 0.0
    for word in base:
        weight = idf(word)
        if weight is None:
            weight = threshold.unknown_weight
        total += weight
        if word in matched_set or expansions.get(word, set()) & matched_set:
            matched += weight
    if total == 0:
        return 0.0, 0.0
    return matched / total, matched


def is_supported(
    *,
    top_score: float,
    matched_weight: float,
    coverage: float,
    coverage_top: float,
    threshold: SupportThreshold,
) -> bool:
    """The package supports the question: a real score, a specific word, enough coverage."""
    return (
        top_score >= threshold.min_score
        and matched_weight >= threshold.min_matched_weight
        and (coverage >= threshold.min_coverage or coverage_top >= threshold.min_coverage_top)
    )
