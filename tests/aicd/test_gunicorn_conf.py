"""gunicorn.conf.py: workers, bind and timeouts from the environment; no multi-worker locmem."""

from __future__ import annotations

import runpy

import pytest
from django.core.exceptions import ImproperlyConfigured

from bench.servers import REPO

CONF = str(REPO / "gunicorn.conf.py")
VARS = (
    "AICD_BIND",
    "AICD_WORKERS",
    "AICD_THREADS",
    "AICD_WORKER_TIMEOUT_S",
    "AICD_REDIS_URL",
    "AICD_ACCESS_LOG",
    "AICD_MAX_REQUESTS",
    "AICD_GRACEFUL_TIMEOUT_S",
    "AICD_PROVIDER",
)


@pytest.fixture
def env(monkeypatch):
    for name in VARS:
        monkeypatch.delenv(name, raising=False)
    return monkeypatch


def test_defaults_are_one_loopback_port_and_two_sync_workers(env):
    env.setenv("AICD_REDIS_URL", "redis://127.0.0.1:6379/0")
    conf = runpy.run_path(CONF)
    assert conf["bind"] == ["127.0.0.1:8000"]
    assert conf["workers"] == 2
    assert conf["worker_class"] == "sync"
    assert conf["timeout"] == 60
    assert conf["accesslog"] is None
    assert conf["wsgi_app"] == "aicd.wsgi:application"


def test_environment_overrides(env):
    env.setenv("AICD_REDIS_URL", "redis://127.0.0.1:6379/0")
    env.setenv("AICD_BIND", "0.0.0.0:9000")
    env.setenv("AICD_WORKERS", "5")
    env.setenv("AICD_THREADS", "4")
    env.setenv("AICD_WORKER_TIMEOUT_S", "90")
    env.setenv("AICD_MAX_REQUESTS", "1000")
    conf = runpy.run_path(CONF)
    assert (conf["bind"], conf["workers"], conf["threads"]) == (["0.0.0.0:9000"], 5, 4)
    assert conf["worker_class"] == "gthread"
    assert (conf["timeout"], conf["max_requests"], conf["max_requests_jitter"]) == (90, 1000, 100)


def test_an_llm_gateway_gets_eight_threads_a_worker_unless_told_otherwise(env):
    env.setenv("AICD_WORKERS", "1")
    env.setenv("AICD_PROVIDER", "openai_compatible")
    conf = runpy.run_path(CONF)
    assert (conf["threads"], conf["worker_class"]) == (8, "gthread")
    env.setenv("AICD_THREADS", "2")
    assert runpy.run_path(CONF)["threads"] == 2
    env.setenv("AICD_PROVIDER", "deterministic")
    env.delenv("AICD_THREADS")
    assert (runpy.run_path(CONF)["threads"], runpy.run_path(CONF)["worker_class"]) == (1, "sync")


def test_a_threaded_worker_accepts_only_the_requests_it_can_start(env):
    # More would queue inside one worker while another has idle threads (docs/operations.md).
    env.setenv("AICD_WORKERS", "1")
    env.setenv("AICD_THREADS", "8")
    conf = runpy.run_path(CONF)
    assert (conf["worker_connections"], conf["keepalive"]) == (8, 0)


def test_several_workers_without_redis_refuse_to_start(env):
    with pytest.raises(SystemExit, match="AICD_WORKERS=2 needs AICD_REDIS_URL"):
        runpy.run_path(CONF)


def test_one_worker_needs_no_redis(env):
    env.setenv("AICD_WORKERS", "1")
    assert runpy.run_path(CONF)["workers"] == 1


def test_bad_values_fail_loudly(env):
    env.setenv("AICD_WORKERS", "many")
    with pytest.raises(ImproperlyConfigured, match="AICD_WORKERS must be an integer"):
        runpy.run_path(CONF)


def test_access_log_never_records_query_strings_headers_or_bodies(env):
    env.setenv("AICD_WORKERS", "1")
    env.setenv("AICD_ACCESS_LOG", "1")
    conf = runpy.run_path(CONF)
    assert conf["accesslog"] == "-"
    fmt = conf["access_log_format"]
    assert "%(U)s" in fmt
    for atom in ("%(r)s", "%(q)s", "}i", "}o", "}e", "%(a)s", "%(f)s", "%(u)s"):
        assert atom not in fmt
