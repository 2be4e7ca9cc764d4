"""`make bench` (``python -m bench``): run every benchmark, print the table, write docs/performance.md.

Every figure is a median over repeated runs, and each baseline is measured in the same run,
interleaved with the figure it is compared with, so the ratios hold on a busy machine too.
``--quick`` is a smoke run (smaller sizes, fewer rounds); its figures are not for the docs.
``--gateway-only`` runs only the slow-gateway part and rewrites only its section of the doc.
``--only`` runs one part and prints its table without writing the doc.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import time
from pathlib import Path

from bench import (
    chat_scale,
    gateway,
    harness,
    http_api,
    machine,
    pdf_speed,
    retrieval,
    screening,
    startup,
    uploads,
)
from bench.report import Report, replace_section

REPO = Path(__file__).resolve().parent.parent
DOC = REPO / "docs" / "performance.md"


def _progress(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def _plan(quick: bool) -> dict[str, object]:
    if quick:
        return {
            "startup_rounds": 3,
            "http_rounds": 2,
            "http_seconds": 3,
            "load_seconds": 10,
            "sizes": (1_000, 10_000),
            "retrieval_rounds": 1,
            "queries": 50,
            "rank_bm25_queries": {10_000: 20},
            "upload_rounds": 2,
            "sessions": 2,
            "gateway_delay_s": 0.5,
            "gateway_threads": (1, 4),
            "gateway_factors": (1, 2, 4),
            "gateway_rounds": 1,
        }
    return {
        "startup_rounds": 9,
        "http_rounds": 5,
        "http_seconds": 8,
        "load_seconds": 60,
        "sizes": (1_000, 10_000, 100_000),
        "retrieval_rounds": 3,
        "queries": 200,
        "rank_bm25_queries": {10_000: 100, 100_000: 25},
        "upload_rounds": 5,
        "sessions": 5,
        "gateway_delay_s": 2.0,
        "gateway_threads": (1, 4, 8, 16),
        "gateway_factors": (1, 2, 4),
        "gateway_rounds": 5,
    }


SECTIONS = ("uploads", "pdf", "chat-scale")


def run(quick: bool, only: str | None = None) -> Report:
    plan = _plan(quick)
    if only == "pdf":
        harness.require("pdftotext")
    else:
        wrk = ("wrk",) if only in (None, "chat-scale") else ()
        harness.require("redis-server", "redis-cli", "pdftotext", *wrk)
    report = Report(
        machine=machine.describe(),
        settings={
            "mode": "quick smoke run (not for the docs)" if quick else "full",
            "server": "gunicorn, 2 sync workers, 127.0.0.1, Redis cache/sessions/throttles, SQLite accounts",
            "chat": f"package_only, deterministic provider, {len(http_api.QUESTIONS)} answered questions in turn, "
            f"{harness.TOKEN_USERS} token users at the shipped 60/min chat throttle",
            "concurrency": f"{http_api.CONNECTIONS} connections (comparisons), {http_api.LOAD_CONNECTIONS} (load run)",
            "rounds": f"start-up {plan['startup_rounds']}, HTTP {plan['http_rounds']} x {plan['http_seconds']} s, "
            f"retrieval {plan['retrieval_rounds']}, uploads {plan['upload_rounds']}",
        },
    )
    load1, cpus = os.getloadavg()[0], os.cpu_count() or 1
    if load1 > 0.25 * cpus:
        report.notes.append(
            f"Other processes were using the CPUs when this run started (load average {load1:.2f} "
            f"on {cpus} CPUs). Wall-time figures and their ratios move with such load; the CPU-time "
            "rows (start-up CPU time, server CPU per request) move less."
        )
    if only == "pdf":
        pdf_speed.add_rows(report, plan, _progress)
        return report
    if only == "uploads":
        with harness.redis_server() as redis_url, harness.app_server(redis_url) as app:
            uploads.add_rows(report, app, redis_url, plan, _progress)
        pdf_speed.add_rows(report, plan, _progress)
        return report
    if only == "chat-scale":
        with harness.redis_server() as redis_url, harness.app_server(redis_url) as app:
            http_api.add_scale_rows(report, app, redis_url, plan, _progress)
        chat_scale.add_rows(report, plan, _progress)
        return report
    with harness.redis_server() as redis_url:
        with harness.app_server(redis_url) as app:
            startup.add_rows(report, app, plan, _progress)
            http_api.add_rows(report, app, plan, _progress)
            http_api.add_scale_rows(report, app, redis_url, plan, _progress)
            uploads.add_rows(report, app, redis_url, plan, _progress)
            http_api.add_load_rows(report, app, plan, _progress)
        report.tables.append(gateway.planned_table(redis_url, plan, _progress))
    pdf_speed.add_rows(report, plan, _progress)
    retrieval.add_rows(report, plan, _progress)
    chat_scale.add_rows(report, plan, _progress)
    screening.add_rows(report, plan, _progress)
    load = os.getloadavg()
    report.machine["load average at end (1/5/15 min)"] = " / ".join(f"{x:.2f}" for x in load)
    return report


def gateway_only(quick: bool) -> Report:
    """Only the slow-gateway part: a report with no rows and the one table."""
    plan = _plan(quick)
    harness.require("redis-server", "redis-cli")
    report = Report(machine=machine.describe(), settings={})
    with harness.redis_server() as redis_url:
        report.tables.append(gateway.planned_table(redis_url, plan, _progress))
    return report


INTRO = """# Performance

