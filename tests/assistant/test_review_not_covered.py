"""Not covered findings: an aspect the review question names that no declared criterion covers."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.domain import lanes
from assistant.package.artifacts import PackageError, load_package
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval.context_pack import get_context_pack
from assistant.review import aspects as review_aspects
from assistant.review import criteria_review, criterion_assessment
from tests.uploads.helpers import sources_from

DRAFT = """# Product requirements document: claims helper

## Problem

Our primary outcome is to cut median triage time from 14 minutes to under 6 minutes per claim.

## Cost

Model usage for the proof of concept comes to about £310 across 4,000 requests.
"""


def _run(question: str):  # type: ignore[no-untyped-def]
    sources = sources_from(paste=("claims-helper-prd.md", DRAFT))
    return services.answer(
        question=question, session_sources=sources, provider=DeterministicProvider()
    )


def _by_status(run, status: str) -> list[dict]:  # type: ignore[no-untyped-def]
    return [f for f in run.review.criteria if f["status"] == status]


def test_an_aspect_without_a_criterion_is_not_covered_citing_the_package_row() -> None:
    run = _run(
        "Review this PRD, especially accessibility for screen readers and the cost estimate."
    )
    uncovered = _by_status(run, criterion_assessment.NOT_COVERED)
    assert [f["criterion"] for f in uncovered] == ["accessibility for screen readers"]
    finding = uncovered[0]
    assert finding["finding_label"] == "not covered" and finding["evidence"] is None
    assert finding["package"]["row_id"] == "architecture-review-assistant#findings-vocabulary"
    assert finding["package"]["citation_id"].startswith("P")
    assert "does not contain criteria" in finding["evidence_expected"]
    # The cost estimate is a declared criterion: assessed, not "not covered".
    assert any(
        f["criterion"] == "Cost estimate"
        for f in run.review.criteria
        if f["status"] != "not_covered"
    )
    lane = {lane.label: lane.text for lane in run.lanes}
    # The lanes rest only on sources: the package's "not covered" row, not the asker's words.
    assert "- not covered: the package does not contain criteria" in lane[lanes.ASSESSMENT]
    assert "- Not covered [" in lane[lanes.MISSING_EVIDENCE]
    assert "may raise a package issue" in lane[lanes.MISSING_EVIDENCE]
    assert run.state.value == "answered"


def test_a_plain_review_question_names_no_aspect() -> None:
    for question in (
        "Review this draft.",
        "Review this draft against the package's review criteria.",
        "Please review this PRD against the readiness checklist and tell me what's missing",
        "Check this draft for me please",
        "Review the attached architecture proposal against the EA criteria and flag blockers.",
    ):
        review = get_context_pack().review
        wanted, uncovered = criteria_review.asked(question, "prd", review)
        assert (wanted, uncovered) == ([], []), question


def test_an_aspect_under_another_kinds_criterion_is_assessed_as_that_criterion() -> None:
    run = _run("Does this PRD cover observability and the rollback plan?")
    names = [f["criterion"] for f in run.review.criteria]
    # Observability and Resilience are EA criteria, not readiness ones: assessed because asked.
    assert "Observability" in names and "Resilience" in names
    assert _by_status(run, criterion_assessment.NOT_COVERED) == []


@pytest.mark.parametrize(
    ("aspect", "expected"),
    [
        ("rollback plan", "Resilience"),
        ("DPIA", "Personal data"),
        ("model version pinning", "Model route"),
        ("accessibility", None),  # the stemmer's "access" is another subject
        ("energy usage", None),  # a glossary synonym of one word does not cover the other
        ("carbon footprint", None),
    ],
)
def test_aspects_fall_under_the_criterion_that_names_them(
    aspect: str, expected: str | None
) -> None:
    pack = get_context_pack()
    kind_first = list(dict.fromkeys((*pack.review.for_kind("prd"), *pack.review.criteria)))
    found = review_aspects.asked_aspects(f"Check the {aspect}.")
    assert [a.text for a in found] == [aspect]
    criterion = review_aspects.criterion_for(found[0], kind_first, pack.index.expansion)
    assert (criterion.name if criterion else None) == expected


def test_aspects_are_split_and_cleaned_from_the_question() -> None:
    found = review_aspects.asked_aspects(
        "Check the cost estimate and kill criteria in this POC proposal, plus [P1] vendor lock-in."
    )
    # A bracket ends the clause: nothing that could read as a citation reaches an aspect.
    assert [a.text for a in found] == ["cost estimate", "kill criteria"]


def test_an_aspect_that_imitates_a_lane_label_stays_out_of_the_lanes() -> None:
    run = _run("Review this PRD, especially the Package says lane wording.")
    assert run.state.value == "answered"
    uncovered = _by_status(run, criterion_assessment.NOT_COVERED)
    assert [f["criterion"] for f in uncovered] == ["Package says lane wording"]
    # The asker's words never reach a lane: no lane label can be imitated through them.
    assert [lane.label for lane in run.lanes].count(lanes.PACKAGE_SAYS) == 1
    assert all("lane wording" not in lane.text for lane in run.lanes)


def test_the_declared_not_covered_row_is_checked(tmp_path: Path) -> None:
    body = "## Labels\n\n| Label | Meaning | Next |\n|---|---|---|\n| Gap | Silent | Ask |\n"
    (tmp_path / "a.md").write_text(
        "---\ntitle: A\nsource_family: f\nsource_quality: q\nclaim_boundary: b\n"
        "review_not_covered:\n  section: Labels\n  label: Not covered\n---\n\n# A\n\n" + body,
        encoding="utf-8",
    )
    with pytest.raises(PackageError) as err:
        load_package(tmp_path)
    assert any("needs a table row 'Not covered'" in p for p in err.value.problems)


@pytest.mark.django_db
def test_the_checklist_and_packet_show_a_not_covered_row(logged_in_client) -> None:  # type: ignore[no-untyped-def]
    import re
    from html import unescape

    from django.core.files.uploadedfile import SimpleUploadedFile

    logged_in_client.post(
        "/session-sources/add",
        {"file": SimpleUploadedFile("claims-helper-prd.md", DRAFT.encode()), "title": ""},
    )
    html = logged_in_client.post(
        "/",
        {
            "mode": "package_only",
            "question": "Review this PRD, especially accessibility for screen readers.",
            "session_source_ids": ["session-file-001"],
        },
        follow=True,
    ).content.decode()
    row = re.search(r'<tr class="finding finding-not-covered".*?</tr>', html, re.S)
    assert row is not None
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", row.group(0))).split())
    assert text.startswith("accessibility for screen readers not covered")
    assert "Next step: The reviewer applies judgement" in text
    run_id = re.search(r'data-run-id="([^"]+)"', html).group(1)
    packet = logged_in_client.get(f"/runs/{run_id}/packet.md").content.decode()
    assert "accessibility for screen readers" in packet and "not covered" in packet
    assert "next step: The reviewer applies judgement" in packet


def test_a_review_request_with_drafts_selected_is_not_judged_on_its_wording() -> None:
    # Without a draft, the package does not cover "Zorblax": a refusal. With the draft selected, a
    # request that opens by asking for its review is the review, whatever else it names.
    question = "Review my draft: what did I miss about the Zorblax v3 rollout?"
    alone = services.answer(question=question, provider=DeterministicProvider())
    assert alone.refusal is not None and alone.refusal.pattern == "no_package_support"
    run = _run(question)
    assert run.state.value == "answered" and run.review is not None
    assert run.telemetry["screening"]["coverage_check"] == "not applied"
    # A question that is not a review request is judged as without uploads.
    other = _run("what did I miss about the Zorblax v3 rollout?")
    assert other.refusal is not None and other.refusal.pattern == "no_package_support"


def test_the_policy_skips_answerability_only_when_reviewing() -> None:
    from assistant.pipeline import policy

    pack = get_context_pack()
    question = "What does the Zorblax 7.2 manual say about Kubernetes namespaces?"
    search = pack.index.search(question, k=8)
    assert policy.decide(question, search, pack).refusal is not None
    reviewing = policy.decide("Review this draft. " + question, search, pack, with_sources=True)
    assert reviewing.refusal is None
    assert reviewing.screening["answerability"]["applied"] is False


def test_review_requests_in_the_corpus_are_marked_and_kept_out_of_answerability() -> None:
    from learning.screening import answerability as answerability_training
    from learning.screening import corpus, evaluation

    examples = corpus.load()
    marked = [e for e in examples if e.with_upload]
    assert marked and {e.author for e in marked} >= {"reviewreq", "reviewreq2"}
    measured = answerability_training.measure(
        marked[:5] + [e for e in examples if not e.with_upload][:5],
        answerability_training.sample_pack(),
    )
    assert not any(m.example.with_upload for m in measured)
    # Decided as at run time: a request opening with a review request is screened for intent
    # only; answerability does not apply to it.
    from assistant.screening import screen

    opening = [e for e in marked if screen.opens_with_review_request(e.question)][:20]
    assert opening
    decided = evaluation.decide_all(opening, {}, *_models())
    assert all(d.outcome in evaluation.OUTCOMES for d in decided)
    assert not any(d.outcome == evaluation.NO_SUPPORT for d in decided)


def _models():  # type: ignore[no-untyped-def]
    from assistant.screening.artifact import get_screening

    screening = get_screening()
    return screening.intent, screening.answerability
