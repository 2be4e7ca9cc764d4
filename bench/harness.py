"""Servers and load for the benchmarks: a throwaway redis-server, the app under gunicorn, wrk."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from bench.servers import REPO, Gunicorn, app_env, create_users, free_port, manage

BENCH_USER = "bench"
BENCH_PASSWORD = "bench-only-password-on-loopback"  # noqa: S105 - a throwaway loopback account
# Load comes from many reviewers, each under the shipped per-user chat throttle (60/min), so the
# throttle runs with its production rate and history size and never refuses a benchmark request.
# Requests rotate over every user, so together they may send TOKEN_USERS requests a second: keep
# it well above the chat endpoint's throughput (400 users were too few once the 60 s load run
# passed 400 requests a second, and the last 3% of its requests were refused with 429).
TOKEN_USERS = 1500


def require(*tools: str) -> None:
    """Fail early, naming the Debian packages, when a tool the benchmark needs is missing."""
    packages = {
        "redis-server": "redis-server",
        "redis-cli": "redis-tools",
        "wrk": "wrk",
        "pdftotext": "poppler-utils",
    }
    missing = [t for t in tools if not shutil.which(t)]
    if missing:
        names = " ".join(packages.get(t, t) for t in missing)
        raise SystemExit(f"make bench needs {', '.join(missing)}: apt-get install -y {names}")


@contextmanager
def redis_server() -> Iterator[str]:
    """A redis-server on a free loopback port without persistence; yields its URL."""
    workdir = Path(tempfile.mkdtemp(prefix="aicd-bench-redis-"))
    port = free_port()
    proc = subprocess.Popen(
        [
            "redis-server",
            "--bind",
            "127.0.0.1",
            "--port",
            str(port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--dir",
            str(workdir),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            ping = subprocess.run(
                ["redis-cli", "-p", str(port), "ping"], capture_output=True, text=True, check=False
            )
            if ping.stdout.strip() == "PONG":
                break
            time.sleep(0.05)
        else:
            raise RuntimeError("redis-server did not start")
        yield f"redis://127.0.0.1:{port}/0"
    finally:
        proc.terminate()
        proc.wait(timeout=10)
        shutil.rmtree(workdir, ignore_errors=True)


@dataclass(frozen=True)
class App:
    """The app served by gunicorn: a login for the benchmark account and DRF tokens of many users."""

    server: Gunicorn
    tokens: tuple[str, ...]
    env: dict[str, str]

    @property
    def token(self) -> str:
        return self.tokens[0]

    @property
    def base_url(self) -> str:
        return self.server.base_url


_TOKEN_USERS_SCRIPT = f"""
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
User = get_user_model()
users = User.objects.bulk_create(
    [User(username=f"bench-{{i:04d}}", password="!") for i in range({TOKEN_USERS})]
)
users = User.objects.filter(username__startswith="bench-").order_by("username")
tokens = Token.objects.bulk_create(
    [Token(user=u, key=Token.generate_key()) for u in users]
)
print(" ".join(t.key for t in tokens))
"""


APP_PACKAGES = ("aicd", "accounts", "assistant", "registry_review", "uploads", "bench")


def compile_bytecode(root: Path, packages: tuple[str, ...]) -> None:
    """Compile bytecode ahead, as ``make serve`` does: a deployment's modules are built artifacts.

    Where PYTHONDONTWRITEBYTECODE is set (as on the CI machines), Python never caches the
    compiled modules itself, so without this every process would compile the app's source again.
    """
    subprocess.run(
        [sys.executable, "-m", "compileall", "-q", *packages],
        cwd=root,
        check=True,
        capture_output=True,
    )


def run_json(module: str, *args: str, **env: str) -> dict[str, float]:
    """``python -m module args`` in a fresh interpreter with the app's settings (and ``env``),
    read as the JSON object its last line of output prints.

    A benchmark that imports the app measures it in its own process, as a worker loads it, and
    leaves this one (which runs the servers) free of Django.
    """
    out = subprocess.run(
        [sys.executable, "-m", module, *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
        env={
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "aicd.settings",
            "AICD_LOG_LEVEL": "WARNING",
            **env,
        },
    )
    if out.returncode != 0:
        raise RuntimeError(f"python -m {module} failed ({out.returncode}):\n{out.stderr[-3000:]}")
    result: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return result


#: Building a context pack ten times the sample's (section embeddings included) takes minutes
#: on a busy machine, beyond ``manage``'s default timeout.
BUILD_TIMEOUT_S = 900


@contextmanager
def app_server(redis_url: str, *, workers: int = 2, **overrides: str) -> Iterator[App]:
    """Migrate a fresh SQLite DB, build the context pack, serve it with gunicorn.

    ``overrides`` are further AICD_* variables for the server (a provider, AICD_THREADS, the
    package directory: the shipped sample package unless ``AICD_PACKAGE_DIR`` names another).
    """
    workdir = Path(tempfile.mkdtemp(prefix="aicd-bench-app-"))
    env = app_env(
        workdir,
        AICD_REDIS_URL=redis_url,
        AICD_WORKERS=str(workers),
        # Extraction and session-size uploads run back to back from one account; the chat
        # throttle keeps its shipped per-user rate (see TOKEN_USERS).
        AICD_UPLOAD_THROTTLE_RATE="10000/min",
        **overrides,
    )
    try:
        manage(env, "migrate", "--noinput")
        manage(env, "build_context_pack", timeout=BUILD_TIMEOUT_S)
        manage(env, "collectstatic", "--noinput")
        compile_bytecode(REPO, APP_PACKAGES)
        create_users(env, {BENCH_USER: BENCH_PASSWORD})
        tokens = tuple(manage(env, "shell", "--no-imports", "-c", _TOKEN_USERS_SCRIPT).split())
        server = Gunicorn(env=env, port=free_port(), log_path=workdir / "gunicorn.log").start()
        try:
            yield App(server=server, tokens=tokens, env=env)
        finally:
            server.stop()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def server_cpu_seconds(server: Gunicorn) -> float:
    """CPU time (user + system) used so far by the gunicorn master and its live workers."""
    assert server.proc is not None
    master = server.proc.pid
    pids = [master]
    for task in Path(f"/proc/{master}/task").iterdir():
        children = (task / "children").read_text().split()
        pids += [int(c) for c in children]
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += int(fields[11]) + int(fields[12])  # utime, stime
    return total / ticks


@dataclass(frozen=True)
class WrkResult:
    """One wrk run: latency percentiles (ms), throughput and every kind of error."""

    p50_ms: float
    p99_ms: float
    requests: int
    requests_per_s: float
    non_2xx: int
    socket_errors: int
    #: wrk prints no 95th percentile; the Lua script's ``done`` hook does (``lua_script``).
    p95_ms: float | None = None

    @property
    def errors(self) -> int:
        return self.non_2xx + self.socket_errors


_UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0, "m": 60000.0}


def _ms(text: str) -> float:
    number, unit = re.fullmatch(r"([\d.]+)(us|ms|s|m)", text).groups()  # type: ignore[union-attr]
    return float(number) * _UNITS[unit]


def parse_wrk(output: str) -> WrkResult:
    p50 = re.search(r"^\s+50%\s+(\S+)", output, re.M)
    p99 = re.search(r"^\s+99%\s+(\S+)", output, re.M)
    total = re.search(r"(\d+) requests in", output)
    rate = re.search(r"Requests/sec:\s+([\d.]+)", output)
    if not (p50 and p99 and total and rate):
        raise RuntimeError(f"unexpected wrk output:\n{output}")
    non_2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    sockets = re.search(
        r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output
    )
    p95 = re.search(r"^p95_us (\d+)$", output, re.M)
    return WrkResult(
        p50_ms=_ms(p50.group(1)),
        p99_ms=_ms(p99.group(1)),
        requests=int(total.group(1)),
        requests_per_s=float(rate.group(1)),
        non_2xx=int(non_2xx.group(1)) if non_2xx else 0,
        socket_errors=sum(int(x) for x in sockets.groups()) if sockets else 0,
        p95_ms=int(p95.group(1)) / 1000 if p95 else None,
    )


def wrk(url: str, *, script: Path, seconds: int, connections: int, threads: int = 2) -> WrkResult:
    """Run wrk against a loopback URL with a Lua request script."""
    if not url.startswith("http://127.0.0.1:"):
        raise ValueError("benchmarks load loopback servers only")
    proc = subprocess.run(
        [
            "wrk",
            "--latency",
            f"-t{min(threads, connections)}",
            f"-c{connections}",
            f"-d{seconds}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
            url,
        ],
        capture_output=True,
        text=True,
        check=True,
        timeout=seconds + 60,
    )
    return parse_wrk(proc.stdout)


def lua_script(
    directory: Path,
    name: str,
    *,
    tokens: tuple[str, ...],
    method: str = "GET",
    bodies: list[str] | None = None,
) -> Path:
    """A wrk script cycling through users' tokens (and JSON bodies, if given) request by request."""
    quoted_tokens = ", ".join(f'"{t}"' for t in tokens)
    quoted_bodies = ", ".join("[==[" + b + "]==]" for b in bodies or [])
    lines = [
        f'wrk.method = "{method}"',
        'wrk.headers["Content-Type"] = "application/json"',
        f"local tokens = {{{quoted_tokens}}}",
        f"local bodies = {{{quoted_bodies}}}",
        "local t, b = math.random(#tokens), 0",
        "request = function()",
        "  t = t % #tokens + 1",
        '  wrk.headers["Authorization"] = "Token " .. tokens[t]',
        "  if #bodies == 0 then return wrk.format() end",
        "  b = b % #bodies + 1",
        "  return wrk.format(nil, nil, nil, bodies[b])",
        "end",
        "done = function(summary, latency, requests)",
        '  io.write(string.format("p95_us %d\\n", latency:percentile(95)))',
        "end",
    ]
    path = directory / f"{name}.lua"
    path.write_text("\n".join(lines) + "\n")
    return path


def call_times_ms(
    fn: Callable[[str], object], items: Sequence[str], rounds: int = 1
) -> list[float]:
    """Each call's wall time in milliseconds, sorted: ``fn`` on every item, ``rounds`` times over."""
    samples = []
    for _ in range(rounds):
        for item in items:
            start = time.perf_counter()
            fn(item)
            samples.append((time.perf_counter() - start) * 1000)
    return sorted(samples)
