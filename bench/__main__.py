"""`make bench` (``python -m bench``): run every benchmark, print the table, write docs/performance.md.

Every figure is a median over repeated runs, and each baseline is measured in the same run,
interleaved with the figure it is compared with, so the ratios hold on a busy machine too.
``--quick`` is a smoke run (smaller sizes, fewer rounds); its figures are not for the docs.
``--gateway-only`` runs only the slow-gateway part and rewrites only its section of the doc.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import tempfile
import time
from pathlib import Path
from statistics import median

from bench import gateway, harness, http_api, machine, retrieval, screening, startup, uploads
from bench.report import Report, Row, Table, mib, ms, replace_section, times

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


CONNECTIONS = 4
LOAD_CONNECTIONS = 8


SECTIONS = ("uploads",)


def run(quick: bool, only: str | None = None) -> Report:
    plan = _plan(quick)
    harness.require("redis-server", "redis-cli", "pdftotext", *(() if only else ("wrk",)))
    report = Report(
        machine=machine.describe(),
        settings={
            "mode": "quick smoke run (not for the docs)" if quick else "full",
            "server": "gunicorn, 2 sync workers, 127.0.0.1, Redis cache/sessions/throttles, SQLite accounts",
            "chat": f"package_only, deterministic provider, {len(http_api.QUESTIONS)} answered questions in turn, "
            f"{harness.TOKEN_USERS} token users at the shipped 60/min chat throttle",
            "concurrency": f"{CONNECTIONS} connections (comparisons), {LOAD_CONNECTIONS} (load run)",
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
    if only == "uploads":
        with harness.redis_server() as redis_url, harness.app_server(redis_url) as app:
            _uploads(report, app, redis_url, plan)
        _pdf_speed(report, plan)
        return report
    with harness.redis_server() as redis_url:
        with harness.app_server(redis_url) as app:
            _startup(report, app, plan)
            _http(report, app, plan)
            _uploads(report, app, redis_url, plan)
            _load(report, app, plan)
        report.tables.append(_gateway(redis_url, plan))
    _pdf_speed(report, plan)
    _retrieval(report, plan)
    _screening(report, plan)
    load = os.getloadavg()
    report.machine["load average at end (1/5/15 min)"] = " / ".join(f"{x:.2f}" for x in load)
    return report


def gateway_only(quick: bool) -> Report:
    """Only the slow-gateway part: a report with no rows and the one table."""
    plan = _plan(quick)
    harness.require("redis-server", "redis-cli")
    report = Report(machine=machine.describe(), settings={})
    with harness.redis_server() as redis_url:
        report.tables.append(_gateway(redis_url, plan))
    return report


def _gateway(redis_url: str, plan: dict[str, object]) -> Table:
    load_before = os.getloadavg()[0]
    rounds = int(plan["gateway_rounds"])  # type: ignore[call-overload]
    levels = gateway.run(
        redis_url=redis_url,
        delay_s=float(plan["gateway_delay_s"]),  # type: ignore[arg-type]
        thread_settings=plan["gateway_threads"],  # type: ignore[arg-type]
        factors=plan["gateway_factors"],  # type: ignore[arg-type]
        rounds=rounds,
        progress=_progress,
    )
    return gateway.table(
        levels, rounds=rounds, load_before=load_before, load_after=os.getloadavg()[0]
    )


def _startup(report: Report, app: harness.App, plan: dict[str, object]) -> None:
    _progress("start-up probes")
    result = startup.compare(app.env, app.token, rounds=int(plan["startup_rounds"]))  # type: ignore[call-overload]
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


def _http(report: Report, app: harness.App, plan: dict[str, object]) -> None:
    _progress("chat API against GET /api/health")
    http_api.check_answers(app)
    c = http_api.compare(
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


def _load(report: Report, app: harness.App, plan: dict[str, object]) -> None:
    seconds = int(plan["load_seconds"])  # type: ignore[call-overload]
    _progress(f"{seconds} s load run")
    r = http_api.load_run(app, seconds=seconds, connections=LOAD_CONNECTIONS)
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


def _uploads(report: Report, app: harness.App, redis_url: str, plan: dict[str, object]) -> None:
    _progress("extraction and session size")
    try:
        e = uploads.extraction(app, rounds=int(plan["upload_rounds"]))  # type: ignore[call-overload]
        report.add(
            Row(
                "extraction",
                f"{uploads.PDF_PAGES}-page text PDF ({e.pdf_bytes / 1024:,.0f} KiB, "
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
        s = uploads.session_size(app, redis_url, sessions=int(plan["sessions"]))  # type: ignore[call-overload]
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
    except uploads.Unavailable as exc:
        report.skipped.append(f"extraction and session size: {exc}")


def _pdf_speed(report: Report, plan: dict[str, object]) -> None:
    _progress("PDF extraction in process against pdftotext (real corpus and generated PDFs)")
    timings = uploads.pdf_corpus(rounds=int(plan["upload_rounds"]))  # type: ignore[call-overload]
    long = [t for t in timings if t.pages >= uploads.LONG_PDF_PAGES]
    if long:
        ratio = median(t.ratio for t in long)
        report.add(
            Row(
                "PDF extraction",
                f"in process, median ratio over the {len(long)} PDFs of "
                f"{uploads.LONG_PDF_PAGES}+ pages",
                times(ratio),
                "pdftotext on the same files",
                times(ratio),
                "<= 3x",
                ratio <= 3,
            )
        )
    report.add(
        Row(
            "PDF extraction",
            f"in process, median ratio over all {len(timings)} PDFs",
            times(median(t.ratio for t in timings)),
            "pdftotext on the same files",
            times(median(t.ratio for t in timings)),
        )
    )
    slowest = max(timings, key=lambda t: t.extract_s)
    report.add(
        Row(
            "PDF extraction",
            f"slowest file: {slowest.name} ({slowest.pages} pages, {slowest.outcome})",
            f"{slowest.extract_s:.2f} s",
            f"pdftotext {slowest.pdftotext_s:.2f} s",
            times(slowest.ratio),
            "<= 2 s",
            slowest.extract_s <= 2,
        )
    )
    for t in sorted(long, key=lambda t: -t.ratio):
        report.add(
            Row(
                "PDF extraction",
                f"{t.name}: {t.pages} pages, {t.bytes / 1024:,.0f} KiB, {t.outcome}",
                ms(t.extract_s * 1000),
                f"pdftotext {ms(t.pdftotext_s * 1000)}",
                times(t.ratio),
            )
        )


def _retrieval(report: Report, plan: dict[str, object]) -> None:
    with tempfile.TemporaryDirectory(prefix="aicd-bench-retrieval-") as tmp:
        result = retrieval.compare(
            plan["sizes"],
            rounds=int(plan["retrieval_rounds"]),
            queries=int(plan["queries"]),  # type: ignore[arg-type,call-overload]
            rank_bm25_queries=plan["rank_bm25_queries"],
            workdir=Path(tmp),
            progress=_progress,  # type: ignore[arg-type]
        )
    largest = max(result)
    for size, engines in result.items():
        app, b25s, rank = engines["app"], engines["bm25s"], engines["rank_bm25"]
        label = f"{size:,} rows"
        vs_bm25s = app["query_p50_ms"] / b25s["query_p50_ms"]
        speedup = rank["query_p50_ms"] / app["query_p50_ms"]
        target = size == largest and size >= 100_000
        report.add(
            Row(
                "retrieval",
                f"{label}: query p50",
                ms(app["query_p50_ms"]),
                f"bm25s {ms(b25s['query_p50_ms'])}",
                times(vs_bm25s),
                "<= 2x" if target else "",
                vs_bm25s <= 2 if target else None,
            )
        )
        report.add(
            Row(
                "retrieval",
                f"{label}: query p50",
                ms(app["query_p50_ms"]),
                f"rank_bm25 {ms(rank['query_p50_ms'])}",
                f"{speedup:,.0f}x faster",
                ">= 50x faster" if target else "",
                speedup >= 50 if target else None,
            )
        )
        report.add(
            Row(
                "retrieval",
                f"{label}: index build",
                ms(app["build_ms"]),
                f"bm25s {ms(b25s['build_ms'])}; rank_bm25 {ms(rank['build_ms'])}",
                times(app["build_ms"] / b25s["build_ms"]),
            )
        )
        report.add(
            Row(
                "retrieval",
                f"{label}: index memory",
                mib(app["memory_bytes"]),
                f"bm25s {mib(b25s['memory_bytes'])}; rank_bm25 {mib(rank['memory_bytes'])}",
                times(app["memory_bytes"] / max(b25s["memory_bytes"], 1)),
            )
        )


def _screening(report: Report, plan: dict[str, object]) -> None:
    _progress("screening")
    result = screening.compare(rounds=int(plan["retrieval_rounds"]))  # type: ignore[call-overload]
    ratio = result["screen_p50_ms"] / result["rule_screen_p50_ms"]
    report.add(
        Row(
            "screening",
            f"intent screen p50 ({int(result['questions'])} corpus questions)",
            ms(result["screen_p50_ms"]),
            f"rule screen {ms(result['rule_screen_p50_ms'])}",
            times(ratio),
            "< 5 ms",
            result["screen_p50_ms"] < 5,
        )
    )
    report.add(
        Row(
            "screening",
            "worst question (2,000 letters, no spaces): screen + retrieval + answerability p50",
            ms(result["worst_p50_ms"]),
            f"ordinary question {ms(result['ordinary_p50_ms'])}",
            times(result["worst_p50_ms"] / result["ordinary_p50_ms"]),
        )
    )


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
- **load run**: one long `wrk` run of the chat endpoint on loopback; any non-2xx response or
  socket error counts as an error.
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
  `uploads.extraction.extract_upload`, as a worker extracts an upload (imports warmed first),
  against `pdftotext` on the same file (its own process, start included), interleaved; the
  median of the per-file ratios over the PDFs of 10 or more pages, and the slowest file.
  `python -m bench --only uploads` runs the extraction, session and PDF rows alone.
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
        "against pdftotext); prints the table, does not write docs",
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
