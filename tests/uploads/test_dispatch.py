"""The dispatcher decides by content and extension together; dangerous or unknown files are refused."""

from __future__ import annotations

import gzip
import io
import tarfile

import pytest

from tests.uploads.builders import plain_zip, text_pdf
from uploads.extraction import extension, extract_upload
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused


def _refusal(data: bytes, name: str) -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        extract_upload(data, filename=name, session_remaining=LIMITS.session_chars)
    return info.value


def _tar() -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w") as tar:
        body = b"hello"
        info = tarfile.TarInfo("notes.txt")
        info.size = len(body)
        tar.addfile(info, io.BytesIO(body))
    return out.getvalue()


@pytest.mark.parametrize(
    ("data", "name", "code"),
    [
        (b"MZ\x90\x00\x03\x00\x00\x00" + bytes(200), "readme.txt", "executable"),
        (b"\x7fELF\x02\x01\x01" + bytes(200), "notes.md", "executable"),
        (b"\xcf\xfa\xed\xfe" + bytes(200), "data.csv", "executable"),
        (b"#!/bin/sh\nrm -rf /\n", "notes.txt", "executable"),
        (b"\xef\xbb\xbf#!/usr/bin/env python\nprint(1)\n", "notes.txt", "executable"),
        (plain_zip({"a.txt": b"hello"}), "prd.pdf", "archive"),
        (plain_zip({"a.txt": b"hello"}), "notes.txt", "archive"),
        (gzip.compress(b"hello"), "notes.txt", "archive"),
        (_tar(), "notes.txt", "archive"),
        (b"7z\xbc\xaf\x27\x1c" + bytes(50), "notes.json", "archive"),
        (b"Rar!\x1a\x07\x01\x00" + bytes(50), "notes.txt", "archive"),
        (b"\x89PNG\r\n\x1a\n" + bytes(100), "diagram.txt", "unsupported_type"),
        (b"\xff\xd8\xff\xe0" + bytes(100), "scan.pdf", "unsupported_type"),
        (b"RIFF\x00\x00\x00\x00WAVEfmt " + bytes(50), "call.txt", "unsupported_type"),
        (b"\x00\x00\x00\x18ftypmp42" + bytes(50), "demo.md", "unsupported_type"),
        (b"SQLite format 3\x00" + bytes(100), "db.json", "unsupported_type"),
        (bytes(range(256)) * 4, "blob.txt", "unsupported_type"),
        (b"Perfectly good text.", "notes.rtf", "unsupported_type"),
        (b"Perfectly good text.", "notes", "unsupported_type"),
        (b"", "empty.txt", "empty"),
    ],
    ids=[
        "exe-renamed-txt",
        "elf-renamed-md",
        "macho-renamed-csv",
        "shebang-script",
        "bom-shebang",
        "zip-renamed-pdf",
        "zip-renamed-txt",
        "gzip",
        "tar",
        "7z",
        "rar",
        "png",
        "jpeg-renamed-pdf",
        "wav",
        "mp4",
        "sqlite",
        "binary",
        "unsupported-extension",
        "no-extension",
        "empty",
    ],
)
def test_refused_by_content_whatever_the_name(data: bytes, name: str, code: str) -> None:
    error = _refusal(data, name)
    assert error.code == code
    assert error.status_code == {"empty": 400}.get(code, 415)


def test_a_pdf_named_pdf_is_accepted_and_content_beats_the_name_elsewhere() -> None:
    pdf = text_pdf([["Page one."]])
    assert extract_upload(pdf, filename="PRD.PDF", session_remaining=100).file_type == "pdf"
    assert _refusal(pdf, "prd.json").code == "type_mismatch"


@pytest.mark.parametrize(
    ("filename", "ext"),
    [
        ("a.PDF", "pdf"),
        ("dir/x.tar.gz", "gz"),
        ("C:\\Users\\x\\plan.docx", "docx"),
        (".env", ""),
        ("noext", ""),
    ],
)
def test_extension_is_taken_from_the_last_name_component(filename: str, ext: str) -> None:
    assert extension(filename) == ext


def test_text_size_limit_is_exact() -> None:
    body = b"Problem statement.\n"
    at_limit = body + b" " * (LIMITS.text_bytes - len(body))
    assert extract_upload(
        at_limit, filename="n.txt", session_remaining=LIMITS.session_chars
    ).text == ("Problem statement.")
    with pytest.raises(SourceRefused) as info:
        extract_upload(at_limit + b" ", filename="n.txt", session_remaining=LIMITS.session_chars)
    assert info.value.code == "too_large" and "1 MiB (1,048,576 bytes)" in info.value.message
