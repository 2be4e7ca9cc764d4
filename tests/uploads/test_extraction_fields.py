"""Form-field values and content controls: PDF AcroForm values and DOCX ``w:sdt`` text are read.

The PDF forms are real files from the corpus (tests/uploads/realdocs); the signed signature field
and the content controls are built here.
"""

from __future__ import annotations

import io
from pathlib import Path

from docx.oxml import parse_xml
from pypdf import PdfWriter
from pypdf.generic import (
    ArrayObject,
    DictionaryObject,
    FloatObject,
    NameObject,
    TextStringObject,
)

from tests.uploads.builders import docx_bytes
from uploads.extraction import extract_upload
from uploads.limits import LIMITS

CORPUS = Path(__file__).parent / "realdocs"
W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"


def _extract(data: bytes, name: str):
    return extract_upload(data, filename=name, session_remaining=LIMITS.session_chars)


def test_filled_pdf_text_fields_follow_the_page_text_as_label_value_lines() -> None:
    extracted = _extract((CORPUS / "sf-libreoffice-form.pdf").read_bytes(), "form.pdf")
    lines = extracted.text.split("\n")
    assert "First Name: Alice" in lines and "First Name_2: Bob" in lines
    assert lines.index("First Name: Alice") > lines.index("Example for a Form")
    assert extracted.confidence == "high"


def test_a_form_filled_in_acrobat_reader_gives_its_value() -> None:
    extracted = _extract((CORPUS / "pypdf-form-filled-acrobat.pdf").read_bytes(), "form.pdf")
    assert extracted.text.split("\n")[-1] == "foo: Bar"


def _with_signature(data: bytes, *, signed: bool) -> bytes:
    writer = PdfWriter(clone_from=io.BytesIO(data))
    field = DictionaryObject(
        {
            NameObject("/Type"): NameObject("/Annot"),
            NameObject("/Subtype"): NameObject("/Widget"),
            NameObject("/FT"): NameObject("/Sig"),
            NameObject("/T"): TextStringObject("Approver"),
            NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (50, 50, 250, 100)]),
        }
    )
    if signed:
        field[NameObject("/V")] = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Sig"),
                NameObject("/Name"): TextStringObject("A. Reviewer"),
            }
        )
    ref = writer._add_object(field)
    page = writer.pages[0]
    annots = page.get("/Annots")
    if annots is None:
        page[NameObject("/Annots")] = ArrayObject([ref])
    else:
        annots.get_object().append(ref)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_signed_signature_field_makes_the_extraction_partial_and_says_so() -> None:
    base = (CORPUS / "sf-libre-office-writer.pdf").read_bytes()
    signed = _extract(_with_signature(base, signed=True), "signed.pdf")
    assert signed.confidence == "partial" and signed.meta["signatures_not_read"] == 1
    unsigned = _extract(_with_signature(base, signed=False), "unsigned.pdf")
    assert unsigned.confidence == "high" and "signatures_not_read" not in unsigned.meta


def _sdt(inner: str, *, placeholder: bool = False) -> str:
    shown = "<w:showingPlcHdr/>" if placeholder else ""
    return f"<w:sdt><w:sdtPr><w:alias w:val='x'/>{shown}</w:sdtPr><w:sdtContent>{inner}</w:sdtContent></w:sdt>"


def _run(text: str) -> str:
    return f"<w:r><w:t xml:space='preserve'>{text}</w:t></w:r>"


def test_docx_content_controls_are_read_as_the_text_they_show() -> None:
    def build(document) -> None:
        document.add_paragraph("Proposal for the gateway.")
        body = document.element.body
        block = parse_xml(
            f"<w:sdt xmlns:w='{W}'><w:sdtPr/><w:sdtContent>"
            f"<w:p>{_run('Owner: the platform team.')}</w:p></w:sdtContent></w:sdt>"
        )
        body.insert(len(body) - 1, block)  # before the section properties
        paragraph = document.add_paragraph("Status: ")
        paragraph._p.append(
            parse_xml(f"<w:root xmlns:w='{W}'>{_sdt(_run('approved'))}</w:root>")[0]
        )
        prompt = document.add_paragraph("Date: ")
        prompt._p.append(
            parse_xml(
                f"<w:root xmlns:w='{W}'>{_sdt(_run('Click to enter a date.'), placeholder=True)}</w:root>"
            )[0]
        )

    extracted = _extract(docx_bytes(build), "proposal.docx")
    assert extracted.text.split("\n") == [
        "Proposal for the gateway.",
        "Owner: the platform team.",
        "Status: approved",
        "Date:",
    ]
    assert extracted.confidence == "high"


def test_nested_tables_text_is_kept_in_its_cell() -> None:
    def build(document) -> None:
        table = document.add_table(rows=1, cols=2)
        table.cell(0, 0).text = "Criterion"
        inner = table.cell(0, 1).add_table(rows=1, cols=2)
        inner.cell(0, 0).text = "identity"
        inner.cell(0, 1).text = "covered"

    extracted = _extract(docx_bytes(build), "table.docx")
    assert extracted.text == "Criterion | identity | covered"
    assert extracted.confidence == "high"


def test_a_byte_string_field_value_is_read_as_text() -> None:
    from pypdf.generic import ByteStringObject

    def filled(value: object) -> bytes:
        writer = PdfWriter(
            clone_from=io.BytesIO((CORPUS / "sf-libre-office-writer.pdf").read_bytes())
        )
        field = DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Annot"),
                NameObject("/Subtype"): NameObject("/Widget"),
                NameObject("/FT"): NameObject("/Tx"),
                NameObject("/T"): TextStringObject("Reviewer"),
                NameObject("/V"): value,
                NameObject("/Rect"): ArrayObject([FloatObject(v) for v in (50, 50, 250, 100)]),
            }
        )
        writer.pages[0][NameObject("/Annots")] = ArrayObject([writer._add_object(field)])
        out = io.BytesIO()
        writer.write(out)
        return out.getvalue()

    text = _extract(filled(ByteStringObject(b"Caf\xe9 owner")), "f.pdf").text
    assert text.split("\n")[-1] == "Reviewer: Café owner"
