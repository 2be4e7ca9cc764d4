"""The cross-author screening report as Markdown: an author's missing classes have no figure."""

from __future__ import annotations

from learning.screening import evaluation
from learning.screening.corpus import Example


def test_a_class_an_author_did_not_write_shows_no_figure() -> None:
    report = evaluation.Report(
        [
            evaluation.Decided(Example("a", "in_scope", "q1"), evaluation.ANSWERED),
            evaluation.Decided(Example("a", "no_support", "q2"), evaluation.NO_SUPPORT),
            evaluation.Decided(Example("b", "approval", "q3"), "unsupported_approval_request"),
        ]
    )
    text = evaluation.render_markdown(report)
    row_a = next(line for line in text.splitlines() if line.startswith("| a |"))
    row_b = next(line for line in text.splitlines() if line.startswith("| b |"))
    assert row_a == "| a | 100.0% | — | — | — | — | 100.0% |"
    assert row_b == "| b | — | — | — | 100.0% | — | — |"
