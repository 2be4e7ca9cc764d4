"""This session's earlier questions and answers, held in the server session only.

The session is cache-backed (``SESSION_ENGINE``), like session sources: the history is never in
the database or a log, and it ends with the session (sign-out, expiry) or when the reviewer
clears it. Entries are the run bodies the API returns, so a reopened answer renders exactly as
it was first shown.
"""

from __future__ import annotations

from typing import Any

from django.contrib.sessions.backends.base import SessionBase

SESSION_KEY = "aicd_run_history"
MAX_ENTRIES = 10


def entries(session: SessionBase) -> list[dict[str, Any]]:
    """Newest first: ``{"run_id", "question", "body"}`` for each run of this session."""
    return list(session.get(SESSION_KEY, []))


def add(session: SessionBase, *, question: str, body: dict[str, Any]) -> None:
    """Keep this run at the top of the history, dropping the oldest past ``MAX_ENTRIES``."""
    kept = [e for e in entries(session) if e["run_id"] != body["run_id"]]
    session[SESSION_KEY] = [
        {"run_id": body["run_id"], "question": question, "body": body},
        *kept,
    ][:MAX_ENTRIES]


def find(session: SessionBase, run_id: str) -> dict[str, Any] | None:
    for entry in entries(session):
        if entry["run_id"] == run_id:
            return entry
    return None


def keep_only_live_uploads(session: SessionBase, live: set[tuple[str, str]]) -> None:
    """Forget runs that cite an uploaded source this session no longer holds.

    ``live`` holds ``(session_source_id, display_title)`` of the session's sources. Removing or
    clearing a session source thereby also drops the excerpts of it that earlier runs carried.
    """
    kept = [e for e in entries(session) if all(key in live for key in _uploads_quoted(e["body"]))]
    if len(kept) != len(entries(session)):
        session[SESSION_KEY] = kept


def _uploads_quoted(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The uploaded sources a run body quotes: its uploaded citations and its review's evidence."""
    quoted = [
        (c["session_source_id"], c.get("display_title", ""))
        for c in body["citations"]
        if c.get("session_source_id")
    ]
    for finding in (body.get("review") or {}).get("criteria", []):
        evidence = finding.get("evidence")
        if evidence:
            quoted.append((evidence["session_source_id"], evidence["display_title"]))
    return quoted


def clear(session: SessionBase) -> None:
    session.pop(SESSION_KEY, None)
