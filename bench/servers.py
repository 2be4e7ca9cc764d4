"""Real servers for tests and benchmarks: a gunicorn running this app on a free loopback port."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx

REPO = Path(__file__).resolve().parent.parent
# Variables of the calling process that must not leak into a server configured from scratch.
_OWN_PREFIXES = ("AICD_", "DJANGO_", "DATABASE_URL")


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def app_env(workdir: Path, **overrides: str) -> dict[str, str]:
    """Environment for a server process: the caller's minus its AICD/Django settings, plus ours."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(_OWN_PREFIXES)}
    env.update(
        DJANGO_SETTINGS_MODULE="aicd.settings",
        AICD_ENVIRONMENT="test",
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY="test-only-secret-key-for-a-loopback-server-0123456789",
        AICD_VAR_DIR=str(workdir),
        DATABASE_URL=f"sqlite:///{workdir / 'db.sqlite3'}",
        AICD_CONTEXT_PACK_DIR=str(workdir / "context_pack"),
        # The screening artifact make builds (make test, make bench): without it each worker
        # trains one in memory on its first question, tens of seconds on a busy machine.
        AICD_MODEL_DIR=str(REPO / "models"),
        PYTHONUNBUFFERED="1",
    )
    env.update(overrides)
    return env


def manage(env: dict[str, str], *args: str, timeout: float = 120) -> str:
    """Run ``manage.py`` with ``env``; raise with its output when it fails."""
    proc = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"manage.py {args[0]} failed:\n{proc.stdout}\n{proc.stderr}")
    return proc.stdout


def create_users(env: dict[str, str], logins: dict[str, str]) -> None:
    """Create ordinary accounts (username -> password) in the server's database."""
    manage(
        env,
        "shell",
        "--no-imports",
        "-c",
        "from django.contrib.auth import get_user_model\n"
        f"for name, password in {logins!r}.items():\n"
        "    get_user_model().objects.create_user(username=name, password=password)",
    )


@dataclass
class Gunicorn:
    """A gunicorn master with its workers, started from gunicorn.conf.py; stop() ends them all."""

    env: dict[str, str]
    port: int
    log_path: Path
    proc: subprocess.Popen[bytes] | None = field(default=None, repr=False)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self, *, ready_timeout: float = 30.0) -> Gunicorn:
        env = {**self.env, "AICD_BIND": f"127.0.0.1:{self.port}"}
        with self.log_path.open("wb") as log:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "gunicorn", "-c", "gunicorn.conf.py"],
                cwd=REPO,
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + ready_timeout
        workers = int(env.get("AICD_WORKERS", "2"))
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited early:\n{self.log_path.read_text()}")
            if self._booted_workers() >= workers and self._answers():
                return self
            time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"gunicorn did not become ready:\n{self.log_path.read_text()}")

    def _booted_workers(self) -> int:
        return self.log_path.read_text(errors="replace").count("Booting worker with pid")

    def _answers(self) -> bool:
        try:
            httpx.get(self.base_url + "/api/health", timeout=2.0)
        except httpx.HTTPError:
            return False
        return True

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)

    def __enter__(self) -> Gunicorn:
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Browser:
    """An httpx client that logs in through the login form and sends Django's CSRF header."""

    def __init__(self, base_url: str, *, timeout: float = 10.0):
        self.http = httpx.Client(base_url=base_url, timeout=timeout)

    def login(self, username: str, password: str) -> None:
        self.http.get("/accounts/login/").raise_for_status()
        response = self.http.post(
            "/accounts/login/",
            data={
                "username": username,
                "password": password,
                "csrfmiddlewaretoken": self.http.cookies["csrftoken"],
            },
        )
        if response.status_code != 302 or not self.session_key:
            raise AssertionError(f"login failed: {response.status_code} {response.text[:300]}")

    @property
    def session_key(self) -> str:
        return self.http.cookies.get("sessionid", "")

    def _headers(self) -> dict[str, str]:
        return {"X-CSRFToken": self.http.cookies.get("csrftoken", "")}

    def post_json(self, path: str, body: dict[str, object]) -> httpx.Response:
        return self.http.post(path, json=body, headers=self._headers())

    def post_file(self, path: str, name: str, content: bytes) -> httpx.Response:
        return self.http.post(path, files={"file": (name, content)}, headers=self._headers())

    def delete(self, path: str) -> httpx.Response:
        return self.http.delete(path, headers=self._headers())

    def get(self, path: str) -> httpx.Response:
        return self.http.get(path)

    def logout(self) -> None:
        response = self.http.post("/accounts/logout/", headers=self._headers())
        if response.status_code != 302:
            raise AssertionError(f"logout failed: {response.status_code}")

    def close(self) -> None:
        self.http.close()
