"""The deterministic provider's answers are quotes: the claim verifier supports every claim."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.domain.modes import RunState
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from learning.evaluation.grounding import load_questions

QUESTIONS = Path(__file__).resolve().parents[2] / "data" / "eval" / "questions.jsonl"


@pytest.mark.slow
def test_every_answered_question_passes_the_verifier_at_100_percent() -> None:
    provider = DeterministicProvider()
    answered = 0
    for question in load_questions(QUESTIONS):
        run = services.answer(question=question.question, provider=provider)
        if run.state is RunState.REFUSED:
            continue
        assert run.state is RunState.ANSWERED, (question.id, run.diagnostic)
        support = run.telemetry["claim_support"]
        assert support["checked"] and support["unsupported_count"] == 0, question.id
        assert all(claim["supported"] for claim in support["claims"]), question.id
        answered += 1
    assert answered >= 150
