"""JSON extraction: pointer anchors, bounded depth, members, values and characters."""

from __future__ import annotations

import json

import pytest

from uploads.anchors import Anchor
from uploads.extraction import extract_upload
from uploads.extraction.json_source import max_depth
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused
from uploads.segments import segments_of


def _extract(data: bytes, remaining: int | None = LIMITS.session_chars):
    return extract_upload(data, filename="facts.json", session_remaining=remaining)


def _refusal(data: bytes, **kwargs) -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        _extract(data, **kwargs)
    return info.value


def test_leaves_are_cited_by_json_pointer() -> None:
    doc = {"owner": {"product": "Dana"}, "a/b": [True, None], "t~x": 1.5, "k\tey": "v", "empty": {}}
    extracted = _extract(json.dumps(doc).encode())
    assert extracted.file_type == "json" and extracted.anchors_available == ("json_path",)
    assert [(s.anchor, s.text) for s in segments_of("json", extracted.text, {})] == [
        (Anchor(json_path="/owner/product"), "/owner/product = Dana"),
        (Anchor(json_path="/a~1b/0"), "/a~1b/0 = true"),
        (Anchor(json_path="/a~1b/1"), "/a~1b/1 = null"),
        (Anchor(json_path="/t~0x"), "/t~0x = 1.5"),
        (Anchor(json_path="/k%09ey"), "/k%09ey = v"),
        (Anchor(json_path="/empty"), "/empty = {}"),
    ]


def test_depth_limit_is_exact() -> None:
    at_limit = "[" * 32 + "1" + "]" * 32
    assert _extract(at_limit.encode()).text == "/" + "/".join(["0"] * 32) + "\t1"
    error = _refusal(("[" * 33 + "1" + "]" * 33).encode())
    assert error.code == "too_deep" and error.status_code == 413 and "32 levels" in error.message


def test_very_deep_json_is_refused_without_recursion() -> None:
    deep = ("[" * 200_000 + "]" * 200_000).encode()
    assert _refusal(deep).code == "too_deep"


def test_brackets_inside_strings_do_not_count_as_depth() -> None:
    assert max_depth('{"a": "[[[[[[[[[[\\"{{{{"}', stop_above=5) == 1


def test_member_limit_is_exact() -> None:
    assert _extract(json.dumps({f"k{n}": n for n in range(100)}).encode()).text
    error = _refusal(json.dumps({f"k{n}": n for n in range(101)}).encode())
    assert error.code == "too_large" and "101 members" in error.message


def test_value_count_limit_is_exact() -> None:
    assert len(_extract(json.dumps(list(range(5_000))).encode()).text.split("\n")) == 5_000
    error = _refusal(json.dumps(list(range(5_001))).encode())
    assert error.code == "too_large" and "5,000" in error.message


def test_long_values_are_capped_and_marked_truncated() -> None:
    extracted = _extract(json.dumps({"note": "z" * 3_000}).encode())
    assert (
        extracted.status == "truncated"
        and len(extracted.text) == len("/note\t") + LIMITS.cell_chars
    )


def test_size_limit_is_exact() -> None:
    body = b'{"a": 1}'
    assert _extract(body + b" " * (LIMITS.tabular_bytes - len(body))).text == "/a\t1"
    assert _refusal(body + b" " * (LIMITS.tabular_bytes - len(body) + 1)).code == "too_large"


def test_malformed_json_names_the_position() -> None:
    error = _refusal(b'{"a": 1,\n "b": }')
    assert error.code == "malformed" and "line 2" in error.message


def test_an_integer_past_pythons_digit_limit_is_malformed_not_a_crash() -> None:
    error = _refusal(b'{"n": ' + b"9" * 5_000 + b"}")
    assert error.code == "malformed" and error.status_code == 400
