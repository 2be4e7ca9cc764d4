"""Session sources through the CONTRACT API: extraction time, and what a session holds in Redis.

Both parts drive a real server with a logged-in browser session (form login, CSRF header), as
a reviewer does, and use only the public API: POST/GET/DELETE /api/session-sources. When that
endpoint answers 404 (session uploads not deployed in this build) the part is skipped with that
reason instead of reporting anything.
"""

from __future__ import annotations

import io
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import median

import redis

from bench import documents
from bench.harness import BENCH_PASSWORD, BENCH_USER, App
from bench.report import Report, Row, ms, times
from bench.servers import Browser

SOURCES = "/api/session-sources"
SESSION_CHARS = 120_000
PASTE_CHARS = 25_000
PDF_PAGES = 75
PDF_CHARS_PER_PAGE = 1_550  # 75 pages stay under the 120,000-character session limit
DOCX_BYTES = 4_800_000  # under a 5 MB limit however "MB" is read
DOCX_TEXT_CHARS = 100_000


class Unavailable(Exception):
    """The server has no session-source API (404): the reason a section is skipped."""


def _browser(app: App) -> Browser:
    browser = Browser(app.base_url, timeout=120.0)
    browser.login(BENCH_USER, BENCH_PASSWORD)
    return browser


def _check_available(browser: Browser) -> None:
    response = browser.get(SOURCES)
    if response.status_code == 404:
        raise Unavailable(
            "GET /api/session-sources answered 404: session uploads are not part of this build"
        )
    response.raise_for_status()


def _upload(browser: Browser, name: str, content: bytes) -> tuple[float, dict[str, object]]:
    start = time.perf_counter()
    response = browser.post_file(SOURCES, name, content)
    elapsed = (time.perf_counter() - start) * 1000
    if response.status_code != 201:
        raise RuntimeError(
            f"upload of {name} was refused: {response.status_code} {response.text[:300]}"
        )
    return elapsed, response.json()


def _pdftotext_ms(pdf: bytes) -> float:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        start = time.perf_counter()
        subprocess.run(["pdftotext", "-enc", "UTF-8", f.name, "-"], check=True, capture_output=True)
        return (time.perf_counter() - start) * 1000


def _python_docx_ms(content: bytes) -> float:

    from docx import Document

    start = time.perf_counter()
    document = Document(io.BytesIO(content))
    "\n".join(p.text for p in document.paragraphs)
    return (time.perf_counter() - start) * 1000


@dataclass(frozen=True)
class Extraction:
    pdf_ms: float
    pdftotext_ms: float
    pdf_bytes: int
    pdf_chars: int
    docx_ms: float
    python_docx_ms: float
    docx_bytes: int
    docx_chars: int
    rounds: int


def extraction(app: App, *, rounds: int) -> Extraction:
    """Upload time (extraction included) of the PDF and the DOCX, against pdftotext/python-docx."""
    pdf = documents.text_pdf(PDF_PAGES, PDF_CHARS_PER_PAGE)
    docx = documents.docx(DOCX_BYTES, DOCX_TEXT_CHARS)
    browser = _browser(app)
    try:
        _check_available(browser)
        times: dict[str, list[float]] = {"pdf": [], "pdftotext": [], "docx": [], "python_docx": []}
        records: dict[str, dict[str, object]] = {}
        for _ in range(rounds):
            for kind, name, content in (
                ("pdf", "proposal.pdf", pdf),
                ("docx", "proposal.docx", docx),
            ):
                browser.delete(SOURCES)  # each upload starts from an empty session
                ms, records[kind] = _upload(browser, name, content)
                times[kind].append(ms)
            times["pdftotext"].append(_pdftotext_ms(pdf))
            times["python_docx"].append(_python_docx_ms(docx))
        browser.delete(SOURCES)
    finally:
        browser.logout()
        browser.close()
    return Extraction(
        pdf_ms=median(times["pdf"]),
        pdftotext_ms=median(times["pdftotext"]),
        pdf_bytes=len(pdf),
        pdf_chars=int(records["pdf"]["extracted_character_count"]),  # type: ignore[call-overload]
        docx_ms=median(times["docx"]),
        python_docx_ms=median(times["python_docx"]),
        docx_bytes=len(docx),
        docx_chars=int(records["docx"]["extracted_character_count"]),  # type: ignore[call-overload]
        rounds=rounds,
    )


@dataclass(frozen=True)
class SessionSize:
    extracted_chars: int
    raw_utf8_bytes: int
    serialized_bytes: int
    redis_memory_bytes: int
    sessions: int


