"""Screening speed: the learnt screen per question against the rule screen it replaced, and the
worst question a user can send (one 2,000-letter word) against an ordinary one.

Runs in its own process (``python -m bench.screening`` prints JSON) so that Django is set up
with the app's settings and the built screening artifact, as a worker would load them.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
from collections.abc import Callable

from bench.harness import call_times_ms, run_json
from bench.report import Report, Row, ms, times

ROUNDS = 5


def _p50_ms(fn: Callable[[str], object], items: list[str], rounds: int) -> float:
    return statistics.median(call_times_ms(fn, items, rounds))


def measure(rounds: int = ROUNDS) -> dict[str, float]:
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aicd.settings")
    django.setup()
    from assistant.pipeline import policy
    from assistant.retrieval.context_pack import get_context_pack
    from bench import rule_screen
    from learning.screening import corpus

    questions = [e.question for e in corpus.load()][::10]
    pack = get_context_pack()
    policy.screen_intent(questions[0])  # load the artifact before timing

    def full(question: str) -> None:
        screened = policy.screen_intent(question)
        if screened.refusal is None:
            policy.decide(question, pack.index.search(question, k=8), pack)

    worst = ["q" * 2000, " ".join(["zyxwvutsrq" * 20] * 9)[:2000]]
    ordinary = ["Who decides the production go-live, and what evidence do they need?"] * 2
    return {
        "questions": float(len(questions)),
        "screen_p50_ms": _p50_ms(policy.screen_intent, questions, rounds),
        "rule_screen_p50_ms": _p50_ms(rule_screen.screen, questions, rounds),
        "worst_p50_ms": _p50_ms(full, worst, rounds * 4),
        "ordinary_p50_ms": _p50_ms(full, ordinary, rounds * 4),
    }


def compare(rounds: int = ROUNDS) -> dict[str, float]:
    """``measure`` in a fresh interpreter with the app's settings."""
    return run_json("bench.screening", str(rounds))


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else ROUNDS)))


def add_rows(report: Report, plan: dict[str, object], progress: Callable[[str], None]) -> None:
    """The screening rows: the intent screen against the old rule screen, and the worst question."""
    progress("screening")
    result = compare(rounds=int(plan["retrieval_rounds"]))  # type: ignore[call-overload]
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
