"""DOCX extraction: body order and section anchors; zip bombs, DTDs, macros and fakes refused first."""

from __future__ import annotations

import io
import zipfile

import pytest
from docx.oxml import parse_xml
from docx.oxml.ns import nsdecls

from tests.uploads.builders import docx_bytes, docx_of_size, plain_zip, rewrite_zip
from uploads.anchors import Anchor
from uploads.extraction import extract_upload
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused
from uploads.segments import OPENING_SECTION, segments_of

MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"


def proposal(document) -> None:  # type: ignore[no-untyped-def]
    document.add_paragraph("Prepared for the architecture review board.")
    document.add_heading("Architecture overview", level=1)
    document.add_paragraph("The assistant calls the enterprise LLM gateway server-side.")
    document.add_paragraph("Sign-in uses the approved identity provider.", style="List Bullet")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text, table.cell(0, 1).text = "Component", "Owner"
    table.cell(1, 0).text, table.cell(1, 1).text = "Gateway", "Platform team"
    document.add_heading("Data boundary", level=2)
    document.add_paragraph("No personal data leaves the region.")


def _extract(data: bytes, name: str = "proposal.docx"):
    return extract_upload(data, filename=name, session_remaining=LIMITS.session_chars)


def _refusal(data: bytes, name: str = "proposal.docx") -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        _extract(data, name)
    return info.value


@pytest.fixture
def forbid_python_docx(monkeypatch):
    """Call it once the fixture bytes are built: from then on python-docx opening anything fails."""

    def fail(*args, **kwargs):
        pytest.fail("python-docx opened a package that should have been refused before parsing")

    return lambda: monkeypatch.setattr("docx.Document", fail)


def test_headings_paragraphs_lists_and_tables_in_body_order_with_section_anchors() -> None:
    extracted = _extract(docx_bytes(proposal))
    assert extracted.file_type == "docx" and extracted.method == "local_docx_extract"
    assert extracted.confidence == "high" and extracted.anchors_available == (
        "section",
        "paragraph",
    )
    assert extracted.text.split("\n") == [
        "Prepared for the architecture review board.",
        "Architecture overview",
        "The assistant calls the enterprise LLM gateway server-side.",
        "- Sign-in uses the approved identity provider.",
        "Component | Owner",
        "Gateway | Platform team",
        "Data boundary",
        "No personal data leaves the region.",
    ]
    assert extracted.meta == {"headings": [1, 6]}
    assert [(s.anchor, s.text) for s in segments_of("docx", extracted.text, extracted.meta)] == [
        (
            Anchor(section=OPENING_SECTION, paragraph=1),
            "Prepared for the architecture review board.",
        ),
        (
            Anchor(section="Architecture overview", paragraph=1),
            "The assistant calls the enterprise LLM gateway server-side.",
        ),
        (
            Anchor(section="Architecture overview", paragraph=2),
            "- Sign-in uses the approved identity provider.",
        ),
        (Anchor(section="Architecture overview", paragraph=3), "Component | Owner"),
        (Anchor(section="Architecture overview", paragraph=4), "Gateway | Platform team"),
        (Anchor(section="Data boundary", paragraph=1), "No personal data leaves the region."),
    ]
    assert (
        Anchor(section="Data boundary", paragraph=1).label == "section: Data boundary, paragraph 1"
    )


def test_tracked_changes_make_the_extraction_partial() -> None:
    def build(document) -> None:  # type: ignore[no-untyped-def]
        paragraph = document.add_paragraph("Base text of the proposal.")
        paragraph._p.append(
            parse_xml(
                f'<w:ins {nsdecls("w")} w:id="1" w:author="a" w:date="2024-01-01T00:00:00Z">'
                "<w:r><w:t>inserted words</w:t></w:r></w:ins>"
            )
        )

    extracted = _extract(docx_bytes(build))
    assert extracted.confidence == "partial" and extracted.status == "partially extracted"


def test_zip_bomb_part_is_refused_before_python_docx_opens_it(forbid_python_docx) -> None:
    data = rewrite_zip(
        docx_bytes(proposal), add={"word/media/filler.xml": b"0" * (3 * 1024 * 1024)}
    )
    assert len(data) < 100_000
    forbid_python_docx()
    error = _refusal(data)
    assert error.code == "decompression_bomb" and error.status_code == 413
    assert "100 to 1" in error.message


def test_total_expanded_size_is_bounded(forbid_python_docx) -> None:
    parts = {f"word/media/part{n}.bin": b"0" * (1024 * 1024) for n in range(41)}
    data = rewrite_zip(docx_bytes(proposal), add=parts)
    forbid_python_docx()
    error = _refusal(data)
    assert error.code == "decompression_bomb" and "40 MiB" in error.message


