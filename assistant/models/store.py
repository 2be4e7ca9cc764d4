"""The one place learnt models are read from: ``AICD_MODEL_DIR`` and its ``MANIFEST.json``.

The worker loads models; it never trains them. Each model is built by a command of the learning
side (``learning/management/commands/``), which writes its files here and records in the
manifest what made it (the data's fingerprint, the schema the serving code reads). A missing
model, or one recorded for another schema than the code computes, raises ``ModelNotReady``
naming the command to run: ``/api/ready`` then answers 503 and a chat ends as a diagnostic.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.conf import settings

from core.errors import NotReady

MANIFEST = "MANIFEST.json"

#: The command that builds each model (``manage.py <command>``).
BUILT_BY = {
    "context_pack": "build_context_pack",
    "screening": "build_screening_model",
    "ranker": "build_ranker",
    "question_memory": "build_ranker",
    "unit_ranker": "build_unit_ranker",
    "evidence_model": "build_evidence_model",
}


class ModelNotReady(NotReady):
    """A model the worker needs is missing or was built for other code; names the command."""

    def __init__(self, name: str, reason: str) -> None:
        self.name = name
        self.command = f"manage.py {BUILT_BY.get(name, 'build_' + name)}"
        super().__init__(f"{name} {reason}; run '{self.command}'")


def directory() -> Path:
    return Path(settings.AICD_MODEL_DIR)


def manifest(root: Path | None = None) -> dict[str, dict[str, Any]]:
    path = (root or directory()) / MANIFEST
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return raw.get("models", {}) if isinstance(raw, dict) else {}


def path(name: str, file: str, *, schema: str) -> Path:
    """The path of one of ``name``'s files, after checking it exists and fits ``schema``."""
    entry = manifest().get(name)
    if entry is None:
        raise ModelNotReady(name, f"is not built in {directory()}")
    if entry.get("schema") != schema:
        raise ModelNotReady(name, "was built for other features than this code computes")
    found = directory() / file
    if not found.exists():
        raise ModelNotReady(name, f"file {file} is missing")
    return found


def record(
    name: str, files: list[str], *, schema: str, data: str, root: Path | None = None
) -> None:
    """Write ``name``'s manifest entry (the learning side calls this after writing its files)."""
    root = root or directory()
    root.mkdir(parents=True, exist_ok=True)
    path_ = root / MANIFEST
    try:
        raw = json.loads(path_.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        raw = {}
    models = raw.setdefault("models", {})
    models[name] = {
        "files": sorted(files),
        "schema": schema,
        "data": data,
        "built_by": f"manage.py {BUILT_BY.get(name, 'build_' + name)}",
    }
    raw["about"] = (
        "Learnt models the worker loads and never trains. Each entry: its files, the schema the "
        "serving code reads, the fingerprint of the data that made it and the command that builds it."
    )
    raw["models"] = dict(sorted(models.items()))
    path_.write_text(json.dumps(raw, indent=1) + "\n", encoding="utf-8")