Written by `make bench` (`python -m bench`); do not edit by hand. Every figure is the median of
repeated runs, and every baseline was measured in the same run, interleaved with the figure it
is compared with. Ratios are the point: absolute numbers depend on the machine below.
"""

METHOD_HEADING = "What each figure measures"
METHOD = f"""## {METHOD_HEADING}

The targets are those of issue 9 ("speed as ratios against real baselines"); a row without a
target is there to be read beside the others.

- **chat API**: `POST /api/source-grounded-chat` (package_only, deterministic provider) through
  gunicorn (2 sync workers) on loopback, driven by `wrk` at a fixed concurrency, DRF token
  authentication. Requests rotate over many token users so the chat throttle runs at its shipped
  per-user rate (60/min) without refusing anyone. The baseline is `GET /api/health`, a bare
  authenticated DRF endpoint of the same server: token lookup, middleware, DRF dispatch, nothing
  else. Latency percentiles are wrk's; each figure is the median over the rounds. Server CPU
  per request is the CPU time gunicorn's processes used during a round divided by its requests.
- **chat API at scale**: the same chat requests through gunicorn on the sample package and on
  the generated package of ten copies of it (below, "chat in-process"), each served by its own
  gunicorn (2 sync workers, its own Redis database) side by side, their `wrk` runs alternated
  round by round; p95 is wrk's 95th percentile (printed by the Lua script's `done` hook). The
  target is p95 on the larger package within 1.5x of p95 on the sample. `python -m bench --only
  chat-scale` runs these rows and the in-process ones alone.
- **load run**: one long `wrk` run of the chat endpoint on loopback; any non-2xx response or
  socket error counts as an error.
- **chat in-process**: `services.answer` with the offline provider, without HTTP, in its own
  process with DEBUG off (`bench/chat_scale.py`): 40 held-out questions asked in turn, on the
  sample package and on a generated package of ten copies of it (each copy's artifacts renamed,
  one glossary, review tables declared once); each package warmed by one answer first. The
  target is p95 on the larger package within 1.5x of p95 on the sample. Ten copies are harder
  than a real package ten times the size: every heading the question names is found ten times.
- **retrieval**: synthetic packages of 1k, 10k and 100k rows from `bench/synthetic.py`
  (deterministic pseudo-words with Zipf frequencies, a 60-term glossary, reviewer-style
  questions built from row words). Each engine gets the same rows and questions, each run in a
  fresh process. Build = rows to a queryable index, tokenization included; query = question
  string to the top 8 rows, tokenization included (the app's search also computes its package
  support decision); memory = resident memory the built index holds. bm25s and rank_bm25 index
  title, heading and body as one text with English stopwords and the Snowball stemmer.
