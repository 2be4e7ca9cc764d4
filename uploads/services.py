"""Session-source services: add a file or a paste, list, remove, clear, and resolve ids for a run.

Every function takes the session mapping and the owner explicitly and knows nothing of requests.
A refused input raises SourceRefused before the store is touched, so nothing of it is kept.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, MutableMapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from django.core.files.uploadedfile import UploadedFile
from rest_framework import status

from core import tokens
from core.errors import ApplicationError
from core.sizes import human_bytes
from uploads.boundary import CLASSIFICATION_LABEL
from uploads.extraction import extension, extract_paste, extract_upload
from uploads.extraction.common import clean_inline
from uploads.file_types import SUPPORTED_EXTENSIONS, file_limit_bytes, size_words
from uploads.limits import LIMITS, Limits
from uploads.rejections import Reason, refuse
from uploads.store import SessionSourceStore, Totals
from uploads.types import (
    RETENTION,
    SOURCE_CLASS,
    TRUNCATED_NOTICE,
    ExtractedText,
    ExtractionRecord,
    SessionSource,
)

Session = MutableMapping[str, Any]


@dataclass(frozen=True)
class Overview:
    """What the upload panel and the list API show: records, totals and the limits."""

    records: tuple[ExtractionRecord, ...]
    totals: Totals
    limits: Limits


def display_title(title: str | None, fallback: str, limits: Limits = LIMITS) -> str:
    """The user's title, or the file name, on one line without control characters, capped."""
    for candidate in (title or "", Path(fallback.replace("\\", "/")).name, fallback):
        cleaned = clean_inline(candidate)[: limits.title_chars].strip()
        if cleaned:
            return cleaned
    return "Untitled source"


def add_file(
    *,
    session: Session,
    owner: str,
    data: bytes,
    filename: str,
    title: str | None = None,
    limits: Limits = LIMITS,
) -> ExtractionRecord:
    """Extract an uploaded file and keep it in this session, or refuse it and keep nothing."""
    store = SessionSourceStore(session, owner)
    totals = store.totals()
    if totals.files >= limits.session_files:
        raise refuse(
            Reason.SESSION_LIMIT,
            f"This session already has {limits.session_files} files, the limit ({limits.session_files} "
            f"files plus {limits.session_pastes} pasted text). Remove a file first.",
        )
    _check_raw(totals, len(data), limits)
    digest = content_digest(data)
    _check_new(store, digest)
    _check_chars_left(totals, limits)
    extracted = extract_upload(
        data,
        filename=filename,
        session_remaining=limits.session_chars - totals.chars,
        limits=limits,
    )
    return _keep(
        store, "file", display_title(title, filename, limits), len(data), extracted, digest
    )


def add_uploaded_file(
    *,
    session: Session,
    owner: str,
    upload: UploadedFile,
    title: str | None = None,
    limits: Limits = LIMITS,
) -> ExtractionRecord:
    """``add_file`` for a file Django received; an upload cut short in memory is refused by size."""
    try:
        name = upload.name or "upload"
        ext = extension(name)
        limit = (
            file_limit_bytes(ext, limits)
            if ext in SUPPORTED_EXTENSIONS
            else limits.largest_file_bytes
        )
        size = upload.size or 0
        if not getattr(upload, "complete", True) or size > limit:
            raise refuse(
                Reason.TOO_LARGE,
                f"The file is {size:,} bytes; {size_words(ext)} are limited to {human_bytes(limit)} "
                f"({limit:,} bytes).",
            )
        data = upload.read()
    finally:
        upload.close()
    return add_file(
        session=session, owner=owner, data=data, filename=name, title=title, limits=limits
    )


def add_paste(
    *, session: Session, owner: str, title: str | None, text: str, limits: Limits = LIMITS
) -> ExtractionRecord:
    """Keep pasted text as a session source, or refuse it and keep nothing."""
    store = SessionSourceStore(session, owner)
    totals = store.totals()
    if len(text) > limits.paste_chars:
        extract_paste(text, session_remaining=None, limits=limits)  # raises the paste-size refusal
    if totals.pastes >= limits.session_pastes:
        raise refuse(
            Reason.SESSION_LIMIT,
            f"This session already has {limits.session_pastes} pasted text, the limit. Remove it "
            "before pasting another.",
        )
    encoded = text.encode("utf-8", errors="surrogatepass")
    _check_raw(totals, len(encoded), limits)
    digest = content_digest(encoded)
    _check_new(store, digest)
    _check_chars_left(totals, limits)
    extracted = extract_paste(
        text, session_remaining=limits.session_chars - totals.chars, limits=limits
    )
    return _keep(
        store, "paste", display_title(title, "Pasted text", limits), len(encoded), extracted, digest
    )


def content_digest(data: bytes) -> str:
    """The SHA-256 of a source's raw bytes (a paste's UTF-8): how a repeated upload is recognised."""
    return hashlib.sha256(data).hexdigest()


