"""Extraction confidence that means something: unreadable text refused or partial, scans as images.

Also the refusals that name their own cause: Strict Open XML, unsupported PDF filters (JBIG2
among them) and decompression bombs.
"""

from __future__ import annotations

import zlib

import pytest

from tests.uploads.builders import (
    IMAGE_CONTENT,
    build_pdf,
    docx_bytes,
    rewrite_zip,
    text_content,
    text_pdf,
)
from uploads.extraction import extract_upload
from uploads.extraction.common import quality_problem, readability
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused

PROSE = [
    "The assistant sends every question to the enterprise gateway, never to a public model.",
    "Reviewers check the data boundary before the proof of concept starts.",
]
GLYPHS = [
    "/g18/g152/g33/g47 /g3/g44/g55/g81/g3 /g68/g81/g71 /g87/g75/g72",
    "(cid:12)(cid:44)(cid:3)",
]


def _extract(data: bytes, name: str):
    return extract_upload(data, filename=name, session_remaining=LIMITS.session_chars)


def _refusal(data: bytes, name: str) -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        _extract(data, name)
    return info.value


@pytest.mark.parametrize(
    "text",
    [
        "/g18/g152/g33 /g3/g44/g55/g81 /g68/g81/g71",
        "/gid00042/gid00043/gid00044 /gid00045",
        "(cid:12)(cid:44)(cid:3)(cid:55) (cid:12)(cid:9)",
        "\ufffd\ufffd\ufffd \ufffd\ufffd",
        "#$%&*^ ~~@@## }{][ ^^%%$$",
    ],
)
def test_glyph_codes_replacement_characters_and_symbol_soup_are_unreadable(text: str) -> None:
    assert readability(text).unreadable_share > 0.9
    assert quality_problem(text)


def test_ordinary_prose_urls_and_numbers_are_readable() -> None:
    text = " ".join(PROSE) + " See https://example.org/spec/v2 (section 4.2) and 10.5%."
    assert readability(text).unreadable_share < 0.05 and quality_problem(text) is None


def test_a_pdf_that_is_mostly_glyph_codes_is_refused_low_confidence() -> None:
    pdf = text_pdf([GLYPHS * 10, GLYPHS * 10, PROSE[:1]])
    error = _refusal(pdf, "paper.pdf")
    assert error.code == "low_confidence" and error.status_code == 400
    assert "unmapped glyph codes" in error.message


def test_a_pdf_with_some_unreadable_pages_is_partial() -> None:
    extracted = _extract(text_pdf([PROSE * 3, GLYPHS, PROSE * 3]), "mixed.pdf")
    assert extracted.confidence == "partial" and extracted.status == "partially extracted"
    assert extracted.meta["unreadable_pages"] == 1


def test_a_scan_with_a_token_of_text_is_an_image_only_page() -> None:
    scan = IMAGE_CONTENT + b"\n" + text_content(["Page 1"])  # a 6-character overlay
    error = _refusal(build_pdf([scan, scan], with_image=True), "scan.pdf")
    assert error.code == "image_only"
    mixed = _extract(build_pdf([text_content(PROSE), scan], with_image=True), "mixed.pdf")
    assert mixed.confidence == "partial" and mixed.meta["image_only_pages"] == 1
    assert mixed.text.split("\f")[1] == ""  # the overlay is not offered as citable text


def test_a_page_without_an_image_keeps_its_short_text() -> None:
    extracted = _extract(text_pdf([PROSE, ["Page 2"]]), "short.pdf")
    assert extracted.confidence == "high" and extracted.text.endswith("Page 2")


@pytest.mark.parametrize(
    ("filter_name", "named"), [(b"/FooDecode", "/FooDecode"), (b"/JBIG2Decode", "/JBIG2Decode")]
)
def test_an_unsupported_pdf_filter_has_its_own_reason(filter_name: bytes, named: str) -> None:
    pdf = build_pdf([text_content(PROSE)])
    pdf = pdf.replace(b"<< /Length ", b"<< /Filter " + filter_name + b" /Length ", 1)
    error = _refusal(pdf, "filtered.pdf")
    assert error.code == "unsupported_pdf_filter" and error.status_code == 415
    assert named in error.message and "Save as PDF" in error.message


def test_a_pdf_stream_bomb_is_a_decompression_bomb_not_malformed() -> None:
    bomb = zlib.compress(b"0" * (9 * 1024 * 1024), 9)
    pdf = build_pdf([text_content(PROSE)], raw_streams={0: bomb})
    error = _refusal(pdf, "bomb.pdf")
    assert error.code == "decompression_bomb" and error.status_code == 413


def _strict(data: bytes) -> bytes:
    """A python-docx document rewritten with Strict Open XML's ISO namespaces."""
    import zipfile
    from io import BytesIO

    with zipfile.ZipFile(BytesIO(data)) as zf:
        rels = zf.read("_rels/.rels")
        body = zf.read("word/document.xml")
    transitional = b"http://schemas.openxmlformats.org/officeDocument/2006/relationships"
    strict_rels = rels.replace(
        transitional + b"/officeDocument",
        b"http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument",
    )
    strict_body = body.replace(
        b"http://schemas.openxmlformats.org/wordprocessingml/2006/main",
        b"http://purl.oclc.org/ooxml/wordprocessingml/main",
    )
    return rewrite_zip(data, replace={"_rels/.rels": strict_rels, "word/document.xml": strict_body})


def test_strict_open_xml_has_its_own_reason_and_next_step() -> None:
    data = _strict(docx_bytes(lambda d: d.add_paragraph(PROSE[0])))
    error = _refusal(data, "strict.docx")
    assert error.code == "strict_open_xml" and error.status_code == 415
    assert "Word Document (.docx)" in error.message and "Save As" in error.message


@pytest.mark.parametrize(
    "text",
    [
        " ".join(PROSE * 3),
        "5.1 3.5 1.4 0.2 setosa 4.9 3.0 1.4 0.2 setosa 4.7 3.2 1.3 0.2 setosa",
        "한국어 문서는 두 줄로 되어 있고 각 줄은 짧은 낱말로 되어 있습니다 검토 기준",
        "数据边界在网关之内,合同是机密的。审查人员在概念验证开始前检查数据边界。",
        "حَبيبي هذا نص عربي قصير عن حدود البيانات والعقود السرية في المشروع",
    ],
)
def test_words_numbers_and_cjk_text_are_not_scattered(text: str) -> None:
    assert readability(text).scattered() is None


@pytest.mark.parametrize(
    "text",
    [
        ":., dP . . i, . . . ? . i ' » 14 e. : .. Pr . srN • ki ., , LIL k 1 sa s .. % , 2 Y. .",
        "! \" # $ % & ' ( ) * + , - . / : ; < = > ? @ A B C D E F G H I J K L M N O [ \\ ] ^ _",
    ],
)
def test_scattered_letters_and_symbols_are_not_readable_text(text: str) -> None:
    problem = readability(text).scattered()
    assert problem and "scattered letters and symbols" in problem


def test_a_short_text_is_too_short_to_call_scattered() -> None:
    assert readability("a . b").scattered() is None
