"""The Markdown table one author set's quality figures are shown in (the quality part of `make eval`)."""

from __future__ import annotations

from collections.abc import Iterable


def figures_table(name: str, role: str, counted: str, rows: Iterable[tuple[str, str, str]]) -> str:
    """A ``###`` heading for the set, then one row per (measure, value shown, held-out bar)."""
    lines = [
        f"### `{name}` ({role}, {counted})",
        "",
        "| measure | value | bar (held-out) |",
        "|---|---|---|",
    ]
    lines += [f"| {measure} | {value} | {bar} |" for measure, value, bar in rows]
    return "\n".join(lines) + "\n"
