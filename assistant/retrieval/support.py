"""Coverage: how much of a question's informative weight the leading rows match (answerability reads it)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from assistant.package.expansion import Expansion
from core.text import stemmed_stopwords

#: A question's distinct content stems, and the glossary terms each expands to.
QuestionWords = tuple[list[str], dict[str, set[str]]]


#: The weight of a question word the package never uses: unknown words count against coverage.
UNKNOWN_WEIGHT = 2.0


def question_words(seq: Sequence[str], expansion: Expansion) -> QuestionWords:
    """The question's distinct content stems, and the glossary terms each expands to."""
    base = list(dict.fromkeys(s for s in seq if s not in stemmed_stopwords()))
    return base, expansion.expansions_by_word(seq)


def coverage(
    words: QuestionWords,
    matched_set: set[str],
    idf: Callable[[str], float | None],
) -> float:
    """IDF-weighted share of the question's own words (not expansions) that rows match.

    A word counts as matched when the rows have it, or when they have the canonical glossary
    term that the word (or the phrase it is part of) expands to.
    """
    base, expansions = words
    total = matched = 0.0
    for word in base:
        weight = idf(word)
        if weight is None:
            weight = UNKNOWN_WEIGHT
        total += weight
        if word in matched_set or expansions.get(word, set()) & matched_set:
            matched += weight
    return matched / total if total else 0.0
