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
# Threads help only when workers wait on the network (an OpenAI-compatible provider, the
# current-context fetch); the deterministic provider is CPU-bound and needs none.
threads = env.get_int("AICD_THREADS", 1, minimum=1)
worker_class = "gthread" if threads > 1 else "sync"
# A worker silent for this long is killed and replaced: keep it above AICD_PROVIDER_TIMEOUT_S.
timeout = env.get_int("AICD_WORKER_TIMEOUT_S", 60, minimum=5)
graceful_timeout = env.get_int("AICD_GRACEFUL_TIMEOUT_S", 30, minimum=1)
keepalive = env.get_int("AICD_KEEPALIVE_S", 2, minimum=0)
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
