"""Dependencies run one way: core <- uploads, registry_review <- assistant <- learning; accounts
stands alone; no app imports the project package (aicd), the learning side, the bench or the tests.

Every import statement in every module of the apps is read (ast, so imports inside functions and
under TYPE_CHECKING count too) and a back-edge fails the test with the module and line.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bench.servers import REPO

APPS = ("aicd", "accounts", "assistant", "core", "registry_review", "uploads")
FEATURES = {"assistant", "registry_review", "uploads"}
#: What no app may import: the project package, the learning side, the bench and the tests.
OUTSIDE = {"aicd", "learning", "bench", "tests"}

#: package -> the packages it must never import
FORBIDDEN: dict[str, set[str]] = {
    "core": set(APPS) - {"core"} | OUTSIDE,
    "uploads": {"assistant", "registry_review"} | OUTSIDE,
    "registry_review": {"assistant", "uploads"} | OUTSIDE,
    "accounts": FEATURES | OUTSIDE,
    "assistant": OUTSIDE,
    "learning": {"aicd", "bench", "tests"},
    "aicd": {"learning", "bench", "tests"},
    "bench": {"tests"},
}


def _imports(path: Path, root: Path = REPO) -> list[tuple[int, str]]:
    """(line, top-level package) for every import in the module at ``path`` under ``root``."""
    module_parts = path.relative_to(root).with_suffix("").parts
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name.split(".")[0]) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: resolved against this module's package
                base = module_parts[: len(module_parts) - node.level]
                found.append((node.lineno, (base or (node.module or "",))[0]))
            elif node.module:
                found.append((node.lineno, node.module.split(".")[0]))
    return found


def test_no_module_imports_against_the_dependency_direction() -> None:
    back_edges = []
    checked = 0
    for package, forbidden in FORBIDDEN.items():
        for path in sorted((REPO / package).rglob("*.py")):
            checked += 1
            for line, imported in _imports(path):
                if imported in forbidden:
                    back_edges.append(f"{path.relative_to(REPO)}:{line} imports {imported}")
    assert checked > 200
    assert back_edges == []


def test_the_walker_sees_function_level_and_relative_imports(tmp_path: Path) -> None:
    module = tmp_path / "core" / "probe.py"
    module.parent.mkdir()
    module.write_text("def f():\n    from assistant import services\nfrom . import text\n")
    assert sorted(_imports(module, tmp_path)) == [(2, "assistant"), (3, "core")]
