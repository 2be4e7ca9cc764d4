"""Upload services: the record, session limits at their exact boundaries, nothing kept on refusal."""

from __future__ import annotations

from dataclasses import replace

import pytest

from core.sizes import MiB
from tests.uploads.builders import text_pdf
from uploads import services
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused
from uploads.store import SESSION_KEY

RECORD_FIELDS = [
    "source_class",
    "session_source_id",
    "display_title",
    "file_type",
    "raw_size_bytes",
    "extracted_character_count",
    "estimated_tokens",
    "extraction_method",
    "extraction_confidence",
    "extraction_status",
    "anchors_available",
    "classification_label",
    "retention",
    "kept",
    "notices",
]


def _refusal(call, **kwargs) -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        call(**kwargs)
    return info.value


def test_record_has_exactly_the_design_fields() -> None:
    session: dict = {}
    pdf = text_pdf([["Draft PRD"], ["Data boundary"]])
    record = services.add_file(
        session=session, owner="1", data=pdf, filename="C:\\docs\\Draft PRD.pdf"
    )
    body = record.to_dict()
    assert list(body) == RECORD_FIELDS
    assert body == {
        "source_class": "uploaded_session_source",
        "session_source_id": "session-file-001",
        "display_title": "Draft PRD.pdf",
        "file_type": "pdf",
        "raw_size_bytes": len(pdf),
        "extracted_character_count": len("Draft PRD\fData boundary"),
        "estimated_tokens": body["estimated_tokens"],
        "extraction_method": "local_pdf_text_extract",
        "extraction_confidence": "high",
        "extraction_status": "accepted",
        "anchors_available": ["page"],
        "classification_label": (
            "user-provided session source; not approved package corpus; not durable corpus "
            "ingestion; not enterprise source authority unless separately approved"
        ),
        "retention": "session_only",
        "kept": "",
        "notices": [],
    }
    assert 0 < body["estimated_tokens"] < 20


def test_titles_are_one_clean_line_and_capped() -> None:
    session: dict = {}
    record = services.add_paste(
        session=session, owner="1", title="  My\n\tdraft\x00 " + "x" * 300, text="Body text."
    )
    assert record.display_title.startswith("My draft ") and len(record.display_title) == 200


def test_five_files_and_one_paste_then_session_limit() -> None:
    session: dict = {}
    for n in range(5):
        services.add_file(session=session, owner="1", data=b"note %d" % n, filename=f"n{n}.txt")
    services.add_paste(session=session, owner="1", title="Paste", text="pasted words")
    error = _refusal(services.add_file, session=session, owner="1", data=b"six", filename="n6.txt")
    assert error.code == "session_limit" and error.status_code == 413 and "5 files" in error.message
    error = _refusal(services.add_paste, session=session, owner="1", title="Again", text="more")
    assert error.code == "session_limit" and "1 pasted text" in error.message
    assert len(session[SESSION_KEY]["items"]) == 6


def test_session_character_limit_is_exact() -> None:
    session: dict = {}
    for n in range(4):
        data = str(n).encode() + b"a" * 24_999
        services.add_file(session=session, owner="1", data=data, filename=f"{n}.txt")
    # 100,000 used; a paste of exactly 20,000 reaches 120,000 and is accepted.
    services.add_paste(session=session, owner="1", title="Fits", text="b" * 20_000)
    error = _refusal(
        services.add_file, session=session, owner="1", data=b"c", filename="one-more.txt"
    )
    assert error.code == "session_limit" and "120,000 extracted characters" in error.message
    assert "120,000 are already used" in error.message


def test_session_raw_size_limit_is_exact() -> None:
    tight = replace(LIMITS, session_raw_bytes=100)
    session: dict = {}
    services.add_file(session=session, owner="1", data=b"a" * 60, filename="a.txt", limits=tight)
    services.add_file(session=session, owner="1", data=b"b" * 40, filename="b.txt", limits=tight)
    error = _refusal(
        services.add_file, session=session, owner="1", data=b"c", filename="c.txt", limits=tight
    )
    assert error.code == "session_limit" and "100 bytes are already used" in error.message


def test_default_raw_limit_message_names_20_mb() -> None:
    session: dict = {
        SESSION_KEY: {
            "owner": "1",
            "next": {"file": 2, "paste": 1},
            "items": [
                {
                    "record": {
                        "file_type": "pdf",
                        "raw_size_bytes": 20 * MiB,
                        "extracted_character_count": 10,
                        "session_source_id": "session-file-001",
                    },
                    "text": "x" * 10,
                    "meta": {},
                }
            ],
        }
    }
    error = _refusal(services.add_file, session=session, owner="1", data=b"x", filename="x.txt")
    assert error.code == "session_limit" and "20 MiB of raw input" in error.message


def test_a_refused_upload_leaves_the_session_untouched() -> None:
    session: dict = {}
    services.add_paste(session=session, owner="1", title="Keep", text="kept text")
    before = repr(session)
    _refusal(
        services.add_file, session=session, owner="1", data=b"MZ" + bytes(100), filename="a.txt"
    )
    _refusal(services.add_file, session=session, owner="1", data=b"[[[", filename="a.json")
    assert repr(session) == before


def test_resolve_keeps_order_and_rejects_unknown_ids() -> None:
    session: dict = {}
    services.add_file(session=session, owner="1", data=b"one", filename="1.txt")
    services.add_file(session=session, owner="1", data=b"two", filename="2.txt")
    found = services.resolve(
        session=session, owner="1", ids=["session-file-002", "session-file-001"]
    )
    assert [s.session_source_id for s in found] == ["session-file-002", "session-file-001"]
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError) as info:
        services.resolve(session=session, owner="2", ids=["session-file-001"])
    assert info.value.code == "unknown_session_source" and info.value.status_code == 400