- **start-up**: wall time from spawning Python to the first response of the project's WSGI
  module (`aicd.wsgi`, `bare.wsgi`: what gunicorn loads) in that process. The app answers
  `GET /api/health` for a token (settings, apps, middleware, the URLconf with every view, DRF,
  one token query); the heavy optional libraries only a feature uses are imported inside the
  functions that need them, so their cost is in "first answer". The baseline is a
  project fresh from `django-admin startproject` (DEBUG off) with one view; a second baseline adds
  `rest_framework` to that project and serves the view as a DRF `APIView`. Both projects are
  byte-compiled ahead (`python -m compileall`, as `make serve` does), so neither compiles
  source at start even where `PYTHONDONTWRITEBYTECODE` is set. No index is built or loaded
  at start-up: the context pack and its index are built artifacts (`manage.py
  build_context_pack`), loaded on first use; "first answer" adds that first use (the answer
  pipeline's modules, the pack, the tokenizer and the intent rules, which compile on first
  screening). The probe's CPU time
  (user + system) is shown too: it moves less than wall time on a shared machine.
- **extraction**: the generated 75-page text PDF and ~5 MB DOCX (`bench/documents.py`) uploaded
  through `POST /api/session-sources` (multipart) until its 201 record, against `pdftotext` on
  the same PDF (a separate process) and python-docx reading the DOCX's paragraphs in process.
- **PDF extraction**: every PDF of the real-document corpus (`tests/uploads/realdocs`, the
  upload tests' files: accepted, refused and broken alike) and the generated 10-, 30- and
  75-page PDFs, each extracted whole (no session budget) in this process by
  `uploads.extraction.extract_upload` (PDFium for the page text, pypdf's checks and form
  fields), as a worker extracts an upload (imports warmed first), against `pdftotext` on the
  same file (its own process, start included), interleaved; the median of the per-file ratios
  over the real PDFs of 10 or more pages (target at most 2x), the slowest real file (target
  under 0.5 s), then every file. `python -m bench --only uploads` runs the extraction, session
  and PDF rows alone; `python -m bench --only pdf` the PDF rows alone.
- **session**: one paste (25,000 characters) and one .txt upload bring a session to 120,000
  extracted characters; the serialized size is the session's value in Redis (`STRLEN`), the raw
  size the UTF-8 size of those characters, and Redis memory its `MEMORY USAGE`.
- **slow LLM gateway**: its own section above says what it runs; `python -m bench
  --gateway-only` runs that part alone and rewrites only that section.
"""


def main() -> None:
    # Stopping the benchmark (Ctrl-C, or SIGTERM, also when started in the background) still
    # runs its clean-up: gunicorn and redis-server are stopped, temporary files removed.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    parser = argparse.ArgumentParser(prog="python -m bench", description=__doc__)
    parser.add_argument(
        "--quick", action="store_true", help="a short smoke run; does not write docs"
    )
    parser.add_argument(
        "--gateway-only",
        action="store_true",
        help="only the slow-gateway run; rewrites only its section of docs/performance.md",
    )
    parser.add_argument("--samples", type=Path, help="only write the generated PDF and DOCX here")
    parser.add_argument(
        "--only",
        choices=SECTIONS,
        help="run one part (uploads: upload extraction, session size, in-process PDF extraction "
        "against pdftotext; pdf: only the in-process PDF extraction against pdftotext, no "
        "servers; chat-scale: chat p50/p95 through gunicorn and in-process on the sample and "
        "the ten-times package); prints the table, does not write docs",
    )
    args = parser.parse_args()
    if args.samples:
        for kind, path in uploads.write_samples(args.samples).items():
            print(f"{kind}: {path}")
        return
    report = gateway_only(args.quick) if args.gateway_only else run(args.quick, args.only)
    from bench.report import markdown, text_table

    print(text_table(report))
    if args.only:
        print(f"\n(--only {args.only}: docs/performance.md left unchanged)")
        return
    if args.quick:
        print("\n(--quick: docs/performance.md left unchanged)")
        return
    DOC.parent.mkdir(exist_ok=True)
    if args.gateway_only:
        (table,) = report.tables
        DOC.write_text(replace_section(DOC.read_text(), table, before=METHOD_HEADING))
    else:
        DOC.write_text(markdown(report, intro=INTRO, method=METHOD))
    print(f"\nwrote {DOC.relative_to(REPO)}")


if __name__ == "__main__":
    main()
