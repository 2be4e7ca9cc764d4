"""The boundary sentences built from one list of clauses are, word for word, the required ones."""

from __future__ import annotations

from uploads import boundary


def test_every_boundary_sentence_is_the_required_wording() -> None:
    assert boundary.CLASSIFICATION_LABEL == (
        "user-provided session source; not approved package corpus; not durable corpus ingestion; "
        "not enterprise source authority unless separately approved"
    )
    assert boundary.AUTHORITY_NOTE == "User-provided session source. Not approved package corpus."
    assert boundary.USER_VISIBLE_LABEL == (
        "User-provided session source. Not approved package corpus. Not durable corpus ingestion. "
        "Not enterprise source authority unless separately approved."
    )
    assert boundary.CLAIM_BOUNDARY == (
        "User-provided session source for this review only: not approved package corpus, not "
        "durable corpus ingestion, and not enterprise source authority unless separately approved."
    )
    assert boundary.REFUSAL == (
        "I can use uploaded material only as a user-provided session source. It is not approved "
        "package corpus, not durable corpus ingestion, and not enterprise source authority unless "
        "separately approved."
    )
    assert (boundary.SOURCE_BADGE, boundary.NOT_PACKAGE_BADGE) == (
        "User-provided session source",
        "Not approved package corpus",
    )
