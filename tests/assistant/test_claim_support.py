"""Claim-level support: splitting, scoring and the rule for each lane kind."""

from __future__ import annotations

import pytest

from assistant.domain import lanes
from assistant.domain.modes import Mode
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.domain.types import Lane
from assistant.package.expansion import Expansion
from assistant.verify import claim_support as cs
from assistant.verify.claims import split_claims
from core.text import content_stems

EXPANSION = Expansion.from_glossary({"stage gate": ["gate", "checkpoint"], "product owner": ["PO"]})
# The package's vocabulary decides whether a sentence's capitalised first word is a name.
VOCABULARY = frozenset(
    content_stems("evidence owner decision package record implication token budget")
)
P1 = SourceRef(
    "P1",
    lanes.PACKAGE_CITATION,
    "Lifecycle — Gates",
    "The product owner must sign the gate 2 record within 10 working days. "
    "A capability does not skip a gate.\nThe risk owner may ask for a rollback plan.",
)
P2 = SourceRef(
    "P2",
    lanes.PACKAGE_CITATION,
    "Tokens — Budget",
    "Token budgets are reviewed quarterly by the platform owner.",
)
U1 = SourceRef(
    "U1",
    lanes.UPLOADED_CITATION,
    "Draft.pdf — page 1",
    "Our pilot uses the enterprise gateway.",
    {"display_title": "Draft.pdf", "anchor": "page 1"},
)


def _check(label: str, text: str, *, uploads: tuple = ()) -> cs.SupportReport:
    request = ProviderRequest(
        mode=Mode.PACKAGE_ONLY,
        question="q",
        lane_order=(lanes.PACKAGE_SAYS,),
        package_refs=(P1, P2),
        uploaded_refs=uploads,
    )
    return cs.check(
        [Lane(label, text, ())], request, expansion=EXPANSION, vocabulary=VOCABULARY, threshold=0.8
    )


def _reasons(text: str, label: str = lanes.PACKAGE_SAYS) -> tuple[str, ...]:
    (claim,) = _check(label, text).claims
    return claim.reasons


def test_claims_are_sentences_and_list_items_with_their_markers() -> None:
    text = "Owners sign. [P1] Budgets are reviewed [P2].\n\n- First item [P1].\n- Second: [P2] third part."
    claims = split_claims(lanes.PACKAGE_SAYS, text)
    assert [c.text for c in claims] == [
        "Owners sign. [P1]",
        "Budgets are reviewed [P2].",
        "- First item [P1].",
        "- Second: [P2]",
        "third part.",
    ]
    assert claims[4].own_ids == () and claims[4].paragraph_ids == ("P1", "P2")
    assert [c.list_item for c in claims] == [False, False, True, True, True]


def test_verbatim_reordered_and_synonym_claims_are_supported() -> None:
    for text in (
        "The product owner must sign the gate 2 record within 10 working days. [P1]",
        "Within 10 working days, the product owner must sign the gate 2 record [P1].",
        "The PO must sign the checkpoint 2 record within 10 working days [P1].",
        "A capability does not skip a gate; the risk owner may ask for a rollback plan [P1].",
    ):
        report = _check(lanes.PACKAGE_SAYS, text)
        assert report.ok, (text, report.claims)
        assert report.claims[0].source_ids == ("P1",)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("The product owner must sign the gate 3 record within 10 working days [P1].", cs.NUMBER),
        (
            "The product owner must sign the gate 2 record within 10 working weeks [P1].",
            cs.DURATION,
        ),
        ("The risk owner must sign the gate 2 record within 10 working days [P1].", cs.ROLE),
        ("The product owner may sign the gate 2 record within 10 working days [P1].", cs.MODAL),
        ("A capability does skip a gate [P1].", cs.NEGATION),
        ("A capability does not skip a gate at Contoso [P1].", cs.ENTITY),
        ("Token budgets are reviewed monthly by the platform owner [P2].", cs.DURATION),
        ('The record says "sign within a week" [P1].', cs.QUOTE),
    ],
)
def test_a_changed_meaning_element_fails_the_claim(text: str, reason: str) -> None:
    (claim,) = _check(lanes.PACKAGE_SAYS, text).claims
    assert reason in claim.reasons and not claim.supported
    assert claim.score <= 0.5


def test_a_claim_cited_to_the_wrong_source_has_low_coverage() -> None:
    (claim,) = _check(
        lanes.PACKAGE_SAYS, "The product owner must sign the gate 2 record [P2]."
    ).claims
    assert cs.COVERAGE in claim.reasons and claim.score < 0.5


def test_an_uncited_claim_inherits_its_paragraph_citation_or_fails() -> None:
    inherited = _check(
        lanes.PACKAGE_SAYS,
        "A capability does not skip a gate. The risk owner may ask for a rollback plan [P1].",
    )
    assert inherited.ok
    alone = _check(
        lanes.SYNTHESIS, "A capability does not skip a gate [P1].\n\nAcme is fine to use."
    )
    assert [c.reasons for c in alone.unsupported] == [(cs.UNCITED,)]


def test_labelled_implications_cite_their_paragraph_and_add_nothing_new() -> None:
    ok = "The package stays the record [P1]. This is an implication of the cited lanes, not source evidence."
    assert _check(lanes.SYNTHESIS, ok).ok
    invented = "Implication: Contoso must finish in 30 days [P1]."
    (claim,) = _check(lanes.SYNTHESIS, invented).claims
    assert claim.kind == cs.IMPLICATION and {cs.NUMBER, cs.ENTITY} <= set(claim.reasons)
    # Source lanes have no implications: the same label there is a claim about the source.
    assert _check(lanes.PACKAGE_SAYS, ok).claims[0].kind == cs.SOURCE


