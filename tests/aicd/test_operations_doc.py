"""docs/operations.md against the code: every variable the settings read is documented, and every
documented one is read (by the settings, gunicorn.conf.py, or the test tooling it is listed for)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
DOC = REPO / "docs" / "operations.md"
NAME = re.compile(r"`((?:AICD|DJANGO)_[A-Z0-9_]+|DATABASE_URL)`")
TEST_TOOLING = ["tests/**/*.py", "scripts/*", "Makefile", ".ci/*"]


def _env_reads(path: Path) -> set[str]:
    """Names passed as the first argument to ``env.get_*(...)`` (the typed reader, aicd/env.py)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and isinstance(node.func.value, ast.Name)
            and node.func.value.id == "env"
            and node.func.attr.startswith("get_")
            and node.args
            and isinstance(node.args[0], ast.Constant)
            and isinstance(node.args[0].value, str)
        ):
            names.add(node.args[0].value)
    return names


def _documented() -> dict[str, set[str]]:
    """Variable names in the first column of each table, by the paragraph that introduces it."""
    by_table: dict[str, set[str]] = {}
    table, previous = "untitled", ""
    for line in DOC.read_text(encoding="utf-8").splitlines():
        starts_paragraph = not previous.strip() or previous.startswith("|")
        previous = line
        if not line.startswith("|"):
            if line.strip() and starts_paragraph:
                table = line.strip()
            continue
        first_cell = line.split("|")[1]
        by_table.setdefault(table, set()).update(NAME.findall(first_cell))
    return by_table


def _mentioned_in_test_tooling() -> set[str]:
    here = Path(__file__).resolve()
    found: set[str] = set()
    for pattern in TEST_TOOLING:
        for path in REPO.glob(pattern):
            if path.is_file() and path.resolve() != here:
                found |= set(re.findall(r"AICD_[A-Z0-9_]+", path.read_text(errors="replace")))
    return found


SETTINGS_READS = _env_reads(REPO / "aicd" / "settings.py")
GUNICORN_READS = _env_reads(REPO / "gunicorn.conf.py")


def test_the_readers_are_found() -> None:
    assert {"AICD_ENVIRONMENT", "AICD_REDIS_URL", "DATABASE_URL"} <= SETTINGS_READS
    assert {"AICD_BIND", "AICD_WORKERS", "AICD_THREADS"} <= GUNICORN_READS
    assert len(_documented()) >= 3


def test_every_variable_the_settings_read_is_documented() -> None:
    documented = set().union(*_documented().values())
    missing = sorted((SETTINGS_READS | GUNICORN_READS) - documented)
    assert missing == [], f"read by the code but not in docs/operations.md: {missing}"


def test_no_documented_variable_is_unread() -> None:
    tables = _documented()
    test_only = next(v for k, v in tables.items() if k.startswith("For tests only"))
    app = set().union(*(v for k, v in tables.items() if not k.startswith("For tests only")))
    unread = sorted(app - SETTINGS_READS - GUNICORN_READS)
    assert unread == [], f"documented but read by neither settings nor gunicorn.conf.py: {unread}"
    tooling = _mentioned_in_test_tooling() | SETTINGS_READS
    assert sorted(test_only - tooling) == [], "documented for tests but used by no test tooling"
