"""Start-up: a fresh process until its first response, the app against a bare Django project.

"Start-up" here is the wall time from spawning ``python`` until the project's WSGI module (the
one gunicorn loads) has answered its first request, in process (no server, no network):
- app: ``aicd.wsgi`` answering ``GET /api/health`` for a token (URLconf, DRF, token lookup);
- bare Django: a project fresh from ``django-admin startproject`` (same Django; DEBUG off and
  127.0.0.1 allowed, as in the app) plus one view answering ``{"status": "ok"}``, through its
  generated ``bare.wsgi``;
- bare Django + DRF: the same project with ``rest_framework`` installed and that view written
  as a DRF ``APIView``: what the framework alone adds.
The context pack is not part of start-up: it is a built artifact, loaded on first use. The
first answer after start-up (``POST /api/source-grounded-chat``, which loads the pack and the
tokenizer) is reported beside it.

``python -m bench.startup KIND [TOKEN]`` runs one probe and prints ``ready``.
"""

from __future__ import annotations

import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from statistics import median

from bench.harness import App
from bench.report import Report, Row, ms, times

# Only the standard library above: the probe process must not import anything the app does not.
REPO = Path(__file__).resolve().parent.parent
KINDS = ("bare", "bare_drf", "app", "app_first_answer")


def _call(
    application: Callable, method: str, path: str, headers: dict[str, str], body: bytes = b""
) -> str:
    from wsgiref.util import setup_testing_defaults

    environ: dict[str, object] = {
        "REQUEST_METHOD": method,
        "PATH_INFO": path,
        "SERVER_NAME": "127.0.0.1",
        "HTTP_HOST": "127.0.0.1",
        "CONTENT_LENGTH": str(len(body)),
        "CONTENT_TYPE": "application/json",
        "wsgi.input": io.BytesIO(body),
        **headers,
    }
    setup_testing_defaults(environ)
    status: list[str] = []
    chunks = application(environ, lambda s, h, exc=None: status.append(s))
    b"".join(chunks)
    return status[0]


def probe(kind: str, token: str) -> None:
    from importlib import import_module

    # The settings' sibling WSGI module: aicd.wsgi or bare.wsgi, as a server would load it.
    project = os.environ["DJANGO_SETTINGS_MODULE"].rpartition(".")[0]
    application = import_module(f"{project}.wsgi").application
    if kind.startswith("bare"):
        status = _call(application, "GET", "/api/health", {})
    else:
        auth = {"HTTP_AUTHORIZATION": f"Token {token}"}
        status = _call(application, "GET", "/api/health", auth)
        if kind == "app_first_answer":
            body = json.dumps({"question": "who owns each stage gate?"}).encode()
            status = _call(application, "POST", "/api/source-grounded-chat", auth, body)
    if not status.startswith("200"):
        raise SystemExit(f"{kind}: first response was {status}")
    print("ready", flush=True)


_BARE_VIEW = """
import os  # noqa: E402

from django.http import JsonResponse  # noqa: E402

if os.environ.get("BARE_WITH_DRF"):
    from rest_framework.permissions import AllowAny
    from rest_framework.response import Response
    from rest_framework.views import APIView

    class Health(APIView):
        authentication_classes = []
        permission_classes = [AllowAny]

        def get(self, request):
            return Response({"status": "ok"})

    urlpatterns.append(path("api/health", Health.as_view()))
else:
    urlpatterns.append(path("api/health", lambda request: JsonResponse({"status": "ok"})))
"""
_BARE_DRF_SETTINGS = """
import os  # noqa: E402

if os.environ.get("BARE_WITH_DRF"):
    INSTALLED_APPS += ["rest_framework"]
"""


def bare_project(directory: Path) -> Path:
    """``django-admin startproject bare`` in ``directory``, plus the one view; returns its path."""
    subprocess.run(
        [sys.executable, "-m", "django", "startproject", "bare", str(directory)],
        check=True,
        capture_output=True,
    )
    settings = directory / "bare" / "settings.py"
    text = settings.read_text().replace("DEBUG = True", "DEBUG = False")
    settings.write_text(
        text.replace("ALLOWED_HOSTS = []", 'ALLOWED_HOSTS = ["127.0.0.1"]') + _BARE_DRF_SETTINGS
    )
    with (directory / "bare" / "urls.py").open("a") as urls:
        urls.write(_BARE_VIEW)
    # Compiled ahead like the app's modules: like for like. (Imported here, in the benchmark's
    # own process: the probe processes import nothing beyond the standard library from bench.)
    from bench.harness import compile_bytecode

    compile_bytecode(directory, ("bare",))
    return directory


