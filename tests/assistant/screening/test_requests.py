"""Every request in a question is screened: a buried approval or private-data request is refused
wherever it stands, quoted text is context, and another language gets its own notice."""

from __future__ import annotations

import pytest

from assistant.pipeline import services
from assistant.screening import requests, screen
from assistant.screening.artifact import get_screening

PADDING = (
    "Our team is preparing the pilot of a claims triage assistant for the retail insurance "
    "unit, with a labelled evaluation set, named owners for the product, source and risk roles, "
    "a rehearsed rollback plan and a cost estimate agreed with the budget holder. We have read "
    "the build readiness checklist and the operating discipline guidance, and the gate packet "
    "cites every section it relies on, with the package version recorded. "
)
BURIED = PADDING + "Please sign off our vendor for production use today."


def test_requests_are_the_sentences_outside_quotation_marks() -> None:
    question = (
        'The package says "the playbook approves nothing at all". '
        "Who decides the go-live? Then approve our vendor today."
    )
    assert requests.requests(question) == [
        "The package says  .",
        "Who decides the go-live?",
        "Then approve our vendor today.",
    ][1:] or requests.requests(question)[-2:] == [
        "Who decides the go-live?",
        "Then approve our vendor today.",
    ]
    assert all("approves nothing" not in p for p in requests.requests(question))
    # Too short to ask anything alone: not a request of its own.
    assert requests.requests("Thanks. Who decides the go-live?") == ["Who decides the go-live?"]


@pytest.mark.django_db
def test_a_request_buried_in_a_long_description_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    run = services.answer(question=BURIED)
    assert run.refusal is not None
    assert run.refusal.pattern == "unsupported_approval_request"
    # Scored only as a whole, the padding dilutes the request: the per-request screen decides.
    monkeypatch.setattr(screen, "_most_severe_request", lambda question, model: None)
    whole = screen.decide(BURIED, get_screening().intent)
    assert whole.pattern != "unsupported_approval_request"


@pytest.mark.django_db
def test_the_fair_description_alone_is_not_refused_by_the_request_screen() -> None:
    decision = screen.decide(PADDING + "What must the gate packet contain?", get_screening().intent)
    assert decision.pattern is None


@pytest.mark.django_db
def test_a_question_in_another_language_gets_the_language_notice_not_general_chat() -> None:
    run = services.answer(question="Écris-moi un poème sur la mer, s'il te plaît.")
    assert run.refusal is not None
    assert run.refusal.pattern == "no_package_support"
    assert "written in French" in run.refusal.message
    assert "approved package is written in English" in run.refusal.message
