"""The screening holds issue #15's bars on authors it never saw (the full report: `make eval`).

Every author of the corpus is held out in turn: the intent model, its thresholds and the
answerability weights that decide that author's questions are learnt from the other authors
only. The floors below are the issue's bars; no figure here was tuned on the author it measures.
"""

from __future__ import annotations

import pytest

from learning.screening import corpus, evaluation


@pytest.fixture(scope="module")
def report() -> evaluation.Report:
    return evaluation.cross_author()


def test_the_corpus_has_four_or_more_authors_each_covering_every_class() -> None:
    examples = corpus.load()
    assert len(examples) >= 4000
    by_author: dict[str, set[str]] = {}
    for example in examples:
        by_author.setdefault(example.author, set()).add(example.category)
    full = [a for a, cats in by_author.items() if cats == set(evaluation.CATEGORIES)]
    assert len(full) >= 4, by_author


@pytest.mark.parametrize(("category", "bar"), sorted(evaluation.BARS.items()))
def test_each_class_meets_its_bar_on_held_out_authors(
    report: evaluation.Report, category: str, bar: float
) -> None:
    assert report.rate(category) >= bar, f"{category}: {report.rate(category):.3f} < {bar}"


@pytest.mark.parametrize(("category", "bar"), sorted(evaluation.ANY_REFUSAL_BARS.items()))
def test_refusal_classes_are_refused_at_all_on_held_out_authors(
    report: evaluation.Report, category: str, bar: float
) -> None:
    assert report.any_refusal_rate(category) >= bar


def test_no_held_out_author_collapses(report: evaluation.Report) -> None:
    # Pooled figures could hide one author's questions being handled badly.
    for author in report.authors:
        for category in ("in_scope", "general_chat", "approval", "private_data"):
            if report._items(category, author):
                assert report.rate(category, author) >= 0.80, (author, category)
