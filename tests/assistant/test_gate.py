"""The answer gate: lane shape, order and citation ids against what was actually sent."""

from __future__ import annotations

from assistant import gate, lanes
from assistant.prompt import ProviderRequest, SourceRef
from assistant.types import Mode

P1 = SourceRef("P1", lanes.PACKAGE_CITATION, "Build readiness", "Name the owners.")
P2 = SourceRef("P2", lanes.PACKAGE_CITATION, "Gates", "Gate 2 is build readiness.")
C1 = SourceRef("C1", lanes.CURRENT_CITATION, "NIST AI RMF", "Govern, map, measure, manage.")


def _request(mode: Mode = Mode.PACKAGE_ONLY, current: tuple = ()) -> ProviderRequest:
    return ProviderRequest(
        mode=mode,
        question="q",
        lane_order=lanes.required_lanes(mode, with_uploads=False),
        package_refs=(P1, P2),
        current_refs=current,
    )


def test_good_package_answer_passes() -> None:
    result = gate.verify("Package says\nName the owners [P1].\n\nGate 2 [P2, P1].", _request())
    assert result.ok
    assert result.lanes[0].label == "Package says"
    assert result.lanes[0].citation_ids == ("P1", "P2")


def test_markdown_label_styles_are_accepted() -> None:
    text = "## Package says:\nName the owners [P1].\n\n**Synthesis / implications**\nSo [P1]."
    assert gate.verify(text, _request()).ok


def test_unknown_citation_id_is_rejected() -> None:
    result = gate.verify("Package says\nSomething [P9].", _request())
    assert not result.ok
    assert "cites P9, which was not among the sources sent" in result.problems[0]


def test_wrong_class_in_source_lane_is_rejected() -> None:
    text = (
        "Package says\nA [C1].\n\nCurrent/public source says\nB [C1].\n\n"
        "Synthesis / implications\nC [P1].\n\nDivergence / update candidate\n"
        + lanes.DIVERGENCE_FALLBACK
    )
    result = gate.verify(text, _request(Mode.PACKAGE_CURRENT, (C1,)))
    assert any("admits only package citations" in p for p in result.problems)


def test_uncited_paragraph_and_preamble_are_rejected() -> None:
    result = gate.verify("Sure! Here you go.\nPackage says\nA [P1].\n\nUncited claim.", _request())
    assert "the answer has text before its first lane label" in result.problems
    assert "a paragraph of lane 'Package says' has no citation" in result.problems


def test_missing_and_misordered_lanes_are_rejected() -> None:
    text = "Current/public source says\n" + lanes.CURRENT_NOT_RETRIEVED + "\n\nPackage says\nA [P1]."
    result = gate.verify(text, _request(Mode.PACKAGE_CURRENT))
    assert any("not in the required order" in p for p in result.problems)
    assert any("'Divergence / update candidate' is missing" in p for p in result.problems)


def test_current_lane_without_sources_must_say_not_retrieved() -> None:
    base = "Package says\nA [P1].\n\nCurrent/public source says\n{}\n\nSynthesis / implications\nB [P1].\n\nDivergence / update candidate\n{}"
    ok = base.format(lanes.CURRENT_NOT_RETRIEVED, lanes.DIVERGENCE_FALLBACK)
    assert gate.verify(ok, _request(Mode.PACKAGE_CURRENT)).ok
    invented = base.format("NIST now requires X.", lanes.DIVERGENCE_FALLBACK)
    assert not gate.verify(invented, _request(Mode.PACKAGE_CURRENT)).ok
    vague = base.format(lanes.CURRENT_NOT_RETRIEVED, "Nothing much differs.")
    assert not gate.verify(vague, _request(Mode.PACKAGE_CURRENT)).ok


def test_no_labels_at_all() -> None:
    problems = gate.verify("I think the answer is yes.", _request()).problems
    assert "the answer has no lane labels" in problems
