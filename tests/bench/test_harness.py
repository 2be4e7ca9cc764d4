"""The bench harness's pieces that need no server: wrk's output read, its Lua script, run_json."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench import harness, http_api

WRK_OUTPUT = """Running 8s test @ http://127.0.0.1:8000/api/source-grounded-chat
  2 threads and 4 connections
  Latency Distribution
     50%   33.01ms
     75%   40.00ms
     90%   48.00ms
     99%   52.51ms
  936 requests in 8.00s, 3.10MB read
Requests/sec:    117.00
Transfer/sec:    396.00KB
p95_us 50120
"""


def test_wrk_output_gives_the_95th_percentile_the_script_prints() -> None:
    result = harness.parse_wrk(WRK_OUTPUT)
    assert (result.p50_ms, result.p95_ms, result.p99_ms) == (33.01, 50.12, 52.51)
    assert result.requests == 936 and result.errors == 0
    assert harness.parse_wrk(WRK_OUTPUT.replace("p95_us 50120\n", "")).p95_ms is None


def test_the_lua_script_prints_the_95th_percentile_when_done(tmp_path: Path) -> None:
    script = harness.lua_script(tmp_path, "chat", tokens=("a", "b"), method="POST", bodies=["{}"])
    text = script.read_text()
    assert "done = function(summary, latency, requests)" in text
    assert 'io.write(string.format("p95_us %d\\n", latency:percentile(95)))' in text


def test_run_json_reads_the_last_line_and_names_a_failure(tmp_path: Path) -> None:
    (tmp_path / "probe_bench.py").write_text(
        "import json, os, sys\n"
        "print('warming up')\n"
        "print(json.dumps({'rounds': float(sys.argv[1]), 'settings': os.environ['DJANGO_SETTINGS_MODULE'],"
        " 'extra': os.environ['PROBE']}))\n"
    )
    path = f"{tmp_path}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"
    result = harness.run_json("probe_bench", "3", PYTHONPATH=path, PROBE="yes")
    assert result == {"rounds": 3.0, "settings": "aicd.settings", "extra": "yes"}
    with pytest.raises(RuntimeError, match="python -m bench.no_such_module failed"):
        harness.run_json("bench.no_such_module")


def test_the_scaled_server_uses_another_redis_database() -> None:
    assert http_api._other_database("redis://127.0.0.1:6390/0") == "redis://127.0.0.1:6390/1"
