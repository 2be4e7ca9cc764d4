"""A review reads the draft's kind from its title and each criterion's evidence with a learnt model.

The model (``assistant/review/criterion_evidence.py``) is trained on labelled drafts; these tests pin the
behaviour a reviewer relies on, not its figures (those are held-out floors in tests/eval/).
"""

from __future__ import annotations

import json

import pytest
from django.core.management import CommandError, call_command

from assistant.retrieval.context_pack import get_context_pack
from assistant.review import criterion_evidence, draft_kinds
from assistant.review.criterion_assessment import (
    MISSING,
    PARTIAL,
    PRESENT,
    assess,
    assess_sentences,
)
from assistant.review.upload_sentences import sentences
from learning.training import evidence as evidence_training
from tests.uploads.helpers import sources_from

QUESTION = "Review this draft against the package's review criteria."


def _kind(text: str, name: str = "draft.md") -> str:
    return draft_kinds.draft_kind(QUESTION, sources_from((name, text.encode())))


def test_the_title_names_the_kind_even_when_the_opening_names_another() -> None:
    text = (
        "# Proof of concept proposal: alert narratives\n\n"
        "Prepared by R. Pemberton with I. Kaplan (Security Architecture).\n\n"
        "The proposal asks to build a proof of concept over six weeks for investigators.\n"
    )
    assert _kind(text) == "poc_proposal"


def test_a_page_header_before_the_title_does_not_hide_it() -> None:
    text = "Acme Bank | Internal | Draft\nPage 1\nPayments Helper: Architecture Proposal\n\nBody."
    assert _kind(text) == "architecture_proposal"


def test_the_earliest_name_in_the_title_wins() -> None:
    assert _kind("# PRD: architecture review helper\n\nBody text.") == "prd"


def test_the_opening_decides_when_no_title_names_a_kind() -> None:
    text = "# Payments helper\n\nThis product requirements document describes the helper.\n"
    assert _kind(text) == "prd"


def test_the_file_name_is_not_read() -> None:
    assert _kind("# Payments helper\n\nNothing names the kind here.", "prd-x.md") == "poc_proposal"


def test_the_question_names_the_kind_first() -> None:
    sources = sources_from(("draft.md", b"# PRD: helper\n\nBody text of the draft."))
    assert draft_kinds.draft_kind("Review this architecture proposal.", sources) == (
        "architecture_proposal"
    )


DRAFT = """# PRD: leave policy assistant

## Goal

Goal: cut median handling time per leave case from 22 minutes to 10 minutes for HR advisors.

## Costs

| Item | Figure |
|---|---|
| Model usage for the proof of concept | About GBP 240 at the published rate card |

## Kill criteria

## Owners

Owners will be confirmed once the working group has agreed the scope of the work.
"""


def _checks(text: str) -> dict[str, str]:
    review = get_context_pack().review
    return {
        c.criterion.name: c.status
        for c in assess(review, "prd", sources_from(("d.md", text.encode())))
    }


def test_a_problem_statement_in_the_teams_own_words_is_found() -> None:
    assert _checks(DRAFT)["Problem statement"] == PRESENT


def test_evidence_in_a_table_cell_is_read_and_quoted_whole() -> None:
    found = sentences(sources_from(("d.md", DRAFT.encode())))
    cells = [s for s in found if s.text.startswith("About GBP 240")]
    assert cells and cells[0].heading == "Costs"
    assert _checks(DRAFT)["Cost estimate"] == PRESENT


def test_a_heading_with_nothing_under_it_is_not_evidence() -> None:
    assert _checks(DRAFT)["Kill criteria"] == MISSING


def test_a_hedged_mention_is_partial() -> None:
    assert _checks(DRAFT)["Named owners"] == PARTIAL


def test_a_sentence_filed_under_the_criterion_is_a_candidate_whatever_it_scores() -> None:
    review = get_context_pack().review
    criterion = next(c for c in review.criteria if c.name == "Data boundary")
    found = sentences(
        sources_from(("d.md", b"Data boundary: the assistant reads contracts marked internal."))
    )
    never = criterion_evidence.EvidenceModel({}, -30.0, threshold=0.5)
    (check,) = assess_sentences(review, [criterion], found, never)
    assert check.status != MISSING
    other = next(c for c in review.criteria if c.name == "Cost")
    assert assess_sentences(review, [other], found, never)[0].status == MISSING


def test_without_a_model_the_declared_terms_decide() -> None:
    review = get_context_pack().review
    found = sentences(sources_from(("d.md", DRAFT.encode())))
    criteria = review.for_kind("prd")
    by_terms = {c.criterion.name: c.status for c in assess_sentences(review, criteria, found, None)}
    assert by_terms["Kill criteria"] == MISSING
    assert set(by_terms) == {c.name for c in criteria}


def test_reading_with_a_fold_model_is_scoped() -> None:
    shipped = criterion_evidence.model()
    fold = criterion_evidence.EvidenceModel({}, 0.0, {"fold": True}, threshold=0.5)
    with criterion_evidence.reading_with(fold):
        assert criterion_evidence.model() is fold
    assert criterion_evidence.model() is shipped


def test_the_model_round_trips_through_json() -> None:
    model = criterion_evidence.model()
    assert model is not None and 0 < model.threshold < 1
    again = criterion_evidence.EvidenceModel.from_json(model.to_json())
    assert again.threshold == model.threshold and again.weights == model.weights


def test_training_labels_all_point_at_a_sentence_the_review_reads() -> None:
    items = evidence_training.training_drafts()
    assert len({d.author for d in items}) >= 4
    labelled = [
        (d, name) for d in items for name, status in d.statuses.items() if status != "missing"
    ]
    unmatched = [(d.file, name) for d, name in labelled if d.evidence[name] < 0]
    assert not unmatched


def test_build_evidence_model_check_accepts_the_committed_model() -> None:
    call_command("build_evidence_model", "--check")


def test_build_evidence_model_check_rejects_a_stale_model(tmp_path, monkeypatch) -> None:
    stale = tmp_path / "evidence_model.json"
    data = json.loads(criterion_evidence.MODEL_PATH.read_text(encoding="utf-8"))
    data["threshold"] = 0.99
    stale.write_text(json.dumps(data), encoding="utf-8")
    monkeypatch.setattr(criterion_evidence, "MODEL_PATH", stale)
    fresh = json.loads(stale.read_text(encoding="utf-8"))
    fresh["threshold"] = 0.07
    monkeypatch.setattr(
        evidence_training,
        "train",
        lambda: (criterion_evidence.EvidenceModel.from_json(json.dumps(fresh)), {}),
    )
    with pytest.raises(CommandError, match="build_evidence_model"):
        call_command("build_evidence_model", "--check")
