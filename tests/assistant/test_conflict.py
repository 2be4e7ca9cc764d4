"""Tests for assistant.compose.conflict: opposite obligation cues on shared key terms, and the answer shape."""

from __future__ import annotations

import pytest

from assistant.compose import conflict
from assistant.domain import lanes
from assistant.domain.modes import Mode
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.providers.deterministic import DeterministicProvider
from assistant.verify import answer_check


def pref(text: str, cid: str = "P1") -> SourceRef:
    return SourceRef(cid, lanes.PACKAGE_CITATION, "Package section", text)


def cref(text: str, cid: str = "C1") -> SourceRef:
    return SourceRef(cid, lanes.CURRENT_CITATION, "Public page", text)


@pytest.mark.parametrize(
    "sentence, expected",
    [
        ("Teams must record every model change in the register.", conflict.REQUIRES),
        ("A named owner is required for each material risk.", conflict.REQUIRES),
        ("Reviewers need to check the risk register.", conflict.REQUIRES),
        ("Teams must not record model changes in the register.", conflict.RULES_OUT),
        ("Recording model changes is optional for pilots.", conflict.RULES_OUT),
        ("A named owner is not required for low risks.", conflict.RULES_OUT),
        ("Teams never need a separate register for pilots.", conflict.RULES_OUT),
        ("The register lists risks with owners and dates.", None),
    ],
)
def test_polarity(sentence, expected):
    assert conflict.polarity(sentence) == expected


def test_opposite_obligations_on_the_same_terms_conflict():
    found = conflict.detect(
        (
            pref(
                "Intro text without cues at all. Every model version change must be recorded in the change log before release."
            ),
        ),
        (
            cref(
                "Some context first. Recording a model version change in the change log is optional before release."
            ),
        ),
    )
    assert found is not None
    assert found.package_sentence.startswith("Every model version change must")
    assert found.current_sentence.startswith("Recording a model version change")
    assert (found.package_polarity, found.current_polarity) == (
        conflict.REQUIRES,
        conflict.RULES_OUT,
    )
    assert {"model", "version", "change", "log", "release"} <= set(found.shared_words)


@pytest.mark.parametrize(
    "package, current",
    [
        # same direction
        (
            "Model changes must be recorded in the change log.",
            "Model changes should be recorded in the change log.",
        ),
        # opposite direction but about different things
        (
            "Model changes must be recorded in the change log.",
            "Vendors do not need a security questionnaire for pilots.",
        ),
        # too few shared terms to say they speak about the same thing
        (
            "Each risk register entry should contain an owner.",
            "Identification does not need repeating once a risk register exists.",
        ),
        # no obligation stated on one side
        (
            "Model changes must be recorded in the change log.",
            "The change log lists model changes by date.",
        ),
    ],
)
def test_no_conflict_without_opposite_cues_on_shared_terms(package, current):
    assert conflict.detect((pref(package),), (cref(current),)) is None


def test_best_pair_wins_deterministically():
    package = pref(
        "A reviewer should expect the risk register to grow at each stage gate. "
        "Risk identification should start early and be repeated at every stage gate."
    )
    current = cref(
        "Risk identification does not need to be repeated at every stage gate once a risk register exists."
    )
    found = conflict.detect((package,), (current,))
    assert found is not None and found.package_sentence.startswith(
        "Risk identification should start early"
    )


def _request(package: str, current: str) -> ProviderRequest:
    return ProviderRequest(
        mode=Mode.PACKAGE_CURRENT,
        question="Must model version changes be recorded in the change log?",
        lane_order=lanes.required_lanes(Mode.PACKAGE_CURRENT, with_uploads=False),
        package_refs=(pref(package),),
        current_refs=(cref(current),),
    )


def test_deterministic_provider_writes_the_conflict_shape_and_passes_the_gate():
    request = _request(
        "Every model version change must be recorded in the change log before release. Owners sign it.",
        "Recording a model version change in the change log is optional before release.",
    )
    response = DeterministicProvider().complete(request)
    verdict = answer_check.verify(response.text, request)
    assert verdict.ok, verdict.problems
    by_label = {lane.label: lane for lane in verdict.lanes}
    assert "must be recorded in the change log" in by_label[lanes.PACKAGE_SAYS].text
    assert "is optional before release" in by_label[lanes.CURRENT_SAYS].text
    divergence = by_label[lanes.DIVERGENCE]
    assert divergence.text.startswith("Conflict: ")
    assert "\n\nDecision needed: " in divergence.text
    assert divergence.citation_ids == ("P1", "C1")
    assert set(by_label[lanes.SYNTHESIS].citation_ids) == {"P1", "C1"}


def test_without_conflict_the_exact_fallback_is_kept():
    request = _request(
        "Every model version change must be recorded in the change log before release.",
        "The public guide describes change logs for model versions in general terms.",
    )
    verdict = answer_check.verify(DeterministicProvider().complete(request).text, request)
    assert verdict.ok
    assert verdict.lanes[3].text == lanes.DIVERGENCE_FALLBACK
