"""The session-source boundary: what a user-provided session source is not, said once.

Every sentence that tells a user, a provider or an API client where a session source stands is
built here from one list of clauses, so the wordings cannot drift apart. The exact strings are
part of the contract (docs/api.md, docs/uploads.md) and are asserted by the tests.
"""

from __future__ import annotations

SESSION_SOURCE = "user-provided session source"
#: What a session source is not, in the order every sentence states it.
NOT_CLAUSES = (
    "approved package corpus",
    "durable corpus ingestion",
    "enterprise source authority unless separately approved",
)


def _sentence(text: str) -> str:
    return text[0].upper() + text[1:] + "."


_NOT_LIST = f"not {NOT_CLAUSES[0]}, not {NOT_CLAUSES[1]}, and not {NOT_CLAUSES[2]}"

#: The record's ``classification_label``.
CLASSIFICATION_LABEL = "; ".join((SESSION_SOURCE, *(f"not {c}" for c in NOT_CLAUSES)))
#: The two badges on every session-source card in the upload panel.
SOURCE_BADGE = SESSION_SOURCE[0].upper() + SESSION_SOURCE[1:]
NOT_PACKAGE_BADGE = f"Not {NOT_CLAUSES[0]}"
#: A session citation's ``authority`` / ``authority_note``.
AUTHORITY_NOTE = f"{SOURCE_BADGE}. {NOT_PACKAGE_BADGE}."
#: The label shown with every session source.
USER_VISIBLE_LABEL = " ".join((f"{SOURCE_BADGE}.", *(_sentence(f"not {c}") for c in NOT_CLAUSES)))
#: A session citation's ``claim_boundary``.
CLAIM_BOUNDARY = _sentence(f"{SESSION_SOURCE} for this review only: {_NOT_LIST}")
#: The uploaded_source_boundary refusal.
REFUSAL = f"I can use uploaded material only as a {SESSION_SOURCE}. It is {_NOT_LIST}."
#: Shown above the upload form, before anything is submitted.
PRIVACY_NOTICE = (
    f"Files and pasted text are used only as {SESSION_SOURCE}s for this assistant run. "
    "They are not added to the approved package corpus, not published, not durable source "
    "ingestion, and not enterprise source authority unless a separate approved source process is "
    "completed. Do not upload secrets, credentials, regulated data, or material you are not allowed "
    "to share with this assistant environment."
)
