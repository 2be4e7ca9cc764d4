"""The labelled data tree (``data/``): every set the learning side reads, named in its manifest.

``data/MANIFEST.json`` lists each set once, with its kind (``screening``, ``answers``,
``reviews``, ``grounding``, ``attacks``), its role (``training``, ``heldout``, ``lopo``, ``early``, ``final``), its
author and its package. Adding a set is adding a manifest entry; no code names a set.
Serving never imports this module.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings


@dataclass(frozen=True)
class CorpusSet:
    """One labelled set: a JSONL file or a folder of drafts."""

    path: Path
    kind: str
    role: str
    author: str
    package: str
    stage: str = ""

    @property
    def name(self) -> str:
        return self.path.name


def data_dir() -> Path:
    return Path(settings.BASE_DIR) / "data"


@lru_cache(maxsize=4)
def _manifest(directory: Path) -> tuple[CorpusSet, ...]:
    raw = json.loads((directory / "MANIFEST.json").read_text(encoding="utf-8"))
    root = directory.parent
    return tuple(
        CorpusSet(
            path=root / entry["path"],
            kind=str(entry["kind"]),
            role=str(entry["role"]),
            author=str(entry["author"]),
            package=str(entry.get("package", "sample")),
            stage=str(entry.get("stage", "")),
        )
        for entry in raw["sets"]
    )


def sets(kind: str, role: str | None = None, package: str | None = None) -> tuple[CorpusSet, ...]:
    """The manifest's sets of ``kind`` (and ``role``, ``package``), in manifest order."""
    return tuple(
        s
        for s in _manifest(data_dir())
        if s.kind == kind
        and (role is None or s.role == role)
        and (package is None or s.package == package)
    )


def paths(kind: str, role: str | None = None) -> list[Path]:
    return [s.path for s in sets(kind, role)]


def package_dir(slug: str) -> Path:
    """Where a package lives: the shipped sample, or a converted one under ``data/packages/``."""
    if slug == "sample":
        return Path(settings.BASE_DIR) / "sample_package"
    return data_dir() / "packages" / slug


def fingerprint(files: list[Path]) -> str:
    """A hash of the named files (folders: every file inside), for a model's manifest entry."""
    digest = hashlib.sha256()
    for path in sorted(files):
        members = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for member in members:
            digest.update(member.name.encode())
            digest.update(member.read_bytes())
    return digest.hexdigest()[:16]