def _check_new(store: SessionSourceStore, digest: str) -> None:
    existing = store.find_by_digest(digest)
    if existing is not None:
        raise refuse(
            Reason.ALREADY_IN_SESSION,
            f"This content is already in the session as {existing.session_source_id} "
            f"({existing.display_title!r}); it was not added again.",
            fields={"session_source_id": existing.session_source_id},
        )


def _check_chars_left(totals: Totals, limits: Limits) -> None:
    if totals.chars >= limits.session_chars:
        raise refuse(
            Reason.SESSION_LIMIT,
            f"The session's {limits.session_chars:,} extracted characters are all used "
            f"({totals.chars:,} are already used by other sources). Remove a source first.",
        )


def _check_raw(totals: Totals, size: int, limits: Limits) -> None:
    if totals.raw_bytes + size > limits.session_raw_bytes:
        raise refuse(
            Reason.SESSION_LIMIT,
            f"Adding {size:,} bytes would take the session past its "
            f"{human_bytes(limits.session_raw_bytes)} of raw input ({totals.raw_bytes:,} bytes are "
            "already used).",
        )


def _keep(
    store: SessionSourceStore,
    kind: str,
    title: str,
    raw: int,
    extracted: ExtractedText,
    digest: str,
) -> ExtractionRecord:
    record = ExtractionRecord(
        source_class=SOURCE_CLASS,
        session_source_id=store.next_id(kind),
        display_title=title,
        file_type=extracted.file_type,
        raw_size_bytes=raw,
        extracted_character_count=len(extracted.text),
        estimated_tokens=tokens.count(extracted.text),
        extraction_method=extracted.method,
        extraction_confidence=extracted.confidence,
        extraction_status=extracted.status,
        anchors_available=extracted.anchors_available,
        classification_label=CLASSIFICATION_LABEL,
        retention=RETENTION,
        kept=extracted.kept,
        notices=(TRUNCATED_NOTICE,) if extracted.kept else (),
    )
    store.add(SessionSource(record=record, text=extracted.text, meta=extracted.meta), digest)
    return record


def overview(*, session: Session, owner: str, limits: Limits = LIMITS) -> Overview:
    store = SessionSourceStore(session, owner)
    return Overview(records=tuple(store.records()), totals=store.totals(), limits=limits)


def remove(*, session: Session, owner: str, source_id: str) -> str:
    """Remove one source and return its display title; an id this session does not hold is a
    404, whoever else may hold it."""
    store = SessionSourceStore(session, owner)
    source = store.get(source_id)
    if source is None or not store.remove(source_id):
        raise ApplicationError(
            "unknown_session_source",
            "No session source with that id exists in this session.",
            status_code=status.HTTP_404_NOT_FOUND,
        )
    return source.record.display_title


def clear(*, session: Session, owner: str) -> int:
    """Remove every source of this session; returns how many were removed."""
    return SessionSourceStore(session, owner).clear()


def clear_titled(*, session: Session, owner: str) -> tuple[str, ...]:
    """Remove every source of this session; returns the display titles of those removed."""
    store = SessionSourceStore(session, owner)
    titles = tuple(r.display_title for r in store.records())
    store.clear()
    return titles


def resolve(*, session: Session, owner: str, ids: Iterable[str]) -> tuple[SessionSource, ...]:
    """The sources a run asked for, in the order asked; any id not in this session is a 400."""
    store = SessionSourceStore(session, owner)
    found: list[SessionSource] = []
    unknown: list[str] = []
    for source_id in dict.fromkeys(ids):
        source = store.get(source_id)
        if source is None:
            unknown.append(source_id)
        else:
            found.append(source)
    if unknown:
        raise ApplicationError(
            "unknown_session_source",
            "No session source with that id exists in this session.",
            fields={"session_source_ids": [f"Unknown session source id: {i}" for i in unknown]},
        )
    return tuple(found)


def load_local(
    *, files: Iterable[Path], paste_file: Path | None = None, limits: Limits = LIMITS
) -> tuple[SessionSource, ...]:
    """Extract local files for one command-line run under the same limits as a session."""
    session: dict[str, Any] = {}
    for path in files:
        add_file(
            session=session,
            owner="cli",
            data=_read_capped(path, limits),
            filename=path.name,
            limits=limits,
        )
    if paste_file is not None:
        raw = _read_capped(paste_file, limits)
        add_paste(
            session=session,
            owner="cli",
            title=paste_file.name,
            text=raw.decode("utf-8", errors="replace"),
            limits=limits,
        )
    return tuple(SessionSourceStore(session, "cli").sources())


def _read_capped(path: Path, limits: Limits) -> bytes:
    with path.open("rb") as handle:
        data = handle.read(limits.largest_file_bytes + 1)
    if len(data) > limits.largest_file_bytes:
        raise refuse(
            Reason.TOO_LARGE,
            f"{path.name} is larger than {human_bytes(limits.largest_file_bytes)}, the largest file "
            "size any type accepts.",
        )
    return data
