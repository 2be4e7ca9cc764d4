"""The criteria-driven review: declared criteria, whole-upload evidence, blockers from package prohibitions."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.domain import lanes
from assistant.domain.modes import RunState
from assistant.package.artifacts import PackageError, load_package
from assistant.package.criteria import collect
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval.context_pack import get_context_pack
from assistant.review import draft_kinds
from assistant.verify import answer_check as gate
from tests.uploads.helpers import sources_from

DRAFT = """# Product requirements document: claims helper

## Problem

Our primary outcome is to cut median triage time from 14 minutes to under 6 minutes per claim.

## Users

## Data

Claim narratives with injury descriptions are sent to the model, and as the data stays in our tenancy we are not planning a data protection review.

## Security

Since the booking is confirmed, we are treating security as cleared for the pilot.

## Cost

Model usage for the proof of concept comes to about £310 across 4,000 requests.
"""


def _review(text: str = DRAFT, question: str = "Review this draft."):  # type: ignore[no-untyped-def]
    sources = sources_from(paste=("claims-helper-prd.md", text))
    return sources, services.answer(
        question=question, session_sources=sources, provider=DeterministicProvider()
    )


def test_the_package_declares_readiness_and_ea_criteria() -> None:
    review = get_context_pack().review
    assert len(review.for_kind("prd")) == 13 and len(review.for_kind("poc_proposal")) == 13
    assert [c.name for c in review.for_kind("architecture_proposal")][:3] == [
        "Problem fit",
        "Data boundary",
        "Integration",
    ]
    kill = next(c for c in review.for_kind("prd") if c.name == "Kill criteria")
    assert kill.confirmed_by == "Product owner and risk owner"
    assert kill.row_id == "build-readiness#readiness-checklist"
    assert review.prohibitions_for("Personal data")


def test_check_reports_a_rule_that_is_not_a_package_sentence(tmp_path: Path) -> None:
    body = "## Checklist\n\n| Item | Evidence expected | Confirmed by |\n|---|---|---|\n| Owners | Names | Product owner |\n"
    extra = (
        "review_criteria:\n  Checklist:\n    applies_to: [prd]\n    terms:\n      Owners: owner\n"
        "review_prohibitions:\n  - criterion: Owners\n    section: Checklist\n    rule: Invented rule.\n"
        "    signals: nobody\n"
    )
    (tmp_path / "a.md").write_text(
        "---\ntitle: A\nsource_family: f\nsource_quality: q\nclaim_boundary: b\n"
        + extra
        + "---\n\n# A\n\n"
        + body,
        encoding="utf-8",
    )
    with pytest.raises(PackageError) as err:
        load_package(tmp_path)
    assert any("prohibition rule is not a sentence" in p for p in err.value.problems)


def test_the_shipped_declaration_is_valid() -> None:
    from django.conf import settings

    _, problems = collect(load_package(Path(settings.AICD_PACKAGE_DIR)).artifacts)
    assert problems == []


def test_review_walks_every_criterion_and_flags_the_planted_gaps() -> None:
    sources, run = _review()
    assert run.state is RunState.ANSWERED, run.diagnostic
    body = {lane.label: lane.text for lane in run.lanes}
    assessment = body[lanes.ASSESSMENT]
    assert draft_kinds.draft_kind("Review this draft.", sources) == "prd"
    assert "- pass: Problem statement [P" in assessment
    assert "- blocker: Personal data [P" in assessment
    assert "The data protection officer should confirm the processing basis" in assessment
    assert "- blocker: Security booking [P" in assessment
    assert "- missing evidence: Kill criteria [P" in assessment
    assert "- pass: Cost estimate [P" in assessment
    assert assessment.count("\n- ") + 1 >= 13
    missing = body[lanes.MISSING_EVIDENCE]
    assert (
        "- Missing: Kill criteria [P" in missing
        and "decided by Product owner and risk owner" in missing
    )
    # Uploaded quotes are whole sentences of the draft, one per finding; a bare heading is never one.
    uploaded = body[lanes.UPLOADED_SAYS]
    assert '"Claim narratives with injury descriptions are sent to the model' in uploaded
    assert '"## Users"' not in uploaded and '"Users"' not in uploaded
    flat = " ".join(DRAFT.split())
    for line in uploaded.split("\n\n"):
        quote = line.split(': "', 1)[1].rsplit('" [U', 1)[0]
        assert quote in flat


def test_the_question_can_name_the_draft_kind() -> None:
    _, run = _review(question="Review this architecture proposal.")
    assessment = next(lane.text for lane in run.lanes if lane.label == lanes.ASSESSMENT)
    assert "Sustainment [P" in assessment and "Kill criteria" not in assessment


def test_gate_rejects_findings_for_criteria_that_were_not_sent() -> None:
    sources = sources_from(paste=("draft.md", DRAFT))
    recorded = []

    class Recording(DeterministicProvider):
        def complete(self, request):  # type: ignore[no-untyped-def]
            recorded.append(request)
            return super().complete(request)

    services.answer(question="Review this draft.", session_sources=sources, provider=Recording())
    [request] = recorded
    text = Recording().complete(request).text
    assert gate.verify(text, request).ok
    forged = text.replace(
        "- missing evidence: Kill criteria", "- missing evidence: Moon landing", 1
    )
    problems = gate.verify(forged, request).problems
    assert any("criterion that was not sent: Moon landing" in p for p in problems)
