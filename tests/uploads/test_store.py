"""The session store: text kept once, compact, owned by one user, cleared without a trace."""

from __future__ import annotations

import json
import pickle

import pytest
from django.contrib.sessions.backends.cache import SessionStore

from uploads import services
from uploads.store import SESSION_KEY, SessionSourceStore


def _prose(chars: int, accent: bool = False, variant: int = 0) -> str:
    line = (
        f"Reviewers ({variant}) check the data boundary and the gateway route for each source."
        + (" Café déjà vu." if accent else "")
    )
    text = ""
    n = 0
    while len(text) < chars:
        n += 1
        text += f"{n}. {line}\n"
    text = text[: chars - 1].rstrip()
    return text + "x" * (chars - len(text))


def _fill(session, chars_per_file: int, files: int, accent: bool = False) -> None:
    for n in range(files):
        services.add_file(
            session=session,
            owner="7",
            data=_prose(chars_per_file, accent, n).encode(),
            filename=f"draft{n}.txt",
        )


@pytest.mark.parametrize("accent", [False, True])
def test_stored_form_is_within_1_2x_of_the_text_for_120000_characters(accent: bool) -> None:
    session: dict = {}
    _fill(session, 24_000, 5, accent)
    stored = session[SESSION_KEY]
    texts = [item["text"] for item in stored["items"]]
    assert sum(len(t) for t in texts) == 120_000
    raw = sum(len(t.encode("utf-8")) for t in texts)
    # The cache session backend pickles the session dict (locmem and Redis alike).
    assert len(pickle.dumps(dict(session), pickle.HIGHEST_PROTOCOL)) <= 1.2 * raw
    if not accent:  # Django's JSON session serializer escapes non-ASCII; ASCII text stays compact
        assert len(json.dumps(dict(session), separators=(",", ":"))) <= 1.2 * raw


def test_ids_are_sequential_and_never_reused_after_clear() -> None:
    session: dict = {}
    _fill(session, 100, 2)
    assert [r.session_source_id for r in SessionSourceStore(session, "7").records()] == [
        "session-file-001",
        "session-file-002",
    ]
    assert services.clear(session=session, owner="7") == 2
    _fill(session, 100, 1)
    assert [r.session_source_id for r in SessionSourceStore(session, "7").records()] == [
        "session-file-003"
    ]


def test_clear_leaves_no_content_only_the_id_counters() -> None:
    session: dict = {}
    services.add_paste(
        session=session, owner="7", title="Secret-ish title", text="UNIQUE-MARKER-41 text body"
    )
    services.clear(session=session, owner="7")
    dumped = pickle.dumps(dict(session))
    assert b"UNIQUE-MARKER-41" not in dumped and b"Secret-ish" not in dumped
    assert session[SESSION_KEY] == {"owner": "7", "next": {"file": 1, "paste": 2}, "items": []}


def test_another_owner_of_the_same_session_sees_nothing_and_overwrites_nothing() -> None:
    session: dict = {}
    _fill(session, 100, 1)
    other = SessionSourceStore(session, "8")
    assert other.records() == [] and other.get("session-file-001") is None
    assert other.remove("session-file-001") is False
    assert len(SessionSourceStore(session, "7").records()) == 1


@pytest.mark.django_db
def test_real_cache_session_round_trip_rebuilds_the_segments() -> None:
    session = SessionStore()
    services.add_paste(
        session=session, owner="7", title="Notes", text="Line one\nLine two\n\nLine four"
    )
    session.save()
    reloaded = SessionStore(session_key=session.session_key)
    [source] = SessionSourceStore(reloaded, "7").sources()
    assert [s.anchor.line_range for s in source.segments] == ["1-2", "4"]
    assert source.record.file_type == "paste" and source.record.retention == "session_only"