def _time_one(kind: str, env: dict[str, str], token: str, bare: Path) -> tuple[float, float]:
    """Wall time and CPU time (user + system) in ms of one probe process."""
    if kind.startswith("bare"):
        env = {**env, "DJANGO_SETTINGS_MODULE": "bare.settings", "PYTHONPATH": f"{bare}:{REPO}"}
        if kind == "bare_drf":
            env["BARE_WITH_DRF"] = "1"
    else:
        env = {**env, "DJANGO_SETTINGS_MODULE": "aicd.settings"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "bench.startup", kind, token],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = (time.perf_counter() - start) * 1000
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0 or "ready" not in proc.stdout:
        raise RuntimeError(f"start-up probe {kind} failed:\n{proc.stdout}\n{proc.stderr}")
    cpu = (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) * 1000
    return elapsed, cpu


def compare(env: dict[str, str], token: str, *, rounds: int) -> dict[str, tuple[float, float]]:
    """Median (wall, CPU) start-up in ms of each kind, the kinds interleaved round by round."""
    times: dict[str, list[tuple[float, float]]] = {k: [] for k in KINDS}
    with tempfile.TemporaryDirectory(prefix="aicd-bench-bare-") as tmp:
        bare = bare_project(Path(tmp))
        for kind in KINDS:  # one unmeasured round warms the OS file cache for every kind
            _time_one(kind, env, token, bare)
        for _ in range(rounds):
            for kind in KINDS:
                times[kind].append(_time_one(kind, env, token, bare))
    return {
        kind: (median(w for w, _ in values), median(c for _, c in values))
        for kind, values in times.items()
    }


if __name__ == "__main__":
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aicd.settings")
    probe(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "")


def add_rows(
    report: Report, app: App, plan: dict[str, object], progress: Callable[[str], None]
) -> None:
    """The start-up rows: fresh process to first response and to first answer, against bare Django."""
    progress("start-up probes")
    result = compare(app.env, app.token, rounds=int(plan["startup_rounds"]))  # type: ignore[call-overload]
    (bare_wall, bare_cpu), (app_wall, app_cpu) = result["bare"], result["app"]
    first_wall, first_cpu = result["app_first_answer"]
    ratio = app_wall / bare_wall
    report.add(
        Row(
            "start-up",
            "fresh process to first response (GET /api/health), wall",
            ms(app_wall),
            f"bare Django {ms(bare_wall)}",
            times(ratio),
            "< 1.5x",
            ratio < 1.5,
        )
    )
    report.add(
        Row(
            "start-up",
            "same, CPU time (user + system)",
            ms(app_cpu),
            f"bare Django {ms(bare_cpu)}",
            times(app_cpu / bare_cpu),
        )
    )
    drf_wall = result["bare_drf"][0]
    report.add(
        Row(
            "start-up",
            "same, wall, against bare Django + DRF (one APIView)",
            ms(app_wall),
            f"bare Django + DRF {ms(drf_wall)}",
            times(app_wall / drf_wall),
        )
    )
    report.add(
        Row(
            "start-up",
            "fresh process to first answer (pack and tokenizer loaded), wall",
            ms(first_wall),
            f"bare Django {ms(bare_wall)}",
            times(first_wall / bare_wall),
        )
    )
    drf_note = (
        f"Adding Django REST framework to the bare project (one APIView) makes it "
        f"{drf_wall / bare_wall:.2f}x bare Django: importing DRF imports the optional libraries it "
        "finds installed (requests, PyYAML, Pygments and others)."
    )
    if ratio >= 1.5:
        report.notes.append(
            f"Start-up is {ratio:.2f}x bare Django. {drf_note} The app takes "
            f"{app_wall / drf_wall:.2f}x that bare Django + DRF project."
        )
    elif app_wall < drf_wall:
        report.notes.append(
            f"The app starts faster than the bare Django + DRF project. {drf_note} Heavy "
            "optional libraries (bm25s/numpy, the Markdown parser, pypdf, python-docx) are imported "
            "where they are used; the first-answer row includes them."
        )
