"""The benchmark's results as rows of a table, printed and written to docs/performance.md."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Row:
    """One figure beside its baseline from the same run; ``target`` and ``met`` when one is set."""

    section: str
    measure: str
    app: str
    baseline: str = ""
    ratio: str = ""
    target: str = ""
    met: bool | None = None


@dataclass(frozen=True)
class Table:
    """A section of its own: a heading, what was run (self-contained), and its table."""

    title: str
    summary: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass
class Report:
    machine: dict[str, str]
    settings: dict[str, str]
    rows: list[Row] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def add(self, row: Row) -> None:
        self.rows.append(row)


def ms(value: float) -> str:
    return f"{value:,.2f} ms" if value < 100 else f"{value:,.0f} ms"


def mib(value: float) -> str:
    return f"{value / 1024 / 1024:,.1f} MiB"


def times(value: float) -> str:
    return f"{value:.2f}x"


def _verdict(row: Row) -> str:
    if row.met is None:
        return ""
    return "yes" if row.met else "**no**"


HEADERS = ("section", "measure", "app", "baseline (same run)", "ratio", "target", "met")


def _cells(row: Row) -> tuple[str, ...]:
    return (row.section, row.measure, row.app, row.baseline, row.ratio, row.target, _verdict(row))


def _fixed_width(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    lines = [headers, *rows]
    widths = [max(len(line[i].replace("**", "")) for line in lines) for i in range(len(headers))]
    out = []
    for n, line in enumerate(lines):
        out.append(
            "  ".join(c.replace("**", "").ljust(w) for c, w in zip(line, widths, strict=True))
        )
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    return out


def text_table(report: Report) -> str:
    """Fixed-width tables for the terminal: the rows, then each table of its own."""
    out = _fixed_width(HEADERS, [_cells(r) for r in report.rows]) if report.rows else []
    for table in report.tables:
        out += ["", table.title, *_fixed_width(table.headers, list(table.rows))]
    for reason in report.skipped:
        out.append(f"skipped: {reason}")
    return "\n".join(out).strip("\n")


def _markdown_rows(headers: tuple[str, ...], rows: list[tuple[str, ...]]) -> list[str]:
    lines = ["| " + " | ".join(headers) + " |", "|" + "---|" * len(headers)]
    lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in rows]
    return lines


def table_markdown(table: Table) -> str:
    """One table's section of docs/performance.md, from its heading to its last row."""
    parts = [f"## {table.title}", "", table.summary.strip(), ""]
    parts += _markdown_rows(table.headers, list(table.rows))
    return "\n".join(parts) + "\n"


def replace_section(doc: str, table: Table, *, before: str) -> str:
    """``doc`` with ``table``'s section replaced, or inserted before the ``before`` heading.

    A run of one part of the benchmark rewrites only that part's section of an existing doc.
    """
    section = table_markdown(table)
    start = doc.find(f"\n## {table.title}\n")
    if start >= 0:
        end = doc.find("\n## ", start + 1)
        end = len(doc) if end < 0 else end
        return doc[: start + 1] + section + doc[end:]
    anchor = doc.find(f"\n## {before}\n")
    if anchor < 0:
        raise ValueError(f"no '## {before}' heading to put '{table.title}' before")
    return doc[: anchor + 1] + section + "\n" + doc[anchor + 1 :]


def markdown(report: Report, *, intro: str, method: str) -> str:
    """docs/performance.md: the figures, the machine, and how each figure is measured."""
    parts = [intro.strip(), "", "## Machine", ""]
    parts += [f"- {k}: {v}" for k, v in report.machine.items()]
    parts += ["", "## Run settings", ""]
    parts += [f"- {k}: {v}" for k, v in report.settings.items()]
    parts += ["", "## Results", ""]
    parts += _markdown_rows(HEADERS, [_cells(r) for r in report.rows])
    if report.skipped:
        parts += ["", "Skipped in this run:", ""] + [f"- {reason}" for reason in report.skipped]
    if report.notes:
        parts += ["", "## Notes on this run", ""] + [f"- {note}" for note in report.notes]
    # Tables of their own come last, just before the method, where a partial run puts them.
    for table in report.tables:
        parts += ["", table_markdown(table).rstrip("\n")]
    parts += ["", method.strip(), ""]
    return "\n".join(parts)
