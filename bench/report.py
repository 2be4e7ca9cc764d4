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


@dataclass
class Report:
    machine: dict[str, str]
    settings: dict[str, str]
    rows: list[Row] = field(default_factory=list)
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


def text_table(report: Report) -> str:
    """A fixed-width table for the terminal."""
    lines = [HEADERS] + [_cells(r) for r in report.rows]
    widths = [max(len(line[i].replace("**", "")) for line in lines) for i in range(len(HEADERS))]
    out = []
    for n, line in enumerate(lines):
        out.append(
            "  ".join(c.replace("**", "").ljust(w) for c, w in zip(line, widths, strict=True))
        )
        if n == 0:
            out.append("  ".join("-" * w for w in widths))
    for reason in report.skipped:
        out.append(f"skipped: {reason}")
    return "\n".join(out)


def markdown(report: Report, *, intro: str, method: str) -> str:
    """docs/performance.md: the figures, the machine, and how each figure is measured."""
    parts = [intro.strip(), "", "## Machine", ""]
    parts += [f"- {k}: {v}" for k, v in report.machine.items()]
    parts += ["", "## Run settings", ""]
    parts += [f"- {k}: {v}" for k, v in report.settings.items()]
    parts += ["", "## Results", "", "| " + " | ".join(HEADERS) + " |", "|" + "---|" * len(HEADERS)]
    parts += [
        "| " + " | ".join(c.replace("|", "\\|") for c in _cells(r)) + " |" for r in report.rows
    ]
    if report.skipped:
        parts += ["", "Skipped in this run:", ""] + [f"- {reason}" for reason in report.skipped]
    if report.notes:
        parts += ["", "## Notes on this run", ""] + [f"- {note}" for note in report.notes]
    parts += ["", method.strip(), ""]
    return "\n".join(parts)
