"""The answer gate: lane shape, order and citation ids against what was actually sent."""

from __future__ import annotations

from assistant.domain import lanes
from assistant.domain.modes import Mode
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.verify import answer_check

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
    result = answer_check.verify(
        "Package says\nName the owners [P1].\n\nGate 2 [P2, P1].", _request()
    )
    assert result.ok
    assert result.lanes[0].label == "Package says"
    assert result.lanes[0].citation_ids == ("P1", "P2")


def test_markdown_label_styles_are_accepted() -> None:
    text = "## Package says:\nName the owners [P1].\n\n**Synthesis / implications**\nSo [P1]."
    assert answer_check.verify(text, _request()).ok


def test_unknown_citation_id_is_rejected() -> None:
    result = answer_check.verify("Package says\nSomething [P9].", _request())
    assert not result.ok
    assert "cites P9, which was not among the sources sent" in result.problems[0]


def test_wrong_class_in_source_lane_is_rejected() -> None:
    text = (
        "Package says\nA [C1].\n\nCurrent/public source says\nB [C1].\n\n"
        "Synthesis / implications\nC [P1].\n\nDivergence / update candidate\n"
        + lanes.DIVERGENCE_FALLBACK
    )
    result = answer_check.verify(text, _request(Mode.PACKAGE_CURRENT, (C1,)))
    assert any("admits only package citations" in p for p in result.problems)


def test_uncited_paragraph_and_preamble_are_rejected() -> None:
    result = answer_check.verify(
        "Sure! Here you go.\nPackage says\nA [P1].\n\nUncited claim.", _request()
    )
    assert "the answer has text before its first lane label" in result.problems
    assert "a paragraph of lane 'Package says' has no citation" in result.problems


def test_missing_and_misordered_lanes_are_rejected() -> None:
    text = (
        "Current/public source says\n" + lanes.CURRENT_NOT_RETRIEVED + "\n\nPackage says\nA [P1]."
    )
    result = answer_check.verify(text, _request(Mode.PACKAGE_CURRENT))
    assert any("not in the required order" in p for p in result.problems)
    assert any("'Divergence / update candidate' is missing" in p for p in result.problems)


def test_current_lane_without_sources_must_say_not_retrieved() -> None:
    base = "Package says\nA [P1].\n\nCurrent/public source says\n{}\n\nSynthesis / implications\nB [P1].\n\nDivergence / update candidate\n{}"
    ok = base.format(lanes.CURRENT_NOT_RETRIEVED, lanes.DIVERGENCE_FALLBACK)
    assert answer_check.verify(ok, _request(Mode.PACKAGE_CURRENT)).ok
    invented = base.format("NIST now requires X.", lanes.DIVERGENCE_FALLBACK)
    assert not answer_check.verify(invented, _request(Mode.PACKAGE_CURRENT)).ok
    vague = base.format(lanes.CURRENT_NOT_RETRIEVED, "Nothing much differs.")
    assert not answer_check.verify(vague, _request(Mode.PACKAGE_CURRENT)).ok


def test_no_labels_at_all() -> None:
    problems = answer_check.verify("I think the answer is yes.", _request()).problems
    assert "the answer has no lane labels" in problems


# ------------------------------------------------------------------ hardening for real providers

FOUR_LANES = (
    "Package says\n{package}\n\nCurrent/public source says\n{current}\n\n"
    "Synthesis / implications\n{synthesis}\n\nDivergence / update candidate\n{divergence}"
)


def _four(**parts: str) -> str:
    values = {
        "package": "Name the owners [P1].",
        "current": "Govern comes first [C1].",
        "synthesis": "The package stays the record [P1, C1].",
        "divergence": lanes.DIVERGENCE_FALLBACK,
    }
    return FOUR_LANES.format(**{**values, **parts})


def test_inline_bold_and_numbered_labels_are_accepted() -> None:
    text = (
        "1. **Package says:** Name the owners [P1].\n\n2) Synthesis / implications: So gate 2 [P2]."
    )
    result = answer_check.verify(text, _request())
    assert result.ok, result.problems
    assert [lane.text for lane in result.lanes] == ["Name the owners [P1].", "So gate 2 [P2]."]


def test_a_sentence_starting_with_a_label_is_not_a_label() -> None:
    text = "Package says\nName the owners [P1].\n\nPackage says the gate comes first [P2]."
    result = answer_check.verify(text, _request())
    assert result.ok, result.problems
    assert len(result.lanes) == 1


def test_duplicate_lane_is_rejected() -> None:
    result = answer_check.verify("Package says\nA [P1].\n\n**Package says:** B [P2].", _request())
    assert "a lane label appears more than once" in result.problems


def test_synthesis_must_cite_something_sent() -> None:
    result = answer_check.verify(
        "Package says\nA [P1].\n\nSynthesis / implications\nThe sky is green.", _request()
    )
    assert "lane 'Synthesis / implications' cites no source that was sent" in result.problems


