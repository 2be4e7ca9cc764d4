"""The context pack: package rows plus their search index, built once and loaded at run time."""

from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import threading
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from django.conf import settings

from assistant.domain.types import PackageRow
from assistant.models.store import ModelNotReady
from assistant.package import checklist_criteria
from assistant.package.artifacts import Package, package_inputs, package_version
from assistant.package.criteria import ReviewCriteria
from assistant.package.declared_version import VersionLabel, label
from assistant.package.expansion import Expansion
from assistant.retrieval.index import Index

logger = logging.getLogger(__name__)

# 2: rows carry their section kind and keep list and table structure in their text.
PACK_FORMAT = 2


@dataclass(frozen=True)
class ContextPack:
    """Rows, index and the package version they were built from."""

    package_version: str
    package_dir: str
    rows: tuple[PackageRow, ...]
    index: Index
    artifacts: tuple[dict[str, Any], ...]
    review: ReviewCriteria = ReviewCriteria()
    declared_version: str = (
        ""  # the version the package declares (assistant/package/declared_version.py)
    )

    @property
    def version_label(self) -> VersionLabel:
        return label(declared_version=self.declared_version, content_hash=self.package_version)

    def row(self, row_id: str) -> PackageRow | None:
        return self._rows_by_id.get(row_id)

    @cached_property
    def _rows_by_id(self) -> dict[str, PackageRow]:
        return {row.row_id: row for row in self.rows}

    @cached_property
    def text(self) -> str:
        """Every row's title, heading and text, lower-cased: what the package mentions."""
        return " ".join(f"{r.title} {r.heading} {r.text}" for r in self.rows).lower()


def build(package: Package) -> ContextPack:
    """Turn a parsed package into rows and a BM25 index (in memory)."""
    rows = tuple(package.rows())
    expansion = Expansion.from_glossary(package.glossary_synonyms())
    artifacts = tuple(
        {
            "source_path": a.source_path,
            "title": a.title,
            "topic": a.topic,
            "topic_number": a.topic_number,
            "source_family": a.source_family,
            "source_quality": a.source_quality,
            "claim_boundary": a.claim_boundary,
            "summary": a.summary,
            "sections": [{"heading": s.heading, "anchor": s.anchor} for s in a.sections],
        }
        for a in package.artifacts
    )
    return ContextPack(
        package_version=package.version,
        package_dir=str(package.root),
        rows=rows,
        index=Index.build(rows, expansion),
        artifacts=artifacts,
        review=checklist_criteria.collect(package.artifacts)[0],
        declared_version=package.declared_version,
    )


def write(pack: ContextPack, directory: Path) -> None:
    """Write the pack atomically: a temporary directory renamed into place."""
    directory.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".pack-", dir=directory.parent))
    try:
        (tmp / "rows.json").write_text(
            json.dumps([r.to_dict() for r in pack.rows], ensure_ascii=False)
        )
        (tmp / "manifest.json").write_text(
            json.dumps(
                {
                    "format": PACK_FORMAT,
                    "package_version": pack.package_version,
                    "package_declared_version": pack.declared_version,
                    "package_dir": pack.package_dir,
                    "row_count": len(pack.rows),
                    "artifacts": list(pack.artifacts),
                    "review_criteria": pack.review.to_json(),
                },
                ensure_ascii=False,
                indent=1,
            )
        )
        pack.index.save(tmp / "index")
        old = directory.with_name(directory.name + ".old")
        if directory.exists():
            os.replace(directory, old)
        os.replace(tmp, directory)
        shutil.rmtree(old, ignore_errors=True)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def read(directory: Path) -> ContextPack:
    """Load a written pack; raises FileNotFoundError or ValueError if it is missing or unusable."""
    manifest = json.loads((directory / "manifest.json").read_text())
    if manifest.get("format") != PACK_FORMAT:
        raise ValueError("context pack was written by another format version")
    rows = tuple(PackageRow(**r) for r in json.loads((directory / "rows.json").read_text()))
    if len(rows) != manifest.get("row_count"):
        raise ValueError("context pack rows do not match its manifest")
    return ContextPack(
        package_version=manifest["package_version"],
        package_dir=manifest["package_dir"],
        rows=rows,
        index=Index.load(directory / "index", rows),
        artifacts=tuple(manifest["artifacts"]),
        review=ReviewCriteria.from_json(manifest.get("review_criteria", {})),
        declared_version=manifest.get("package_declared_version", ""),
    )


_lock = threading.Lock()
_cached: ContextPack | None = None
_cached_stat: tuple[tuple[str, int, int], ...] | None = None


def _stat_fingerprint(package_dir: Path) -> tuple[tuple[str, int, int], ...]:
    """Cheap change detector: each input's path, size and modification time."""
    if not package_dir.is_dir():
        return ()
    out = []
    for path in package_inputs(package_dir):
        st = path.stat()
        out.append((path.as_posix(), st.st_size, st.st_mtime_ns))
    return tuple(out)


def get_context_pack() -> ContextPack:
    """The built pack of the configured package, loaded once per process.

    The worker never builds it: a missing pack, or one built from another version of the
    package, raises ``ModelNotReady`` naming ``manage.py build_context_pack`` (``/api/ready``
    answers 503, a chat ends as a diagnostic). With DEBUG on, artifact edits are noticed (by
    size and mtime) and the built pack is checked again, so a package author who rebuilds sees
    the change without restarting.
    """
    global _cached, _cached_stat
    package_dir = Path(settings.AICD_PACKAGE_DIR)
    if _cached is not None and not settings.DEBUG:
        return _cached
    stat = _stat_fingerprint(package_dir)
    if _cached is not None and stat == _cached_stat:
        return _cached
    with _lock:
        if _cached is not None and stat == _cached_stat:
            return _cached
        version = package_version(package_dir) if package_dir.is_dir() else ""
        directory = Path(settings.AICD_CONTEXT_PACK_DIR)
        try:
            pack = read(directory)
        except (FileNotFoundError, ValueError, KeyError, TypeError, json.JSONDecodeError):
            raise ModelNotReady("context_pack", f"is not built in {directory}") from None
        if pack.package_version != version:
            raise ModelNotReady(
                "context_pack",
                f"in {directory} was built from package {pack.package_version}, not {version}",
            )
        _cached, _cached_stat = pack, stat
        return pack


def swap(pack: ContextPack | None) -> ContextPack | None:
    """Serve ``pack`` in this process from now on and return the pack it replaces (the learning
    side's evaluation serves each package's pack in turn; ``None`` forgets it)."""
    global _cached, _cached_stat
    with _lock:
        previous = _cached
        _cached = pack
        _cached_stat = _stat_fingerprint(Path(pack.package_dir)) if pack is not None else None
        return previous


def reset_cache() -> None:
    """Forget the loaded pack (tests and package reloads)."""
    global _cached, _cached_stat
    with _lock:
        _cached = None
        _cached_stat = None