def test_missing_evidence_items_cite_or_name_a_package_role() -> None:
    assert _check(lanes.MISSING_EVIDENCE, "- Owner decision needed: the risk owner decides.").ok
    assert _check(lanes.MISSING_EVIDENCE, "- Evidence to supply for [P2]: not in the upload.").ok
    (claim,) = _check(lanes.MISSING_EVIDENCE, "- Nothing is missing; the board decides.").claims
    assert cs.UNCITED in claim.reasons and claim.kind == cs.OWNER and claim.score == 0.0
    (claim,) = _check(lanes.MISSING_EVIDENCE, "- The security reviewer decides [P1].").claims
    assert cs.ROLE in claim.reasons


def test_fixed_sentences_are_always_allowed() -> None:
    assert _check(lanes.DIVERGENCE, lanes.DIVERGENCE_FALLBACK).ok
    assert _check(lanes.CURRENT_SAYS, lanes.CURRENT_NOT_RETRIEVED).claims[0].kind == cs.FIXED


def test_an_uploaded_lane_may_name_its_title_and_anchor() -> None:
    report = _check(
        lanes.UPLOADED_SAYS,
        'Draft.pdf, page 1: "Our pilot uses the enterprise gateway." [U1]',
        uploads=(U1,),
    )
    assert report.ok, report.claims


def test_overall_score_is_the_mean_and_scores_are_bounded() -> None:
    report = _check(
        lanes.PACKAGE_SAYS,
        "A capability does not skip a gate [P1]. Token budgets are reviewed daily [P2].",
    )
    assert [c.supported for c in report.claims] == [True, False]
    assert 0.0 <= min(c.score for c in report.claims) and max(c.score for c in report.claims) <= 1.0
    assert report.score == round(sum(c.score for c in report.claims) / 2, 3)


RACI = SourceRef(
    "P1",
    lanes.PACKAGE_CITATION,
    "Governance — RACI for key decisions",
    "| Decision | Accountable | Responsible | Consulted | Informed |\n"
    "|---|---|---|---|---|\n"
    "| Gate 4 production go-live | Product owner | Product owner | Risk owner, model owner |"
    " Reviewers |\n"
    "| Residual risk acceptance | Risk owner | Product owner | Security reviewer | Model owner |\n"
    "| Model change | Model owner | Model owner | Risk owner, product owner, platform owner |"
    " Change advisory board |",
)


def _raci(text: str) -> cs.ClaimScore:
    request = ProviderRequest(
        mode=Mode.PACKAGE_ONLY, question="q", lane_order=(lanes.PACKAGE_SAYS,), package_refs=(RACI,)
    )
    (claim,) = cs.check([Lane(lanes.PACKAGE_SAYS, text, ())], request, expansion=EXPANSION).claims
    return claim


def test_a_quoted_table_row_of_roles_is_read_against_its_row_not_the_header() -> None:
    # Nearly every word of the row is a role: the few others (the column names) are in the
    # header line too, so the row must win on the claim's roles.
    quoted = _raci(
        "Model change — Accountable: Model owner; Responsible: Model owner; Consulted: Risk owner,"
        " product owner, platform owner; Informed: Change advisory board. [P1]"
    )
    assert quoted.supported, quoted.reasons


def test_a_row_with_a_changed_role_still_fails() -> None:
    changed = _raci(
        "Residual risk acceptance — Accountable: Platform owner; Responsible: Product owner;"
        " Consulted: Security reviewer; Informed: Model owner. [P1]"
    )
    assert not changed.supported
    assert cs.ROLE in changed.reasons


CODE = SourceRef(
    "P1",
    lanes.PACKAGE_CITATION,
    "Fuzzing — Harness",
    "Build the harness with `RUSTFLAGS=-Zsanitizer=address cargo +nightly fuzz build` first. "
    "Do not use production data in the corpus.",
)


def _check_against(ref: SourceRef, text: str) -> cs.SupportReport:
    request = ProviderRequest(
        mode=Mode.PACKAGE_ONLY,
        question="q",
        lane_order=(lanes.PACKAGE_SAYS,),
        package_refs=(ref,),
    )
    return cs.check(
        [Lane(lanes.PACKAGE_SAYS, text, ())],
        request,
        expansion=EXPANSION,
        vocabulary=VOCABULARY,
        threshold=0.8,
    )


def test_a_whole_sentence_of_the_cited_source_is_supported_as_a_quote_without_alignment(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Word for word one sentence of what it cites: supported whatever it holds, without the
    # word-by-word alignment a paraphrase needs (most of what the offline answerer writes).
    def no_alignment(*args: object, **kwargs: object) -> None:
        raise AssertionError("a whole quoted sentence was aligned word by word")

    monkeypatch.setattr(cs.matching, "align", no_alignment)
    sentence = (
        "Build the harness with `RUSTFLAGS=-Zsanitizer=address cargo +nightly fuzz build` first."
    )
    (claim,) = _check_against(CODE, f"{sentence} [P1]").claims
    assert claim.supported and claim.score == 1.0 and claim.reasons == ()


def test_a_fragment_of_a_source_sentence_is_judged_as_any_claim() -> None:
    # Word for word in the source, but not a whole sentence of it: it says the opposite.
    (claim,) = _check_against(CODE, "Use production data in the corpus. [P1]").claims
    assert not claim.supported