def test_fallback_sentences_everywhere_are_not_an_answer() -> None:
    fallback = lanes.DIVERGENCE_FALLBACK
    text = _four(package=fallback, current=fallback, synthesis=lanes.CURRENT_NOT_RETRIEVED)
    problems = answer_check.verify(text, _request(Mode.PACKAGE_CURRENT, (C1,))).problems
    assert "a paragraph of lane 'Package says' has no citation" in problems
    assert "a paragraph of lane 'Current/public source says' has no citation" in problems
    assert "lane 'Synthesis / implications' cites no source that was sent" in problems


def test_good_four_lane_answer_passes() -> None:
    result = answer_check.verify(_four(), _request(Mode.PACKAGE_CURRENT, (C1,)))
    assert result.ok, result.problems
    assert result.lanes[2].citation_ids == ("P1", "C1")


def test_a_paragraph_of_bare_markers_is_rejected() -> None:
    problems = answer_check.verify("Package says\nA [P1].\n\n[P2]", _request()).problems
    assert "a paragraph of lane 'Package says' has citations but no text" in problems


def test_unknown_ids_are_named_only_when_they_look_like_ids() -> None:
    problems = answer_check.verify(
        "Package says\nA [P1] [P7] [ZZZZZZZZZZZZZZZZ12].", _request()
    ).problems
    assert "lane 'Package says' cites P7, which was not among the sources sent" in problems
    assert (
        "lane 'Package says' cites an unrecognised id, which was not among the sources sent"
        in problems
    )
    assert not any("ZZZZ" in p for p in problems)


def test_links_must_come_from_the_sources_sent() -> None:
    nist = SourceRef(
        "C1",
        lanes.CURRENT_CITATION,
        "NIST AI RMF",
        "Govern, map, measure, manage.",
        {"url": "https://www.nist.gov/itl/ai-risk-management-framework"},
    )
    sent_url = _four(current="See https://www.nist.gov/itl/ai-risk-management-framework. [C1]")
    assert answer_check.verify(sent_url, _request(Mode.PACKAGE_CURRENT, (nist,))).ok
    for foreign in (
        "See https://evil.example/phish [C1].",
        "See www.evil.example [C1].",
        "See [the framework](https://www.nist.gov/itl/ai-risk-management-framework) [C1].",
    ):
        problems = answer_check.verify(
            _four(current=foreign), _request(Mode.PACKAGE_CURRENT, (nist,))
        ).problems
        assert (
            "lane 'Current/public source says' contains a link that is not in the sources sent"
            in problems
        )


def test_a_link_quoted_from_a_package_source_is_allowed() -> None:
    row = SourceRef(
        "P1", lanes.PACKAGE_CITATION, "Intranet", "Templates live at https://intranet.example/t."
    )
    request = ProviderRequest(
        mode=Mode.PACKAGE_ONLY, question="q", lane_order=("Package says",), package_refs=(row,)
    )
    assert answer_check.verify(
        "Package says\nTemplates live at https://intranet.example/t. [P1]", request
    ).ok


def test_html_is_rejected_but_comparisons_are_not() -> None:
    for markup in (
        "<b>Owners</b> [P1].",
        "Owners [P1]<script>x()</script>",
        "Owners &amp; gates [P1].",
        "Owners <!-- x --> [P1]",
    ):
        problems = answer_check.verify(f"Package says\n{markup}", _request()).problems
        assert "lane 'Package says' contains HTML markup" in problems, markup
    assert answer_check.verify(
        "Package says\nIf cost < budget and latency > 2 s, proceed [P1].", _request()
    ).ok


def test_unreadable_citation_markers_are_rejected() -> None:
    for marker in ("[1]", "[P1-P2]", "[source P2]", "[P1 and P2]"):
        problems = answer_check.verify(
            f"Package says\nOwners are named [P1] {marker}.", _request()
        ).problems
        assert "lane 'Package says' has a citation marker the gate cannot read" in problems, marker


RUST = SourceRef(
    "P1", lanes.PACKAGE_CITATION, "Secrets", "Hold key bytes in a `Box<[u8]>` wrapped in SecretBox."
)


def _rust_request() -> ProviderRequest:
    return ProviderRequest(
        mode=Mode.PACKAGE_ONLY,
        question="q",
        lane_order=lanes.required_lanes(Mode.PACKAGE_ONLY, with_uploads=False),
        package_refs=(RUST,),
    )


def test_marker_shaped_source_text_quoted_verbatim_is_not_a_citation() -> None:
    result = answer_check.verify(
        "Package says\nHold key bytes in a `Box<[u8]>` wrapped in SecretBox. [P1]", _rust_request()
    )
    assert result.ok, result.problems
    assert result.lanes[0].citation_ids == ("P1",)


def test_a_marker_no_source_holds_is_still_a_citation_of_a_source_not_sent() -> None:
    result = answer_check.verify("Package says\nHold key bytes [U8]. [P1]", _rust_request())
    assert not result.ok
    assert any("cites U8, which was not among the sources sent" in p for p in result.problems)


def test_quoted_source_markers_do_not_count_as_a_paragraphs_citation() -> None:
    result = answer_check.verify(
        "Package says\nKeys go in `Box<[u8]>` [P1].\n\nAlso `Box<[u8]>`.", _rust_request()
    )
    assert "a paragraph of lane 'Package says' has no citation" in result.problems
