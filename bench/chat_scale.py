"""Chat latency in-process, on the sample package and on a generated package ten times its size.

What a reviewer waits for is one answer: screening, retrieval and ranking, composition and
verification (``assistant.pipeline.services.answer`` with the offline provider). This measures it
without HTTP, on the shipped sample package and on a package made of ten copies of it (each
copy's artifacts renamed, its declared review tables left out, one glossary), so the figure that
grows with a package's size shows apart from the framework's.

Runs in its own process (``python -m bench.chat_scale`` prints JSON) with the app's settings and
built models, as a worker would load them. Each package is warmed by one answer first (its
section embeddings and caches are built once per process), then every question is asked
``rounds`` times in turn.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import yaml

from bench.harness import call_times_ms, run_json
from bench.report import Report, Row, ms, times

REPO = Path(__file__).resolve().parent.parent
SAMPLE = REPO / "sample_package"
FACTOR = 10
ROUNDS = 3
QUESTIONS = 40
#: p95 on the package ten times the sample's size, against p95 on the sample (issue 27).
SCALE_TARGET = 1.5
#: Front-matter keys a copy leaves out: a package declares its review tables once.
_ONCE = ("review_criteria", "review_prohibitions", "review_not_covered")


def scaled_package(source: Path, factor: int, into: Path) -> Path:
    """``factor`` copies of the package at ``source`` written to ``into``: the first as it is,
    the others with every artifact renamed (file, topic and title) and no review tables."""
    for path in sorted(source.iterdir()):
        if path.is_file():
            (into / path.name).write_bytes(path.read_bytes())
    for copy in range(2, factor + 1):
        for path in sorted(source.glob("*.md")):
            if path.stem == "glossary":
                continue
            _, front, body = path.read_text(encoding="utf-8").split("---\n", 2)
            meta = yaml.safe_load(front)
            meta["topic"] = f"{meta['topic']}-{copy}"
            meta["title"] = f"{meta['title']} ({copy})"
            for key in _ONCE:
                meta.pop(key, None)
            text = "---\n" + yaml.safe_dump(meta, sort_keys=False) + "---\n" + body
            (into / f"{path.stem}-{copy}.md").write_text(text, encoding="utf-8")
    return into


def _percentiles(
    fn: Callable[[str], object], questions: list[str], rounds: int
) -> dict[str, float]:
    fn(questions[0])
    samples = call_times_ms(fn, questions, rounds)
    return {
        "p50_ms": statistics.median(samples),
        "p95_ms": samples[max(0, round(0.95 * len(samples)) - 1)],
    }


def measure(rounds: int = ROUNDS) -> dict[str, float]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aicd.settings")
    django.setup()
    from django.test import override_settings

    from assistant.package.artifacts import load_package
    from assistant.pipeline import services
    from assistant.providers.deterministic import DeterministicProvider
    from assistant.retrieval import context_pack
    from learning.evaluation import answers

    heldout = sorted((REPO / "data" / "answers" / "heldout").glob("*.jsonl"))
    questions = [q.question for q in answers.load(heldout[0])][:QUESTIONS]
    provider = DeterministicProvider()

    def ask(question: str) -> object:
        return services.answer(question=question, provider=provider)

    sample = _percentiles(ask, questions, rounds)
    with tempfile.TemporaryDirectory() as tmp:
        pack = context_pack.build(load_package(scaled_package(SAMPLE, FACTOR, Path(tmp))))
        with override_settings(AICD_PACKAGE_DIR=pack.package_dir):
            saved = context_pack.swap(pack)
            try:
                scaled = _percentiles(ask, questions, rounds)
            finally:
                context_pack.swap(saved)
    return {
        "questions": float(len(questions)),
        "sample_rows": float(len(context_pack.get_context_pack().rows)),
        "scaled_rows": float(len(pack.rows)),
        **{f"sample_{k}": v for k, v in sample.items()},
        **{f"scaled_{k}": v for k, v in scaled.items()},
    }


def compare(rounds: int = ROUNDS) -> dict[str, float]:
    """``measure`` in a fresh interpreter with the app's settings, as a deployed worker runs:
    DEBUG off (no per-request check of the package files)."""
    return run_json("bench.chat_scale", str(rounds), DJANGO_DEBUG="0")


def add_rows(report: Report, plan: dict[str, object], progress: Callable[[str], None]) -> None:
    """In-process chat p50 and p95 on the sample package and on one ten times its size."""
    progress("chat in-process, sample and ten-times package")
    result = compare(rounds=int(plan["retrieval_rounds"]))  # type: ignore[call-overload]
    sample, scaled = int(result["sample_rows"]), int(result["scaled_rows"])
    asked = f"{int(result['questions'])} held-out questions"
    report.add(
        Row(
            "chat in-process",
            f"p50, sample package ({sample} rows), {asked}",
            ms(result["sample_p50_ms"]),
        )
    )
    report.add(
        Row(
            "chat in-process",
            f"p95, sample package ({sample} rows), {asked}",
            ms(result["sample_p95_ms"]),
        )
    )
    report.add(
        Row(
            "chat in-process",
            f"p50, generated package ({scaled} rows, {FACTOR} copies of the sample)",
            ms(result["scaled_p50_ms"]),
            f"sample package {ms(result['sample_p50_ms'])}",
            times(result["scaled_p50_ms"] / result["sample_p50_ms"]),
        )
    )
    ratio = result["scaled_p95_ms"] / result["sample_p95_ms"]
    report.add(
        Row(
            "chat in-process",
            f"p95, generated package ({scaled} rows, {FACTOR} copies of the sample)",
            ms(result["scaled_p95_ms"]),
            f"sample package {ms(result['sample_p95_ms'])}",
            times(ratio),
            f"<= {SCALE_TARGET}x",
            ratio <= SCALE_TARGET,
        )
    )


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS)))
