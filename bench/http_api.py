"""Chat API against the bare authenticated DRF endpoint of the same server, on the sample package
and on a generated package ten times its size, and the 60 s load run."""

from __future__ import annotations

import json
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import httpx

from bench import chat_scale
from bench.harness import App, WrkResult, app_server, lua_script, server_cpu_seconds, wrk
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


@dataclass(frozen=True)
class ScaleComparison:
    """Chat latency medians over the rounds on the sample package's server and on the server of
    a package ten times its size."""

    sample_p50_ms: float
    sample_p95_ms: float
    scaled_p50_ms: float
    scaled_p95_ms: float
    errors: int


def _p95(result: WrkResult) -> float:
    if result.p95_ms is None:
        raise RuntimeError("wrk printed no 95th percentile (the Lua script's done hook)")
    return result.p95_ms


def compare_scaled(
    sample: App, scaled: App, *, rounds: int, seconds: int, connections: int
) -> ScaleComparison:
    """Alternate chat runs on the two servers so both see the same machine conditions."""
    with tempfile.TemporaryDirectory(prefix="aicd-bench-wrk-") as tmp:
        scripts = [
            lua_script(Path(tmp), name, tokens=app.tokens, method="POST", bodies=_bodies())
            for name, app in (("sample", sample), ("scaled", scaled))
        ]
        results: list[list[WrkResult]] = [[], []]
        for app, script in zip((sample, scaled), scripts, strict=True):
            # Warm-up: every worker loads its context pack and the tokenizer before measuring.
            wrk(app.base_url + CHAT, script=script, seconds=2, connections=connections)
        for _ in range(rounds):
            for app, script, out in zip((sample, scaled), scripts, results, strict=True):
                out.append(
                    wrk(
                        app.base_url + CHAT, script=script, seconds=seconds, connections=connections
                    )
                )
    on_sample, on_scaled = results
    return ScaleComparison(
        sample_p50_ms=median([r.p50_ms for r in on_sample]),
        sample_p95_ms=median([_p95(r) for r in on_sample]),
        scaled_p50_ms=median([r.p50_ms for r in on_scaled]),
        scaled_p95_ms=median([_p95(r) for r in on_scaled]),
        errors=sum(r.errors for r in on_sample + on_scaled),
    )


def _other_database(redis_url: str) -> str:
    """The same Redis server, another database: the two servers' users share ids, and their
    sessions and throttle counts must not meet."""
    return redis_url.rsplit("/", 1)[0] + "/1"


def add_scale_rows(
    report: Report,
    app: App,
    redis_url: str,
    plan: dict[str, object],
    progress: Callable[[str], None],
) -> None:
    """Chat p50 and p95 through gunicorn on the sample package (``app``) and on a package of
    ten copies of it (``bench/chat_scale.py``'s), served the same way beside it."""
    progress("chat API on the sample package and on the ten-times package")
    with tempfile.TemporaryDirectory(prefix="aicd-bench-scaled-") as tmp:
        package = chat_scale.scaled_package(chat_scale.SAMPLE, chat_scale.FACTOR, Path(tmp))
        with app_server(_other_database(redis_url), AICD_PACKAGE_DIR=str(package)) as scaled:
            check_answers(app)
            check_answers(scaled)
            c = compare_scaled(
                app,
                scaled,
                rounds=int(plan["http_rounds"]),  # type: ignore[call-overload]
                seconds=int(plan["http_seconds"]),  # type: ignore[call-overload]
                connections=CONNECTIONS,
            )
    section = "chat API at scale"
    copies = f"generated package ({chat_scale.FACTOR} copies of the sample)"
    report.add(Row(section, f"p50, sample package, {CONNECTIONS} connections", ms(c.sample_p50_ms)))
    report.add(Row(section, f"p95, sample package, {CONNECTIONS} connections", ms(c.sample_p95_ms)))
    report.add(
        Row(
            section,
            f"p50, {copies}",
            ms(c.scaled_p50_ms),
            f"sample package {ms(c.sample_p50_ms)}",
            times(c.scaled_p50_ms / c.sample_p50_ms),
        )
    )
    ratio = c.scaled_p95_ms / c.sample_p95_ms
    report.add(
        Row(
            section,
            f"p95, {copies}",
            ms(c.scaled_p95_ms),
            f"sample package {ms(c.sample_p95_ms)}",
            times(ratio),
            f"<= {chat_scale.SCALE_TARGET}x",
            ratio <= chat_scale.SCALE_TARGET,
        )
    )
    if c.errors:
        report.notes.append(f"{c.errors} errors (non-2xx or socket) during the chat scale runs")


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
