"""DOCX structure beyond styles: text boxes read, headings from outline levels and numbering."""

from __future__ import annotations

from docx.enum.style import WD_STYLE_TYPE
from docx.oxml import parse_xml

from tests.uploads.builders import docx_bytes
from uploads.extraction import extract_upload
from uploads.limits import LIMITS
from uploads.segments import segments_of

W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
MC = "http://schemas.openxmlformats.org/markup-compatibility/2006"
V = "urn:schemas-microsoft-com:vml"
WPS = "http://schemas.microsoft.com/office/word/2010/wordprocessingShape"


def _box(text: str) -> str:
    return f"<w:txbxContent><w:p><w:r><w:t>{text}</w:t></w:r></w:p></w:txbxContent>"


def _vml_text_box_run(text: str):
    """A run holding a legacy (VML) text box."""
    return parse_xml(
        f'<w:r xmlns:w="{W}" xmlns:v="{V}"><w:pict><v:shape><v:textbox>{_box(text)}'
        "</v:textbox></v:shape></w:pict></w:r>"
    )


def _modern_text_box_run(text: str):
    """A run holding a text box as Word writes it: the drawing, and a VML copy as fallback."""
    return parse_xml(
        f'<w:r xmlns:w="{W}" xmlns:mc="{MC}" xmlns:v="{V}" xmlns:wps="{WPS}">'
        '<mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wps:wsp><wps:txbx>'
        f"{_box(text)}</wps:txbx></wps:wsp></w:drawing></mc:Choice>"
        f"<mc:Fallback><w:pict><v:shape><v:textbox>{_box(text)}</v:textbox></v:shape></w:pict>"
        "</mc:Fallback></mc:AlternateContent></w:r>"
    )


def _extract(data: bytes):
    return extract_upload(data, filename="draft.docx", session_remaining=LIMITS.session_chars)


def test_a_document_whose_text_is_in_text_boxes_is_extracted_not_empty() -> None:
    def build(document) -> None:
        document.add_paragraph()._p.append(_vml_text_box_run("Owner: the platform team."))
        document.add_paragraph()._p.append(
            _modern_text_box_run("Data boundary: contracts stay in the region.")
        )

    extracted = _extract(docx_bytes(build))
    assert extracted.text.split("\n") == [
        "Owner: the platform team.",
        "Data boundary: contracts stay in the region.",  # once, not again from the fallback
    ]
    assert extracted.confidence == "high"


def test_a_text_box_inside_a_table_is_not_read_and_makes_the_extraction_partial() -> None:
    def build(document) -> None:
        document.add_paragraph("Body text stays.")
        cell = document.add_table(rows=1, cols=1).cell(0, 0)
        cell.paragraphs[0]._p.append(_vml_text_box_run("Hidden in a cell."))

    extracted = _extract(docx_bytes(build))
    assert "Hidden in a cell." not in extracted.text and extracted.confidence == "partial"


def _outline(paragraph, level: int) -> None:
    paragraph._p.get_or_add_pPr().append(
        parse_xml(f'<w:outlineLvl xmlns:w="{W}" w:val="{level}"/>')
    )


def test_headings_come_from_outline_levels_and_numbered_bold_paragraphs_too() -> None:
    def build(document) -> None:
        document.add_paragraph("Opening words.")
        _outline(document.add_paragraph("Scope"), 0)
        document.add_paragraph("The assistant reviews drafts.")
        style = document.styles.add_style("Clause Title", WD_STYLE_TYPE.PARAGRAPH)
        style.element.get_or_add_pPr().append(parse_xml(f'<w:outlineLvl xmlns:w="{W}" w:val="1"/>'))
        document.add_paragraph("Obligations", style=style)
        document.add_paragraph("Reviewers cite the page.")
        document.add_paragraph().add_run("2.1 Data boundary").bold = True
        document.add_paragraph("Contracts stay in the region.")
        document.add_paragraph("1. Collect the evidence first.")  # numbered, not bold: body
        document.add_paragraph().add_run("3 Ends like a sentence.").bold = True
        _outline(document.add_paragraph("Body text level"), 9)

    extracted = _extract(docx_bytes(build))
    lines = extracted.text.split("\n")
    headings = [lines[i] for i in extracted.meta["headings"]]
    assert headings == ["Scope", "Obligations", "2.1 Data boundary"]
    anchors = {s.text: s.anchor for s in segments_of("docx", extracted.text, extracted.meta)}
    assert anchors["Contracts stay in the region."].section == "2.1 Data boundary"
    assert anchors["1. Collect the evidence first."].section == "2.1 Data boundary"
    assert anchors["Reviewers cite the page."].section == "Obligations"