@pytest.mark.parametrize(
    ("part", "body"),
    [
        (
            "word/document.xml",
            b'<?xml version="1.0"?><!DOCTYPE w [<!ENTITY x "boom">]><w:document/>',
        ),
        (
            "docProps/core.xml",
            b'<?xml version="1.0"?><!ENTITY % ext SYSTEM "http://example.invalid/x">',
        ),
        (
            "docProps/app.xml",
            '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE a []><a/>'.encode("utf-16"),
        ),
    ],
    ids=["doctype", "entity", "utf16-doctype"],
)
def test_dtd_or_entity_declarations_are_refused(part: str, body: bytes, forbid_python_docx) -> None:
    data = rewrite_zip(docx_bytes(proposal), replace={part: body})
    forbid_python_docx()
    error = _refusal(data)
    assert error.code == "unsafe_content" and error.status_code == 400
    assert part in error.message


def test_macro_project_renamed_docx_is_refused(forbid_python_docx) -> None:
    data = rewrite_zip(
        docx_bytes(proposal), add={"word/vbaProject.bin": b"\xd0\xcf\x11\xe0 fake vba"}
    )
    forbid_python_docx()
    error = _refusal(data)
    assert error.code == "macro_enabled" and error.status_code == 415


def test_macro_enabled_content_type_is_refused(forbid_python_docx) -> None:
    original = docx_bytes(proposal)
    types = zipfile.ZipFile(io.BytesIO(original)).read("[Content_Types].xml")
    macro = types.replace(MAIN.encode(), b"application/vnd.ms-word.document.macroEnabled.main+xml")
    assert macro != types
    data = rewrite_zip(original, replace={"[Content_Types].xml": macro})
    forbid_python_docx()
    assert _refusal(data).code == "macro_enabled"


def test_zip_that_is_not_an_office_package_is_an_archive() -> None:
    error = _refusal(plain_zip({"notes.txt": b"hello"}))
    assert error.code == "archive" and error.status_code == 415


def test_other_office_packages_are_unsupported() -> None:
    types = (
        b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
        b'officedocument.spreadsheetml.sheet.main+xml"/></Types>'
    )
    error = _refusal(plain_zip({"[Content_Types].xml": types, "xl/workbook.xml": b"<workbook/>"}))
    assert error.code == "unsupported_type"


def test_word_package_missing_its_document_is_malformed() -> None:
    types = (
        b'<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
        b'<Override PartName="/word/document.xml" ContentType="' + MAIN.encode() + b'"/></Types>'
    )
    error = _refusal(plain_zip({"[Content_Types].xml": types}))
    assert error.code == "malformed" and error.status_code == 400


def test_password_protected_office_file_is_encrypted() -> None:
    ole = (
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
        + bytes(500)
        + "EncryptedPackage".encode("utf-16-le")
        + bytes(500)
    )
    assert _refusal(ole).code == "encrypted"


def test_legacy_word_binary_is_unsupported() -> None:
    assert (
        _refusal(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + bytes(1000), "old.docx").code
        == "unsupported_type"
    )


def test_section_limit_is_exact() -> None:
    def headings(count: int, opening: bool):
        def build(document) -> None:  # type: ignore[no-untyped-def]
            if opening:
                document.add_paragraph("Opening words.")
            for n in range(count):
                document.add_heading(f"Section {n + 1}", level=1)
                document.add_paragraph(f"Body {n + 1}.")

        return docx_bytes(build)

    assert len(_extract(headings(75, opening=False)).meta["headings"]) == 75
    for data in (headings(76, opening=False), headings(75, opening=True)):
        error = _refusal(data)
        assert error.code == "too_large" and "75 pages or sections" in error.message


def test_size_limit_is_exact() -> None:
    assert _extract(docx_of_size(proposal, LIMITS.document_bytes)).text.startswith("Prepared")
    error = _refusal(docx_of_size(proposal, LIMITS.document_bytes + 1))
    assert error.code == "too_large" and "5,242,881 bytes" in error.message


@pytest.mark.parametrize(
    ("data", "name"),
    [(None, "proposal.txt"), (b"Just text pretending to be Word.", "proposal.docx")],
    ids=["docx-named-txt", "text-named-docx"],
)
def test_word_name_and_content_must_agree(data: bytes | None, name: str) -> None:
    error = _refusal(data if data is not None else docx_bytes(proposal), name)
    assert error.code == "type_mismatch" and error.status_code == 415
