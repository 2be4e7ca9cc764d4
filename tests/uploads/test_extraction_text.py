"""Plain text, Markdown and paste extraction: decoding, line anchors, quality refusals."""

from __future__ import annotations

import pytest

from uploads.anchors import Anchor
from uploads.extraction import extract_paste, extract_upload
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused
from uploads.segments import segments_of


def _extract(data: bytes, name: str = "notes.txt"):
    return extract_upload(data, filename=name, session_remaining=LIMITS.session_chars)


def test_text_lines_keep_their_numbers_and_blank_lines_split_segments() -> None:
    data = (
        b"Problem statement\r\nReviewers lose time.\r\n\r\nData boundary\nNo personal data.\n\n\n"
    )
    extracted = _extract(data)
    assert (
        extracted.text
        == "Problem statement\nReviewers lose time.\n\nData boundary\nNo personal data."
    )
    assert extracted.file_type == "txt" and extracted.method == "local_text_extract"
    assert extracted.confidence == "high" and extracted.status == "accepted"
    assert extracted.anchors_available == ("line_range",)
    segments = segments_of("txt", extracted.text, extracted.meta)
    assert [(s.text, s.anchor) for s in segments] == [
        ("Problem statement\nReviewers lose time.", Anchor(line_range="1-2")),
        ("Data boundary\nNo personal data.", Anchor(line_range="4-5")),
    ]


def test_markdown_headings_start_new_segments_and_code_fences_stay_text() -> None:
    data = (
        b"# Architecture\nIntro line.\n## Data boundary\n```\nsecret = 'not run'\n```\n| a | b |\n"
    )
    extracted = _extract(data, "proposal.md")
    assert extracted.file_type == "md"
    segments = segments_of("md", extracted.text, extracted.meta)
    assert [s.anchor.line_range for s in segments] == ["1-2", "3-7"]
    assert "```\nsecret = 'not run'\n```" in segments[1].text
    assert "| a | b |" in segments[1].text


@pytest.mark.parametrize(
    ("data", "expected"),
    [
        (b"\xef\xbb\xbfcaf\xc3\xa9 ok", "café ok"),
        ("café ok".encode("utf-16"), "café ok"),  # BOM written by the codec
        ("café ok\nline two".encode("utf-16-le"), "café ok\nline two"),  # no BOM
        ("café ok\nline two".encode("utf-16-be"), "café ok\nline two"),  # no BOM
        ("café ok".encode("utf-32"), "café ok"),
    ],
)
def test_boms_and_utf16_are_detected(data: bytes, expected: str) -> None:
    assert _extract(data).text == expected


def test_invalid_utf8_is_replaced_and_makes_confidence_partial() -> None:
    extracted = _extract(b"Latin-1 caf\xe9 in an otherwise plain English sentence.")
    assert "caf\ufffd" in extracted.text
    assert extracted.confidence == "partial" and extracted.status == "partially extracted"


def test_mostly_undecodable_text_is_refused_as_low_confidence() -> None:
    with pytest.raises(SourceRefused) as info:
        _extract(b"ab " + bytes(range(0x80, 0xC0)) * 4)
    assert info.value.code == "low_confidence" and info.value.status_code == 400


def test_whitespace_only_file_is_refused_as_empty() -> None:
    with pytest.raises(SourceRefused) as info:
        _extract(b"  \n\t\n ")
    assert info.value.code == "empty"


def test_control_and_bidi_characters_are_removed() -> None:
    extracted = _extract("safe\u202etxt.exe line\u200b one\x07".encode())
    assert extracted.text == "safetxt.exe line one"


def test_paste_has_line_anchors_and_its_own_type() -> None:
    extracted = extract_paste("First line\nSecond line", session_remaining=LIMITS.session_chars)
    assert extracted.file_type == "paste" and extracted.method == "local_paste_extract"
    assert segments_of("paste", extracted.text, {})[0].anchor == Anchor(line_range="1-2")


def test_paste_limit_is_exact() -> None:
    assert len(extract_paste("x" * 25_000, session_remaining=None).text) == 25_000
    with pytest.raises(SourceRefused) as info:
        extract_paste("x" * 25_001, session_remaining=None)
    assert info.value.code == "too_large" and info.value.status_code == 413
    assert "25,000 characters" in info.value.message


def test_long_lines_are_cut_into_pieces_with_the_same_anchor() -> None:
    line = " ".join(["word"] * 600)  # 2,999 characters on line 1
    segments = segments_of("txt", line, {})
    assert len(segments) > 1
    assert {s.anchor for s in segments} == {Anchor(line_range="1")}
    assert " ".join(s.text for s in segments) == line
