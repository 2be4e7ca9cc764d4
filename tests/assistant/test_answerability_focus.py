"""Answerability tells the asker's context from what the question asks about."""

from __future__ import annotations

import pytest

from assistant.retrieval.context_pack import get_context_pack
from assistant.screening import answerability


@pytest.mark.parametrize(
    ("question", "context"),
    [
        (
            "Writing docs for the Marlin integration. What is a deterministic refusal?",
            "Writing docs for the Marlin integration. ",
        ),
        (
            "For the Tundra deployment, how much headroom should we keep?",
            "For the Tundra deployment, ",
        ),
        ("We use Jira; who signs gate 3?", "We use Jira; "),
        ("Which Splunk index should the gateway logs go to?", ""),
        ("who signs gate 3", ""),
    ],
)
def test_focus_starts_where_the_question_asks(question: str, context: str) -> None:
    assert question[: answerability.focus_start(question)] == context


def _evidence(question: str) -> answerability.Evidence:
    pack = get_context_pack()
    return answerability.evidence(
        question,
        pack.index.search(question, k=8),
        vocabulary=pack.index.doc_freq,
        package_text=pack.text,
        correct=pack.index.correct,
    )


def test_a_missing_name_in_the_context_is_counted_apart_from_one_in_the_focus() -> None:
    context = _evidence("We run everything on Kubernetes at Zorblax. Who signs off gate 3?")
    focus = _evidence("Which Zorblax Kubernetes namespace should the gateway run in?")
    assert (context.missing_in_context, context.missing_in_focus) == (2, 0)
    assert (focus.missing_in_focus, focus.missing_in_context) == (3, 0)  # and "namespace"


def test_the_model_weighs_a_missing_subject_above_missing_context() -> None:
    from assistant.screening.artifact import get_screening

    model = get_screening().answerability
    weights = dict(zip(answerability.FEATURES, model.weights, strict=True))
    # Learnt from the corpus: a name in the asking clause says "not covered" more than one in the
    # context the asker gives.
    assert weights["missing_in_focus"] < weights["missing_in_context"]
