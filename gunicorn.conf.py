"""gunicorn settings for the AICD assistant, read from AICD_* environment variables.

Run as ``gunicorn -c gunicorn.conf.py aicd.wsgi`` (``make serve`` does). Every worker is a
separate process: with more than one, set AICD_REDIS_URL so sessions, session sources and
throttles are shared (the local-memory cache is per process).
"""

from __future__ import annotations

from aicd import env

wsgi_app = "aicd.wsgi:application"
bind = [env.get_str("AICD_BIND", "127.0.0.1:8000") or "127.0.0.1:8000"]
workers = env.get_int("AICD_WORKERS", 2, minimum=1)
# Threads help only when workers wait on the network: the deterministic provider is CPU-bound
# and needs none; with an LLM gateway each answer holds its thread for the gateway's latency.
# 8 threads a worker kept 91-94% of the ideal throughput on a 2 s gateway, 16 fell below 90%
# (sizing rule and figures: docs/operations.md, "Sizing for an LLM gateway").
DEFAULT_THREADS = 8 if env.get_str("AICD_PROVIDER") == "openai_compatible" else 1
threads = env.get_int("AICD_THREADS", DEFAULT_THREADS, minimum=1)
worker_class = "gthread" if threads > 1 else "sync"
# A gthread worker accepts connections up to worker_connections whatever its free threads and
# queues the surplus itself: with gunicorn's 1000, a busy worker kept requests waiting while the
# other had idle threads (make bench, 2 x 4 threads on a 2 s gateway, one reviewer a thread:
# 54% of the ideal throughput, p95 4.9 s). Capped at its threads, a worker accepts only what it
# can start, and the rest wait in the shared listen backlog for whichever thread frees first.
worker_connections = threads
# So no connection is kept alive after its response (it would hold a thread's place); the sync
# worker never keeps one either. A reverse proxy opens one per request by default.
keepalive = 0
# A worker silent for this long is killed and replaced: keep it above AICD_PROVIDER_TIMEOUT_S.
timeout = env.get_int("AICD_WORKER_TIMEOUT_S", 60, minimum=5)
graceful_timeout = env.get_int("AICD_GRACEFUL_TIMEOUT_S", 30, minimum=1)
# Recycle workers now and then so that a slow leak cannot grow without bound (0 = never).
max_requests = env.get_int("AICD_MAX_REQUESTS", 0, minimum=0)
max_requests_jitter = max_requests // 10
preload_app = False

if workers > 1 and not env.get_str("AICD_REDIS_URL"):
    # Each worker would hold its own sessions: a login made on one worker is unknown to the next.
    raise SystemExit(
        f"gunicorn: AICD_WORKERS={workers} needs AICD_REDIS_URL (shared sessions, session sources "
        "and throttles); set it, or run one worker with AICD_WORKERS=1."
    )

# Log hygiene: errors to stderr; the access log is off unless asked for, and when on it records
# the path without the query string, never headers, cookies or bodies.
errorlog = "-"
loglevel = env.get_str("AICD_GUNICORN_LOG_LEVEL", "info") or "info"
accesslog = "-" if env.get_bool("AICD_ACCESS_LOG", False) else None
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(B)s %(M)sms'
proc_name = "aicd"
