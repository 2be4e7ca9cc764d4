"""JSON extraction: one ``pointer<TAB>value`` line per leaf, depth, members, values and size bounded.

Pointers follow RFC 6901 (``~0`` for ``~``, ``~1`` for ``/``); ``%``, tabs, newlines and other
control characters in keys are percent-encoded as in a URI fragment, so a line always splits at
its first tab.
"""

from __future__ import annotations

import json
import re
from typing import Any

from core.deadline import Deadline
from core.text import clip
from uploads.extraction.common import CharBudget, check_deadline, clean_inline, decode
from uploads.limits import LIMITS, Limits
from uploads.rejections import Reason, refuse
from uploads.types import CONFIDENCE_HIGH, CONFIDENCE_PARTIAL, ExtractedText

METHOD = "local_json_parse"
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.S)
_BRACKET = re.compile(r"[\[\]{}]")
_ENCODE = re.compile(r"[%\x00-\x1f\x7f]")


def max_depth(text: str, stop_above: int) -> int:
    """Nesting depth of JSON text, counted outside strings; stops early once above ``stop_above``."""
    depth = deepest = 0
    for match in _BRACKET.finditer(_STRING.sub('""', text)):
        if match.group() in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
                if deepest > stop_above:
                    return deepest
        else:
            depth -= 1
    return deepest


def pointer_token(key: str) -> str:
    escaped = key.replace("~", "~0").replace("/", "~1")
    return _ENCODE.sub(lambda m: f"%{ord(m.group()):02X}", escaped)


def extract_json(data: bytes, *, budget: CharBudget, limits: Limits = LIMITS) -> ExtractedText:
    """Leaf values of a JSON document in document order, each with its JSON pointer."""
    decoded = decode(data)
    text = decoded.text.strip()
    if not text:
        raise refuse(Reason.EMPTY, "The JSON file is empty.")
    if max_depth(text, limits.json_depth) > limits.json_depth:
        raise refuse(Reason.TOO_DEEP, _too_deep(limits))
    try:
        value = json.loads(text)
    except RecursionError:
        raise refuse(Reason.TOO_DEEP, _too_deep(limits)) from None
    except json.JSONDecodeError as exc:
        raise refuse(
            Reason.MALFORMED,
            f"The JSON is malformed: {exc.msg} at line {exc.lineno}, column {exc.colno}.",
        ) from None
    except ValueError as exc:  # e.g. an integer longer than Python's 4,300-digit conversion limit
        raise refuse(Reason.MALFORMED, f"The JSON could not be read: {exc}.") from None
    walker = _Walker(limits, budget, Deadline(limits.extraction_seconds))
    walker.walk(value)
    if walker.values and not walker.lines:
        raise budget.nothing_fits()
    kept = len(walker.lines)
    return ExtractedText(
        file_type="json",
        method=METHOD,
        text="\n".join(walker.lines),
        anchors_available=("json_path",),
        confidence=CONFIDENCE_PARTIAL if decoded.replaced else CONFIDENCE_HIGH,
        truncated=walker.truncated,
        kept=f"values 1-{kept:,} of {walker.values:,}" if kept < walker.values else "",
    )


def _too_deep(limits: Limits) -> str:
    return f"The JSON is nested more than {limits.json_depth} levels deep; deeper nesting is not accepted."


class _Walker:
    def __init__(self, limits: Limits, budget: CharBudget, deadline: Deadline):
        self.limits = limits
        self.budget = budget
        self.deadline = deadline
        self.lines: list[str] = []
        self.values = 0
        self.truncated = False

    def walk(self, root: Any) -> None:
        stack: list[tuple[str, Any]] = [("", root)]
        while stack:
            pointer, value = stack.pop()
            if isinstance(value, dict) and value:
                if len(value) > self.limits.tabular_columns:
                    raise refuse(
                        Reason.TOO_LARGE,
                        f"The object at {pointer or '/'} has {len(value):,} members; JSON objects "
                        f"are limited to {self.limits.tabular_columns} members (columns).",
                    )
                items = [(f"{pointer}/{pointer_token(str(k))}", v) for k, v in value.items()]
                stack.extend(reversed(items))
            elif isinstance(value, list) and value:
                stack.extend(reversed([(f"{pointer}/{i}", v) for i, v in enumerate(value)]))
            else:
                self._leaf(pointer, value)

    def _leaf(self, pointer: str, value: Any) -> None:
        if self.values >= self.limits.tabular_rows:
            raise refuse(
                Reason.TOO_LARGE,
                f"The JSON has more than {self.limits.tabular_rows:,} values; CSV, TSV and JSON "
                f"files are limited to {self.limits.tabular_rows:,} rows (JSON values).",
            )
        if self.values % 500 == 0:
            check_deadline(self.deadline, "JSON file")
        if isinstance(value, str):
            rendered = clean_inline(value)
            if len(rendered) > self.limits.cell_chars:
                rendered, self.truncated = clip(rendered, self.limits.cell_chars), True
        else:
            rendered = json.dumps(value)
        line = f"{pointer}\t{rendered}"
        self.values += 1
        # Past what the session has left, values are still counted (the file's own limits
        # apply to all of it) but no longer kept.
        if self.budget.take(len(line) + (1 if self.lines else 0)):
            self.lines.append(line)
