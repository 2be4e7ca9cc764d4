"""Replacing built files so that a reader sees the old version or the new one, never half of one."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np


def save_arrays_and_meta(
    directory: Path,
    *,
    arrays_file: str,
    arrays: dict[str, np.ndarray],
    meta_file: str,
    meta: dict[str, Any],
    indent: int | None = None,
) -> None:
    """Write ``arrays`` (compressed ``.npz``) and ``meta`` (JSON) into ``directory``.

    Both are written into a temporary folder beside their final place and then moved in with
    ``os.replace``, which is atomic on one file system.
    """
    directory.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=".writing-", dir=directory))
    try:
        np.savez_compressed(tmp / arrays_file, **arrays)  # type: ignore[arg-type]
        (tmp / meta_file).write_text(
            json.dumps(meta, indent=indent, sort_keys=True), encoding="utf-8"
        )
        for name in (arrays_file, meta_file):
            os.replace(tmp / name, directory / name)
    finally:
        for leftover in tmp.iterdir():
            leftover.unlink()
        tmp.rmdir()
