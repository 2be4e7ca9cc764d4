"""Retrieval over synthetic packages: the app's index against bm25s and rank_bm25, same rows and questions.

Each (engine, size, round) runs in a fresh process so that its memory figure is its own:
``python -m bench.retrieval ENGINE ROWS.jsonl QUESTIONS.json N_QUERIES`` prints one JSON line.

What is timed, for every engine alike:
- build: from PackageRow objects to a queryable index, tokenization included;
- query: from the question string to the top 8 row ids, tokenization included;
- memory: resident memory the built index holds (RSS after build minus RSS before, after gc).
The app's search also decides package support (coverage of the question's words), which the
baselines do not do; its time is included, not subtracted.
"""

from __future__ import annotations

import gc
import json
import os
import re
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from assistant.domain.types import PackageRow
from bench.harness import call_times_ms
from bench.report import Report, Row, mib, ms, times

K = 8
ENGINES = ("app", "bm25s", "rank_bm25")


def rss_bytes() -> int:
    """Resident set size of this process (Linux /proc)."""
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE")


def _doc_text(row: PackageRow) -> str:
    # What a user of a general BM25 library would index: title, heading and body together.
    return f"{row.title}\n{row.heading}\n{row.text}"


def _build_app(rows: list[PackageRow]) -> Callable[[str], list[int]]:
    from assistant.package.expansion import Expansion
    from assistant.retrieval.index import Index
    from bench import synthetic

    index = Index.build(rows, Expansion.from_glossary(synthetic.glossary()))
    position = {row.row_id: i for i, row in enumerate(rows)}

    def query(question: str) -> list[int]:
        return [position[h.row.row_id] for h in index.search(question, k=K).hits]

    query.index = index  # type: ignore[attr-defined]  # keep it alive with the closure
    return query


def _build_bm25s(rows: list[PackageRow]) -> Callable[[str], list[int]]:
    import bm25s
    import Stemmer

    stemmer = Stemmer.Stemmer("english")
    retriever = bm25s.BM25()
    retriever.index(
        bm25s.tokenize(
            [_doc_text(r) for r in rows], stopwords="en", stemmer=stemmer, show_progress=False
        ),
        show_progress=False,
    )

    def query(question: str) -> list[int]:
        tokens = bm25s.tokenize(question, stopwords="en", stemmer=stemmer, show_progress=False)
        docs, _ = retriever.retrieve(tokens, k=K, show_progress=False)
        return [int(d) for d in docs[0]]

    return query


def _build_rank_bm25(rows: list[PackageRow]) -> Callable[[str], list[int]]:
    import numpy as np
    import Stemmer
    from rank_bm25 import BM25Okapi

    from core.text import STOPWORDS

    stemmer = Stemmer.Stemmer("english")
    word = re.compile(r"[a-z0-9]+")

    def tokenize(text: str) -> list[str]:
        return stemmer.stemWords([w for w in word.findall(text.lower()) if w not in STOPWORDS])

    bm25 = BM25Okapi([tokenize(_doc_text(r)) for r in rows])

    def query(question: str) -> list[int]:
        scores = bm25.get_scores(tokenize(question))
        top = np.argpartition(scores, -K)[-K:]
        return [int(i) for i in top[np.argsort(-scores[top])]]

    return query


BUILDERS = {"app": _build_app, "bm25s": _build_bm25s, "rank_bm25": _build_rank_bm25}


def measure(engine: str, rows: list[PackageRow], questions: list[str]) -> dict[str, float]:
    """Build once and run every question once; times in milliseconds, memory in bytes."""
    gc.collect()
    before = rss_bytes()
    start = time.perf_counter()
    query = BUILDERS[engine](rows)
    build_ms = (time.perf_counter() - start) * 1000
    gc.collect()
    held = rss_bytes() - before
    query(questions[0])  # first-call set-up (lazy tables) is not a per-query cost
    times = call_times_ms(query, questions)
    return {
        "build_ms": build_ms,
        "query_p50_ms": times[len(times) // 2],
        "memory_bytes": held,
        "queries": len(times),
    }


def write_inputs(size: int, directory: Path, n_questions: int) -> tuple[Path, Path]:
    """The synthetic package of ``size`` rows and its questions, as files for the workers."""
    from bench import synthetic

    package = synthetic.rows(size)
    rows_path = directory / f"rows-{size}.jsonl"
    rows_path.write_text("\n".join(json.dumps(r.to_dict(), ensure_ascii=False) for r in package))
    questions_path = directory / f"questions-{size}.json"
    questions_path.write_text(json.dumps(synthetic.questions(package, n_questions)))
    return rows_path, questions_path


def run_worker(
    engine: str, rows_path: Path, questions_path: Path, n_queries: int
) -> dict[str, float]:
    """One measurement in a fresh process."""
    import subprocess

    repo = Path(__file__).resolve().parent.parent
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "bench.retrieval",
            engine,
            str(rows_path),
            str(questions_path),
            str(n_queries),
        ],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"retrieval worker {engine} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def compare(
    sizes: tuple[int, ...],
    *,
    rounds: int,
    queries: int,
    rank_bm25_queries: dict[int, int],
    workdir: Path,
    progress: Callable[[str], None],
) -> dict[int, dict[str, dict[str, float]]]:
    """Per size and engine, the median of each figure over ``rounds`` fresh-process runs."""
    from statistics import median

    out: dict[int, dict[str, dict[str, float]]] = {}
    for size in sizes:
        rows_path, questions_path = write_inputs(size, workdir, queries)
        runs: dict[str, list[dict[str, float]]] = {e: [] for e in ENGINES}
        for round_ in range(rounds):
            for engine in ENGINES:
                n = rank_bm25_queries.get(size, queries) if engine == "rank_bm25" else queries
                progress(f"retrieval {size:,} rows, {engine}, round {round_ + 1}/{rounds}")
                runs[engine].append(run_worker(engine, rows_path, questions_path, n))
        out[size] = {
            engine: {key: median(r[key] for r in results) for key in results[0] if key != "engine"}
            for engine, results in runs.items()
        }
    return out


def add_rows(report: Report, plan: dict[str, object], progress: Callable[[str], None]) -> None:
    """The retrieval rows per package size: query p50, index build and memory against bm25s and rank_bm25."""
    with tempfile.TemporaryDirectory(prefix="aicd-bench-retrieval-") as tmp:
        result = compare(
            plan["sizes"],
            rounds=int(plan["retrieval_rounds"]),
            queries=int(plan["queries"]),  # type: ignore[arg-type,call-overload]
            rank_bm25_queries=plan["rank_bm25_queries"],
            workdir=Path(tmp),
            progress=progress,  # type: ignore[arg-type]
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


def main(argv: list[str]) -> None:
    engine, rows_path, questions_path, n_queries = argv
    if engine not in ENGINES:
        raise SystemExit(f"engine must be one of {ENGINES}")
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aicd.settings")
    rows = [PackageRow(**json.loads(line)) for line in Path(rows_path).read_text().splitlines()]
    questions = json.loads(Path(questions_path).read_text())[: int(n_queries)]
    print(json.dumps({"engine": engine, "rows": len(rows), **measure(engine, rows, questions)}))


if __name__ == "__main__":
    main(sys.argv[1:])
