"""This session's earlier questions and answers, held in the server session only.

The session is cache-backed (``SESSION_ENGINE``), like session sources: the history is never in
the database or a log, and it ends with the session (sign-out, expiry) or when the reviewer
clears it. Entries are the run bodies the API returns, so a reopened answer renders exactly as
it was first shown. A run that quoted a session source the reviewer has since removed stays
listed, marked ``source_removed``, with its question only: its body (and so every excerpt of
that source) is dropped with the source.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django.contrib.sessions.backends.base import SessionBase
from django.utils import timezone

SESSION_KEY = "aicd_run_history"
MAX_ENTRIES = 10


def entries(session: SessionBase) -> list[dict[str, Any]]:
    """Newest first: ``{"run_id", "question", "body", "mode", "state", "asked_at",
    "session_source_ids"}`` for each run of this session; ``body`` is None once a source the run
    quoted was removed (``source_removed`` is then true)."""
    return list(session.get(SESSION_KEY, []))


def add(
    session: SessionBase,
    *,
    question: str,
    body: dict[str, Any],
    session_source_ids: Iterable[str] = (),
) -> None:
    """Keep this run at the top of the history, dropping the oldest past ``MAX_ENTRIES``.

    ``session_source_ids`` are the sources the question was asked with (ids only), so the run's
    page ticks the same ones for the next question.
    """
    kept = [e for e in entries(session) if e["run_id"] != body["run_id"]]
    session[SESSION_KEY] = [
        {
            "run_id": body["run_id"],
            "question": question,
            "body": body,
            "mode": body["mode"],
            "state": body["state"],
            "asked_at": timezone.now().isoformat(timespec="seconds"),
            "session_source_ids": list(session_source_ids),
        },
        *kept,
    ][:MAX_ENTRIES]


def find(session: SessionBase, run_id: str) -> dict[str, Any] | None:
    """The run with this id that this session can still show (its body kept), or None."""
    for entry in entries(session):
        if entry["run_id"] == run_id and entry.get("body") is not None:
            return entry
    return None


def find_removed(session: SessionBase, run_id: str) -> dict[str, Any] | None:
    """The run with this id whose body went with a removed session source, or None."""
    for entry in entries(session):
        if entry["run_id"] == run_id and entry.get("source_removed"):
            return entry
    return None


def keep_only_live_uploads(session: SessionBase, live: set[tuple[str, str]]) -> None:
    """Drop the body of every run that cites an uploaded source this session no longer holds.

    ``live`` holds ``(session_source_id, display_title)`` of the session's sources. Removing or
    clearing a session source thereby also drops the excerpts of it that earlier runs carried;
    the run stays listed with its question, marked ``source_removed``.
    """
    changed = False
    kept = []
    for entry in entries(session):
        body = entry.get("body")
        if body is not None and not all(key in live for key in _uploads_quoted(body)):
            entry = {
                "run_id": entry["run_id"],
                "question": entry["question"],
                "body": None,
                "mode": body["mode"],
                "state": body["state"],
                "asked_at": entry.get("asked_at", ""),
                "session_source_ids": [],
                "source_removed": True,
            }
            changed = True
        kept.append(entry)
    if changed:
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
