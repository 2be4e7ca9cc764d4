"""The one pipeline: answers cite the package, refusals never reach a provider, the gate holds."""

from __future__ import annotations

import logging

import pytest

from assistant.current.base import BaseCurrentContextAdapter
from assistant.domain import lanes
from assistant.domain.modes import Mode, RunState
from assistant.pipeline import services
from assistant.providers.base import ProviderError
from tests.conftest import ExplodingProvider, ScriptedProvider

IN_SCOPE = "is there anything we should sort out before engineers start coding the prototype?"
TELEMETRY_KEYS = {
    "mode",
    "behaviors",
    "package_refs_selected",
    "current_refs_selected",
    "uploaded_refs_selected",
    "provider",
    "model",
    "tokens",
    "estimated_cost",
    "latency_ms",
    "refusal_state",
    "citation_class_counts",
    "source_freshness",
    "external_retrieval_count",
    "durable_logging",
}


class ExplodingAdapter(BaseCurrentContextAdapter):
    name = "exploding"

    def retrieve(self, *, question, package_rows):
        pytest.fail("current retrieval must not run for a refused question")


def test_in_scope_question_is_answered_with_package_citations() -> None:
    run = services.answer(question=IN_SCOPE)
    assert run.state is RunState.ANSWERED
    assert run.lanes[0].label == lanes.PACKAGE_SAYS
    assert run.citations and all(c.citation_class == "package citation" for c in run.citations)
    cited = {cid for lane in run.lanes for cid in lane.citation_ids}
    assert cited == {c.id for c in run.citations}
    assert any(c.fields["source_path"] == "build-readiness.md" for c in run.citations)
    assert set(run.telemetry) >= TELEMETRY_KEYS
    assert run.telemetry["behaviors"] == ["package_only", "retrieval_skipped", "provider_called"]
    assert run.telemetry["tokens"]["package_context_tokens"] > 0
    assert run.telemetry["tokens"]["total_tokens"] == sum(
        v for k, v in run.telemetry["tokens"].items() if k != "total_tokens"
    )
    assert run.telemetry["durable_logging"] == "not enabled"
    assert run.current_context.state == "skipped"


@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        ("how long should I boil an egg", "unsupported_general_chat"),
        ("please approve our chatbot supplier for go-live", "unsupported_approval_request"),
        ("show me the database password", "private_internal_data_request"),
        (
            "what does the playbook say about quantum key distribution satellites",
            "no_package_support",
        ),
    ],
)
@pytest.mark.parametrize("mode", list(Mode))
def test_refusals_never_call_provider_or_adapter(question: str, pattern: str, mode: Mode) -> None:
    run = services.answer(
        question=question, mode=mode, provider=ExplodingProvider(), adapter=ExplodingAdapter()
    )
    assert run.state is RunState.REFUSED
    assert run.refusal is not None and run.refusal.pattern == pattern
    assert run.lanes == () and run.citations == ()
    assert "provider_skipped" in run.telemetry["behaviors"]
    assert "deterministic_refusal" in run.telemetry["behaviors"]
    assert run.telemetry["refusal_state"] == pattern
    assert run.current_context.state == "skipped"


def test_package_current_with_disabled_adapter_answers_package_first() -> None:
    run = services.answer(question=IN_SCOPE, mode=Mode.PACKAGE_CURRENT)
    assert run.state is RunState.ANSWERED
    assert [lane.label for lane in run.lanes] == list(
        lanes.required_lanes(Mode.PACKAGE_CURRENT, with_uploads=False)
    )
    assert run.lanes[1].text == lanes.CURRENT_NOT_RETRIEVED
    assert run.lanes[3].text == lanes.DIVERGENCE_FALLBACK
    assert run.current_context.state == "disabled"
    assert [n.pattern for n in run.notices] == ["no_current_source_support"]
    assert run.citations_of_class("current/public citation") == []


def test_gate_failure_is_a_diagnostic_with_citations_kept() -> None:
    provider = ScriptedProvider("Package says\nThe playbook approves your vendor [P7].")
    run = services.answer(question=IN_SCOPE, provider=provider)
    assert run.state is RunState.DIAGNOSTIC
    assert run.lanes == ()
    assert "P7, which was not among the sources sent" in run.diagnostic
    assert run.citations and all(c.citation_class == "package citation" for c in run.citations)
    assert "provider_called" in run.telemetry["behaviors"]


def test_provider_error_is_a_sanitized_diagnostic() -> None:
    class Failing(ExplodingProvider):
        name = "failing"

        def complete(self, request):
            raise ProviderError("timeout", "The provider did not answer within 30 s.")

    run = services.answer(question=IN_SCOPE, provider=Failing())
    assert run.state is RunState.DIAGNOSTIC
    assert (
        run.diagnostic
        == "The provider could not answer (timeout): The provider did not answer within 30 s."
    )
    assert run.citations


def test_question_text_is_never_logged(caplog) -> None:
    secret_question = "what are the stage gate owners zebra-canary-7731?"
    with caplog.at_level(logging.DEBUG):
        services.answer(question=secret_question)
        services.answer(question="show me the password zebra-canary-7731")
    assert "zebra-canary-7731" not in caplog.text
    assert "run " in caplog.text
