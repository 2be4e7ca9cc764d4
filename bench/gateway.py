"""The slow-gateway run: the app under gunicorn against a loopback LLM gateway with a fixed delay.

A tiny OpenAI-compatible Chat Completions server on 127.0.0.1 (``bench/loopback_gateway.py``) answers every request after
``delay_s`` seconds with a grounded package-only answer written from the sources it was sent
(so the app's answer check accepts it). The app runs with the shipped ``gunicorn.conf.py`` and
``AICD_PROVIDER=openai_compatible``; clients post chat questions with token authentication at 1x,
2x and 4x the concurrent slots (workers x threads). Throughput is compared with the ideal, slots
/ delay: what a server that never serialises on the gateway would reach.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from itertools import count

import httpx

from bench.harness import App, app_server, server_cpu_seconds
from bench.http_api import CHAT, QUESTIONS
from bench.loopback_gateway import MODEL, slow_gateway
from bench.report import Table

# What a client (a reverse proxy, a load balancer) waits for an answer before giving up; the
# documented proxy timeout in docs/operations.md. A request still waiting then is an error.
CLIENT_TIMEOUT_S = 60.0


# ---------------------------------------------------------------------------- the figures


def ideal_rps(slots: int, delay_s: float) -> float:
    """Requests a second when every slot waits on the gateway all the time and nothing else."""
    return slots / delay_s


def percentile(values: list[float], q: float) -> float:
    """The nearest-rank percentile ``q`` (0 to 100) of ``values``."""
    if not values:
        raise ValueError("no values")
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


@dataclass(frozen=True)
class Level:
    """One concurrency level against one server configuration: what the clients saw."""

    workers: int
    threads: int
    factor: int
    delay_s: float
    clients: int
    seconds: float
    latencies_s: tuple[float, ...]
    errors: int
    # CPU time (user + system) the gunicorn master and workers used during the level.
    server_cpu_s: float

    @property
    def slots(self) -> int:
        return self.workers * self.threads

    @property
    def answered(self) -> int:
        return len(self.latencies_s)

    @property
    def rps(self) -> float:
        return self.answered / self.seconds

    @property
    def ideal_rps(self) -> float:
        return ideal_rps(self.slots, self.delay_s)

    @property
    def ratio(self) -> float:
        return self.rps / self.ideal_rps

    @property
    def p50_s(self) -> float:
        return percentile(list(self.latencies_s), 50)

    @property
    def p95_s(self) -> float:
        return percentile(list(self.latencies_s), 95)

    @property
    def cpu_ms_per_answer(self) -> float:
        return self.server_cpu_s * 1000 / max(self.answered, 1)

    @property
    def target(self) -> str:
        if self.factor == 1:
            return ">= 90% of ideal, 0 errors"
        if self.factor == 4:
            return "0 errors"
        return ""

    @property
    def met(self) -> bool | None:
        if self.factor == 1:
            return self.ratio >= 0.9 and self.errors == 0
        if self.factor == 4:
            return self.errors == 0
        return None


HEADERS = (
    "workers x threads",
    "clients",
    "load",
    "answers/s",
    "ideal (slots / delay)",
    "of ideal",
    "p50",
    "p95",
    "server CPU / answer",
    "errors",
    "target",
    "met",
)


def cells(level: Level) -> tuple[str, ...]:
    verdict = "" if level.met is None else ("yes" if level.met else "**no**")
    return (
        f"{level.workers} x {level.threads}",
        str(level.clients),
        f"{level.factor}x slots",
        f"{level.rps:.2f}",
        f"{level.ideal_rps:.2f}",
        f"{level.ratio:.0%}",
        f"{level.p50_s:.2f} s" if level.answered else "none answered",
        f"{level.p95_s:.2f} s" if level.answered else "none answered",
        f"{level.cpu_ms_per_answer:.0f} ms",
        f"{level.errors} of {level.answered + level.errors}",
        level.target,
        verdict,
    )


# ---------------------------------------------------------------------------------- the load


def drive(
    app: App, *, clients: int, rounds: int, tokens: Iterator[str]
) -> tuple[float, list[float], int]:
    """``clients`` concurrent reviewers each ask ``rounds`` questions back to back.

    Each request opens a new connection (as a reverse proxy does by default) under its own
    user's token. Returns the wall time, the latencies of answered requests and the errors
    (non-200, a state other than answered, a socket error or the client timeout).
    """
    lock = threading.Lock()
    latencies: list[float] = []
    errors = 0

    def reviewer(first: int) -> None:
        nonlocal errors
        limits = httpx.Limits(max_keepalive_connections=0)
        with httpx.Client(
            base_url=app.base_url, timeout=CLIENT_TIMEOUT_S, limits=limits, trust_env=False
        ) as client:
            for n in range(rounds):
                with lock:
                    token = next(tokens)
                question = QUESTIONS[(first + n) % len(QUESTIONS)]
                started = time.perf_counter()
                try:
                    response = client.post(
                        CHAT,
                        json={"mode": "package_only", "question": question},
                        headers={"Authorization": f"Token {token}"},
                    )
                    ok = response.status_code == 200 and response.json()["state"] == "answered"
                except (httpx.HTTPError, ValueError, KeyError):  # no answer, or not JSON
                    ok = False
                elapsed = time.perf_counter() - started
                with lock:
                    if ok:
                        latencies.append(elapsed)
                    else:
                        errors += 1

    started = time.perf_counter()
    with ThreadPoolExecutor(max_workers=clients) as pool:
        list(pool.map(reviewer, range(clients)))
    return time.perf_counter() - started, latencies, errors


def _cycle(tokens: tuple[str, ...]) -> Iterator[str]:
    for n in count():
        yield tokens[n % len(tokens)]


def run(
    *,
    redis_url: str,
    delay_s: float,
    thread_settings: tuple[int, ...],
    factors: tuple[int, ...],
    rounds: int,
    workers: int = 2,
    progress: Callable[[str], None] = lambda message: None,
) -> list[Level]:
    """Every thread setting at every oversubscription factor, one fresh server per setting."""
    levels: list[Level] = []
    with slow_gateway(delay_s) as gateway:
        for threads in thread_settings:
            overrides = {
                "AICD_THREADS": str(threads),
                "AICD_PROVIDER": "openai_compatible",
                "AICD_PROVIDER_BASE_URL": gateway.url,
                "AICD_PROVIDER_MODEL": MODEL,
            }
            with app_server(redis_url, workers=workers, **overrides) as app:
                tokens = _cycle(app.tokens)
                slots = workers * threads
                progress(f"slow gateway: {workers} x {threads} threads, warm-up")
                # Every worker loads its context pack and tokenizer on its first question.
                drive(app, clients=slots, rounds=1, tokens=tokens)
                for factor in factors:
                    progress(f"slow gateway: {workers} x {threads} threads, {factor}x slots")
                    cpu_before = server_cpu_seconds(app.server)
                    seconds, latencies, errors = drive(
                        app, clients=factor * slots, rounds=rounds, tokens=tokens
                    )
                    cpu = server_cpu_seconds(app.server) - cpu_before
                    levels.append(
                        Level(
                            workers=workers,
                            threads=threads,
                            factor=factor,
                            delay_s=delay_s,
                            clients=factor * slots,
                            seconds=seconds,
                            latencies_s=tuple(latencies),
                            errors=errors,
                            server_cpu_s=cpu,
                        )
                    )
    return levels


# ---------------------------------------------------------------------------------- the table

TITLE = "Slow LLM gateway"


def table(levels: list[Level], *, rounds: int, load_before: float, load_after: float) -> Table:
    """The slow-gateway section of docs/performance.md, saying what was run beside the figures."""
    delay = levels[0].delay_s if levels else 0.0
    workers = levels[0].workers if levels else 0
    summary = f"""
