"""Chat API against the bare authenticated DRF endpoint of the same server, and the 60 s load run."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import httpx

from bench.harness import App, WrkResult, lua_script, server_cpu_seconds, wrk
from bench.report import Report, Row, ms, times

CHAT = "/api/source-grounded-chat"
HEALTH = "/api/health"
# Questions the sample package answers; the chat figures are for answered runs.
CONNECTIONS = 4
LOAD_CONNECTIONS = 8
QUESTIONS = (
    "who owns each stage gate?",
    "how do we roll back a release?",
    "what is build readiness?",
    "how is model drift monitored after launch?",
    "what does the architecture review assistant check?",
    "how are claim boundaries set for a source?",
    "what is the NIST AI RMF used for?",
    "when is a capability decommissioned?",
)


@dataclass(frozen=True)
class Comparison:
    """Medians over the rounds for the chat endpoint and its framework floor."""

    chat_p50_ms: float
    chat_p99_ms: float
    chat_rps: float
    floor_p50_ms: float
    floor_p99_ms: float
    floor_rps: float
    chat_cpu_ms: float
    floor_cpu_ms: float
    rounds: int
    seconds: int
    connections: int
    errors: int


def _bodies() -> list[str]:
    return [json.dumps({"mode": "package_only", "question": q}) for q in QUESTIONS]


def check_answers(app: App) -> None:
    """Every benchmark question must be answered (not refused) before its speed means anything."""
    headers = {"Authorization": f"Token {app.token}"}
    with httpx.Client(base_url=app.base_url, headers=headers, timeout=30) as client:
        for body in _bodies():
            response = client.post(CHAT, content=body, headers={"Content-Type": "application/json"})
            response.raise_for_status()
            state = response.json()["state"]
            if state != "answered":
                raise RuntimeError(f"benchmark question was {state}, not answered: {body}")
        client.get(HEALTH).raise_for_status()


def compare(app: App, *, rounds: int, seconds: int, connections: int) -> Comparison:
    """Alternate floor and chat runs so both see the same machine conditions."""
    with tempfile.TemporaryDirectory(prefix="aicd-bench-wrk-") as tmp:
        floor_script = lua_script(Path(tmp), "health", tokens=app.tokens)
        chat_script = lua_script(
            Path(tmp), "chat", tokens=app.tokens, method="POST", bodies=_bodies()
        )
        # Warm-up: every worker loads the context pack and the tokenizer before measuring.
        wrk(app.base_url + CHAT, script=chat_script, seconds=2, connections=connections)
        wrk(app.base_url + HEALTH, script=floor_script, seconds=1, connections=connections)
        floor: list[WrkResult] = []
        chat: list[WrkResult] = []
        floor_cpu: list[float] = []
        chat_cpu: list[float] = []

        def measured(path: str, script: Path, results: list[WrkResult], cpu: list[float]) -> None:
            before = server_cpu_seconds(app.server)
            result = wrk(
                app.base_url + path, script=script, seconds=seconds, connections=connections
            )
            cpu.append((server_cpu_seconds(app.server) - before) * 1000 / max(result.requests, 1))
            results.append(result)

        for _ in range(rounds):
            measured(HEALTH, floor_script, floor, floor_cpu)
            measured(CHAT, chat_script, chat, chat_cpu)
    return Comparison(
        chat_p50_ms=median([r.p50_ms for r in chat]),
        chat_p99_ms=median([r.p99_ms for r in chat]),
        chat_rps=median([r.requests_per_s for r in chat]),
        floor_p50_ms=median([r.p50_ms for r in floor]),
        floor_p99_ms=median([r.p99_ms for r in floor]),
        floor_rps=median([r.requests_per_s for r in floor]),
        chat_cpu_ms=median(chat_cpu),
        floor_cpu_ms=median(floor_cpu),
        rounds=rounds,
        seconds=seconds,
        connections=connections,
        errors=sum(r.errors for r in chat + floor),
    )


def load_run(app: App, *, seconds: int, connections: int) -> WrkResult:
    """One long chat run: every response must be a 2xx."""
    with tempfile.TemporaryDirectory(prefix="aicd-bench-wrk-") as tmp:
        script = lua_script(Path(tmp), "load", tokens=app.tokens, method="POST", bodies=_bodies())
        return wrk(app.base_url + CHAT, script=script, seconds=seconds, connections=connections)


def add_rows(
    report: Report, app: App, plan: dict[str, object], progress: Callable[[str], None]
) -> None:
    """The chat API rows: latency, throughput and server CPU against GET /api/health."""
    progress("chat API against GET /api/health")
    check_answers(app)
    c = compare(
        app,
        rounds=int(plan["http_rounds"]),
        seconds=int(plan["http_seconds"]),  # type: ignore[call-overload]
        connections=CONNECTIONS,
    )
    floor = "GET /api/health"
    report.add(
        Row(
            "chat API",
            f"p50 latency, {CONNECTIONS} connections",
            ms(c.chat_p50_ms),
            f"{floor} {ms(c.floor_p50_ms)}",
            times(c.chat_p50_ms / c.floor_p50_ms),
            "<= 3x",
            c.chat_p50_ms <= 3 * c.floor_p50_ms,
        )
    )
    report.add(
        Row(
            "chat API",
            f"p99 latency, {CONNECTIONS} connections",
            ms(c.chat_p99_ms),
            f"{floor} {ms(c.floor_p99_ms)}",
            times(c.chat_p99_ms / c.floor_p99_ms),
        )
    )
    share = c.chat_rps / c.floor_rps
    report.add(
        Row(
            "chat API",
            "throughput",
            f"{c.chat_rps:,.0f} req/s",
            f"{floor} {c.floor_rps:,.0f} req/s",
            f"{share:.0%}",
            ">= 40%",
            share >= 0.40,
        )
    )
    report.add(
        Row(
            "chat API",
            "server CPU per request (gunicorn master + workers)",
            ms(c.chat_cpu_ms),
            f"{floor} {ms(c.floor_cpu_ms)}",
            times(c.chat_cpu_ms / c.floor_cpu_ms),
        )
    )
    if c.errors:
        report.notes.append(
            f"{c.errors} errors (non-2xx or socket) during the chat/floor comparison"
        )


def add_load_rows(
    report: Report, app: App, plan: dict[str, object], progress: Callable[[str], None]
) -> None:
    """The load run row: one long wrk run of the chat endpoint."""
    seconds = int(plan["load_seconds"])  # type: ignore[call-overload]
    progress(f"{seconds} s load run")
    r = load_run(app, seconds=seconds, connections=LOAD_CONNECTIONS)
    report.add(
        Row(
            "load run",
            f"{seconds} s of chat, {LOAD_CONNECTIONS} connections, loopback",
            f"{r.requests:,} requests, {r.requests_per_s:,.0f} req/s, p50 {ms(r.p50_ms)}, "
            f"p99 {ms(r.p99_ms)}",
            "",
            "",
            "0 errors",
            r.errors == 0,
        )
    )
    if r.errors:
        report.notes.append(
            f"load run: {r.non_2xx} non-2xx responses, {r.socket_errors} socket errors"
        )