def _session_key(browser: Browser) -> str:
    return f"aicd:1:django.contrib.sessions.cache{browser.session_key}"


def session_size(app: App, redis_url: str, *, sessions: int) -> SessionSize:
    """Fill ``sessions`` sessions with 120,000 extracted characters each; measure them in Redis.

    Each session holds one 25,000-character paste and one .txt upload with the rest. The raw
    size is the UTF-8 size of exactly those characters; the serialized size is the session's
    value as stored in Redis; Redis memory is Redis's own MEMORY USAGE of that key.
    """
    client = redis.Redis.from_url(redis_url)
    paste = documents.prose(PASTE_CHARS, seed=31, accents=True)
    upload = documents.prose(SESSION_CHARS - len(paste), seed=37, accents=True)
    raw = len(paste.encode()) + len(upload.encode())
    serialized: list[int] = []
    memory: list[int] = []
    extracted: list[int] = []
    browsers = []
    try:
        for _ in range(sessions):
            browser = _browser(app)
            browsers.append(browser)
            _check_available(browser)
            pasted = browser.post_json(SOURCES, {"title": "Pasted notes", "text": paste})
            if pasted.status_code != 201:
                raise RuntimeError(f"paste refused: {pasted.status_code} {pasted.text[:300]}")
            _, record = _upload(browser, "draft.txt", upload.encode())
            extracted.append(
                int(pasted.json()["extracted_character_count"])
                + int(record["extracted_character_count"])
            )  # type: ignore[call-overload]
            key = _session_key(browser)
            serialized.append(int(client.strlen(key)))
            memory.append(int(client.memory_usage(key) or 0))
    finally:
        for browser in browsers:
            browser.logout()
            browser.close()
    return SessionSize(
        extracted_chars=int(median(extracted)),
        raw_utf8_bytes=raw,
        serialized_bytes=int(median(serialized)),
        redis_memory_bytes=int(median(memory)),
        sessions=sessions,
    )


def write_samples(directory: Path) -> dict[str, Path]:
    """Write the generated PDF and DOCX for inspection (``python -m bench --samples DIR``)."""
    directory.mkdir(parents=True, exist_ok=True)
    pdf = directory / "bench-75-pages.pdf"
    pdf.write_bytes(documents.text_pdf(PDF_PAGES, PDF_CHARS_PER_PAGE))
    docx = directory / "bench-5mb.docx"
    docx.write_bytes(documents.docx(DOCX_BYTES, DOCX_TEXT_CHARS))
    return {"pdf": pdf, "docx": docx}


def add_rows(
    report: Report,
    app: App,
    redis_url: str,
    plan: dict[str, object],
    progress: Callable[[str], None],
) -> None:
    """The extraction and session rows; skipped, with the reason, when uploads are not deployed."""
    progress("extraction and session size")
    try:
        e = extraction(app, rounds=int(plan["upload_rounds"]))  # type: ignore[call-overload]
        report.add(
            Row(
                "extraction",
                f"{PDF_PAGES}-page text PDF ({e.pdf_bytes / 1024:,.0f} KiB, "
                f"{e.pdf_chars:,} chars), upload to record",
                ms(e.pdf_ms),
                f"pdftotext {ms(e.pdftotext_ms)}",
                times(e.pdf_ms / e.pdftotext_ms),
            )
        )
        report.add(
            Row(
                "extraction",
                f"DOCX ({e.docx_bytes / 1e6:.1f} MB, {e.docx_chars:,} chars), upload to record",
                ms(e.docx_ms),
                f"python-docx paragraphs {ms(e.python_docx_ms)}",
                times(e.docx_ms / e.python_docx_ms),
            )
        )
        s = session_size(app, redis_url, sessions=int(plan["sessions"]))  # type: ignore[call-overload]
        ratio = s.serialized_bytes / s.raw_utf8_bytes
        report.add(
            Row(
                "session",
                f"serialized session, {s.extracted_chars:,} extracted chars",
                f"{s.serialized_bytes:,} B",
                f"raw UTF-8 {s.raw_utf8_bytes:,} B",
                times(ratio),
                "<= 1.2x",
                ratio <= 1.2,
            )
        )
        report.add(
            Row(
                "session",
                "Redis memory held per session (MEMORY USAGE)",
                f"{s.redis_memory_bytes:,} B",
                f"raw UTF-8 {s.raw_utf8_bytes:,} B",
                times(s.redis_memory_bytes / s.raw_utf8_bytes),
            )
        )
    except Unavailable as exc:
        report.skipped.append(f"extraction and session size: {exc}")