Written by `make bench` and by `python -m bench --gateway-only`, which rewrites only this
section. The app runs under the shipped `gunicorn.conf.py` ({workers} workers, Redis sessions
and throttles, SQLite accounts) with `AICD_PROVIDER=openai_compatible` pointed at a loopback
Chat Completions gateway (`bench/gateway.py`) that answers every request after {delay:g} s with a
grounded package-only answer written from the sources it was sent. At each load, that many
concurrent reviewers each ask {rounds} questions back to back (`POST /api/source-grounded-chat`,
package_only, token authentication, a new connection per request as a reverse proxy opens by
default, {CLIENT_TIMEOUT_S:g} s client timeout); load is clients as a multiple of the concurrent
slots (workers x threads). Answers/s is answered requests over the level's wall time; ideal is
slots / delay, what a server that never serialises on the gateway reaches; p50 and p95 are of
each request's wall time, queueing included; server CPU is the CPU time gunicorn's master and
workers used during the level over its answers. An error is a non-200 response, any state but
answered, a socket error or the client timeout. Load average {load_before:.2f} at start,
{load_after:.2f} at end ({os.cpu_count()} CPUs).
"""
    return Table(
        title=TITLE,
        summary=" ".join(summary.split()),
        headers=HEADERS,
        rows=tuple(cells(level) for level in levels),
    )


def planned_table(
    redis_url: str, plan: dict[str, object], progress: Callable[[str], None]
) -> Table:
    """The slow-gateway table for the run plan's delay, thread settings, factors and rounds."""
    load_before = os.getloadavg()[0]
    rounds = int(plan["gateway_rounds"])  # type: ignore[call-overload]
    levels = run(
        redis_url=redis_url,
        delay_s=float(plan["gateway_delay_s"]),  # type: ignore[arg-type]
        thread_settings=plan["gateway_threads"],  # type: ignore[arg-type]
        factors=plan["gateway_factors"],  # type: ignore[arg-type]
        rounds=rounds,
        progress=progress,
    )
    return table(levels, rounds=rounds, load_before=load_before, load_after=os.getloadavg()[0])
