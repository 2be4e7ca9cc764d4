"""Built files are replaced whole, and no temporary folder is left behind."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from core.files import save_arrays_and_meta


def test_arrays_and_meta_replace_the_old_ones_and_leave_nothing_else(tmp_path: Path) -> None:
    for version in (1, 2):
        save_arrays_and_meta(
            tmp_path / "built",
            arrays_file="w.npz",
            arrays={"coef": np.full(3, version, dtype=np.float32)},
            meta_file="m.json",
            meta={"version": version},
        )
    built = tmp_path / "built"
    assert sorted(p.name for p in built.iterdir()) == ["m.json", "w.npz"]
    assert json.loads((built / "m.json").read_text(encoding="utf-8")) == {"version": 2}
    with np.load(built / "w.npz") as arrays:
        assert arrays["coef"].tolist() == [2.0, 2.0, 2.0]
