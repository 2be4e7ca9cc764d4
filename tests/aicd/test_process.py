"""The server entry points (WSGI, ASGI) tune the garbage collector."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from aicd.process import GC_THRESHOLDS
from bench.servers import REPO


@pytest.mark.parametrize("entry", ["aicd.wsgi", "aicd.asgi"])
def test_server_entry_points_collect_young_objects_less_often(entry):
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("AICD_", "DJANGO_"))}
    env = {**clean, "AICD_ENVIRONMENT": "test", "DJANGO_SECRET_KEY": "x" * 50}
    code = (
        f"import gc, json; before = gc.get_threshold(); import {entry}; "
        "print(json.dumps([before, gc.get_threshold()]))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], cwd=REPO, env=env, capture_output=True, text=True, check=True
    )
    before, after = json.loads(proc.stdout.strip().splitlines()[-1])
    assert tuple(after) == GC_THRESHOLDS
    assert tuple(before) != GC_THRESHOLDS  # Python's default until the entry point runs
    assert GC_THRESHOLDS[0] > before[0]
