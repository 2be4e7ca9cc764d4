"""Layers inside ``assistant/`` run one way, and serving never reaches the learning side.

Every import in every module of ``assistant/`` is read (ast; imports inside functions count; those
under ``if TYPE_CHECKING:`` do not, since they name a type for an annotation and never run) and
placed by the subpackage it names. A subpackage may
import its own modules and those of the layers below it in ``LAYERS``, never one above. The
top-level modules (``apps``, ``urls``) and the management commands sit above every layer.
"""

from __future__ import annotations

import ast
from pathlib import Path

from bench.servers import REPO

#: Top to bottom; one row may hold subpackages that never import each other.
LAYERS: tuple[tuple[str, ...], ...] = (
    ("web",),
    ("pipeline",),
    ("providers",),
    ("compose",),
    ("verify",),
    ("review",),
    ("retrieval",),
    ("screening", "current"),
    ("package",),
    ("models",),
    ("domain",),
)
RANK = {name: rank for rank, row in enumerate(LAYERS) for name in row}
TOP = {"apps", "urls", "management", "__init__"}


def _assistant_imports(path: Path) -> list[tuple[int, str]]:
    """(line, assistant subpackage) for every import of ``assistant.<sub>`` in ``path``."""
    found = []
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    type_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If)
        and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING")
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in type_only:
            continue
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module]
            if node.module == "assistant":
                names = [f"assistant.{alias.name}" for alias in node.names]
        for name in names:
            parts = name.split(".")
            if parts[0] == "assistant" and len(parts) > 1:
                found.append((node.lineno, parts[1]))
    return found


def _layer_of(path: Path) -> str:
    return path.relative_to(REPO / "assistant").parts[0].removesuffix(".py")


def test_every_assistant_module_is_in_a_layer_or_at_the_top() -> None:
    homeless = [
        str(p.relative_to(REPO))
        for p in (REPO / "assistant").rglob("*.py")
        if _layer_of(p) not in RANK and _layer_of(p) not in TOP
    ]
    assert homeless == []


def test_assistant_has_at_most_four_top_level_modules() -> None:
    modules = sorted(p.name for p in (REPO / "assistant").glob("*.py"))
    assert len(modules) <= 4, modules


def test_no_assistant_layer_imports_a_layer_above_it() -> None:
    back_edges = []
    checked = 0
    for path in sorted((REPO / "assistant").rglob("*.py")):
        layer = _layer_of(path)
        if layer in TOP:
            continue
        checked += 1
        for line, imported in _assistant_imports(path):
            if imported in RANK and RANK[imported] < RANK[layer]:
                back_edges.append(f"{path.relative_to(REPO)}:{line} imports assistant.{imported}")
            elif imported in RANK and RANK[imported] == RANK[layer] and imported != layer:
                back_edges.append(f"{path.relative_to(REPO)}:{line} imports its peer {imported}")
    assert checked > 60
    assert back_edges == []


def test_the_layer_walker_sees_function_level_imports(tmp_path: Path) -> None:
    module = tmp_path / "probe.py"
    module.write_text(
        "def f():\n    from assistant.web import views\nfrom assistant import domain\n"
        "if TYPE_CHECKING:\n    from assistant.pipeline import services\n"
    )
    assert sorted(_assistant_imports(module)) == [(2, "web"), (3, "domain")]
