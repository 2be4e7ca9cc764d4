"""Choose the extractor for an upload from its content and its extension together, or refuse it."""

from __future__ import annotations

from pathlib import PurePosixPath

from core.sizes import human_bytes
from uploads.extraction.common import CharBudget
from uploads.extraction.docx import extract_docx
from uploads.extraction.docx_package import PackageKind, inspect_package
from uploads.extraction.json_source import extract_json
from uploads.extraction.pdf import extract_pdf
from uploads.extraction.sniff import Kind, sniff
from uploads.extraction.tabular import extract_table
from uploads.extraction.text import extract_text
from uploads.file_types import (
    SUPPORTED_EXTENSIONS,
    SUPPORTED_LIST,
    TABULAR,
    file_limit_bytes,
    size_words,
)
from uploads.limits import LIMITS, Limits
from uploads.rejections import Reason, refuse
from uploads.types import ExtractedText

HARD_CHAR_CAP = 2_000_000
_ENCRYPTED_OFFICE_MARK = "EncryptedPackage".encode("utf-16-le")


def extension(filename: str) -> str:
    """The lower-case extension of the file name's last component, without the dot."""
    name = PurePosixPath(filename.replace("\\", "/")).name
    return name.rsplit(".", 1)[-1].lower() if "." in name.strip(".") else ""


def char_budget(
    file_type: str, session_remaining: int | None, limits: Limits = LIMITS
) -> CharBudget:
    """The extracted-character budget: the file type's own limit refuses, the session's truncates.

    A file over its own limit (CSV, TSV and JSON: 250,000 characters; others a hard safety cap)
    is refused. A file within it that does not fit what the session has left is kept in part, on
    whole pages, rows, sections or lines, up to what is left.
    """
    if file_type in TABULAR:
        per_file = limits.tabular_chars
        message = (
            f"The file extracts to more than {per_file:,} characters; CSV, TSV and JSON files are "
            f"limited to {per_file:,} extracted characters."
        )
    else:
        per_file = HARD_CHAR_CAP
        message = f"The file extracts to more than {HARD_CHAR_CAP:,} characters."
    full = ""
    if session_remaining is not None:
        used = limits.session_chars - session_remaining
        full = (
            f"Adding this source would take the session past its {limits.session_chars:,} "
            f"extracted characters ({used:,} are already used by other sources, and not even its "
            "first page, row, section or line fits in what is left). Remove a source first."
        )
    return CharBudget(
        per_file, Reason.TOO_LARGE, message, keep=session_remaining, full_message=full
    )


def extract_upload(
    data: bytes, *, filename: str, session_remaining: int | None, limits: Limits = LIMITS
) -> ExtractedText:
    """Extract one uploaded file, deciding its type from its bytes and its extension together.

    Executables, scripts, archives, images, audio, video and other binaries are refused whatever
    they are called; a supported extension must match what the content is. Size limits are
    checked before any parser runs, character limits while it runs.
    """
    kind, description = sniff(data)
    ext = extension(filename)
    _refuse_by_content(kind, description, data)
    _refuse_by_name_and_size(kind, description, ext, data, limits)

    budget = char_budget(ext, session_remaining, limits)
    if ext == "pdf":
        return extract_pdf(data, budget=budget, limits=limits)
    if ext == "docx":
        return extract_docx(data, budget=budget, limits=limits)
    if ext in ("csv", "tsv"):
        return extract_table(data, file_type=ext, budget=budget, limits=limits)
    if ext == "json":
        return extract_json(data, budget=budget, limits=limits)
    return extract_text(data, file_type=ext, budget=budget)


def _refuse_by_content(kind: Kind, description: str, data: bytes) -> None:
    """Refuse what the bytes are, whatever the file is called: empty, executable, archive, binary."""
    if kind is Kind.EMPTY:
        raise refuse(Reason.EMPTY, "The file is empty.")
    if kind in (Kind.EXECUTABLE, Kind.SCRIPT):
        raise refuse(
            Reason.EXECUTABLE,
            f"The file is {description}. Executables and scripts are not accepted, whatever their "
            "file name.",
        )
    if kind is Kind.ARCHIVE:
        raise refuse(
            Reason.ARCHIVE,
            f"The file is {description}. Archives are not accepted; upload the documents themselves.",
        )
    if kind is Kind.OLE:
        if _ENCRYPTED_OFFICE_MARK in data:
            raise refuse(
                Reason.ENCRYPTED,
                "The file is a password-protected Office document; encrypted files are not accepted.",
            )
        raise refuse(
            Reason.UNSUPPORTED_TYPE,
            f"The file is {description} (.doc, .xls or similar); save it as .docx.",
        )
    if kind in (Kind.IMAGE, Kind.MEDIA, Kind.BINARY):
        raise refuse(
            Reason.UNSUPPORTED_TYPE,
            f"The file is {description}. Images, audio, video and other binary files are not "
            "accepted (OCR and transcription are not supported).",
        )


def _refuse_by_name_and_size(
    kind: Kind, description: str, ext: str, data: bytes, limits: Limits
) -> None:
    """Refuse an unsupported extension, a file over its type's size, or a name the content belies."""
    if ext not in SUPPORTED_EXTENSIONS:
        shown = f".{ext}" if ext else "no extension"
        raise refuse(
            Reason.UNSUPPORTED_TYPE,
            f"Files with {shown} are not supported. Supported: {SUPPORTED_LIST}.",
        )
    size_limit = file_limit_bytes(ext, limits)
    if len(data) > size_limit:
        raise refuse(
            Reason.TOO_LARGE,
            f"The file is {len(data):,} bytes; {size_words(ext)} are limited to "
            f"{human_bytes(size_limit)} ({size_limit:,} bytes).",
        )
    if kind is Kind.ZIP:
        package = inspect_package(data)
        if package == PackageKind.ARCHIVE:
            raise refuse(
                Reason.ARCHIVE,
                "The file is a zip archive. Archives are not accepted; upload the documents themselves.",
            )
        if package == PackageKind.OTHER_OOXML:
            raise refuse(
                Reason.UNSUPPORTED_TYPE,
                "The file is an Office package that is not a Word document; only .docx is accepted.",
            )
        if ext != "docx":
            raise refuse(
                Reason.TYPE_MISMATCH,
                f"The file is named .{ext} but its content is a Word document; rename it .docx.",
            )
    elif ext == "docx":
        raise refuse(
            Reason.TYPE_MISMATCH,
            f"The file is named .docx but its content is {description}, not a Word document.",
        )
    if kind is Kind.PDF and ext != "pdf":
        raise refuse(
            Reason.TYPE_MISMATCH,
            f"The file is named .{ext} but its content is a PDF; rename it .pdf.",
        )
    if ext == "pdf" and kind is not Kind.PDF:
        raise refuse(
            Reason.TYPE_MISMATCH,
            f"The file is named .pdf but its content is {description}, not a PDF.",
        )
