"""The grounding evaluation: refusal precision/recall, answer rates and top-3 retrieval hit rate."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant import services
from assistant.context_pack import get_context_pack
from assistant.providers.deterministic import DeterministicProvider

ANSWERED = "answered"
# These three early sets are part of the screening corpus (authors session-a, -b and -c), so the
# shipped screening model has seen them: their refusal rates are reported for continuity, not as
# a measure (the cross-author screening evaluation is). Retrieval's top-3 hit rate is not learnt
# from them and keeps its target.
TARGETS = {
    "top3_hit_rate": 0.90,
}
CATEGORY_TARGET = {
    "in_scope": "in_scope_answered",
    "borderline": "borderline_answered",
    "general_chat": "general_chat_refused",
    "approval": "approval_refused",
    "private_data": "private_data_refused",
}


@dataclass(frozen=True)
class Question:
    id: str
    category: str
    question: str
    expected: str
    topic: str = ""
    alt_topics: tuple[str, ...] = ()


@dataclass
class Outcome:
    question: Question
    decision: str
    cited: bool
    top3_topics: tuple[str, ...]

    @property
    def correct(self) -> bool:
        if self.question.expected == ANSWERED:
            return self.decision == ANSWERED and self.cited
        return self.decision == self.question.expected

    @property
    def hit(self) -> bool:
        wanted = {self.question.topic, *self.question.alt_topics} - {""}
        return bool(wanted & set(self.top3_topics))


@dataclass
class Report:
    outcomes: list[Outcome]
    rates: dict[str, float] = field(default_factory=dict)
    per_pattern: dict[str, dict[str, float]] = field(default_factory=dict)

    @property
    def failures(self) -> list[Outcome]:
        return [o for o in self.outcomes if not o.correct]

    def meets_targets(self) -> bool:
        return all(self.rates.get(k, 0.0) >= v for k, v in TARGETS.items() if k in self.rates)


def load_questions(path: Path) -> list[Question]:
    questions = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        raw = json.loads(line)
        try:
            questions.append(
                Question(
                    id=raw["id"],
                    category=raw["category"],
                    question=raw["question"],
                    expected=raw["expected"],
                    topic=raw.get("topic", ""),
                    alt_topics=tuple(raw.get("alt_topics", ())),
                )
            )
        except KeyError as exc:
            raise ValueError(f"{path}:{number}: missing key {exc}") from None
    return questions


def evaluate(questions: list[Question]) -> Report:
    """Run every question through the real pipeline (offline provider) and score it."""
    provider = DeterministicProvider()
    index = get_context_pack().index
    outcomes = []
    for q in questions:
        run = services.answer(question=q.question, provider=provider)
        decision = run.refusal.pattern if run.refusal else run.state.value
        top3: tuple[str, ...] = ()
        if q.expected == ANSWERED:
            top3 = tuple(h.row.topic for h in index.search(q.question, k=3).hits)
        outcomes.append(Outcome(q, decision, bool(run.citations), top3))
    return score(outcomes)


def score(outcomes: list[Outcome]) -> Report:
    report = Report(outcomes)
    by_category: dict[str, list[Outcome]] = defaultdict(list)
    for o in outcomes:
        by_category[o.question.category].append(o)
    for category, items in by_category.items():
        name = CATEGORY_TARGET.get(category, f"{category}_correct")
        report.rates[name] = sum(o.correct for o in items) / len(items)
    answerable = [o for o in outcomes if o.question.expected == ANSWERED and o.question.topic]
    if answerable:
        report.rates["top3_hit_rate"] = sum(o.hit for o in answerable) / len(answerable)
    predicted = Counter(o.decision for o in outcomes)
    expected = Counter(o.question.expected for o in outcomes)
    for pattern in sorted(set(predicted) | set(expected)):
        tp = sum(1 for o in outcomes if o.decision == pattern and o.question.expected == pattern)
        report.per_pattern[pattern] = {
            "precision": tp / predicted[pattern] if predicted[pattern] else 0.0,
            "recall": tp / expected[pattern] if expected[pattern] else 0.0,
            "support": float(expected[pattern]),
        }
    return report


HEADER = """# Grounding evaluation

Produced by `make eval`: every labelled question goes through the real pipeline
(`assistant.services.answer`, deterministic offline provider). A question expected to be
answered counts only when it is answered **with a package citation**; a refusal counts only
with the right pattern. "Top-3 hit" asks whether the three best rows include a row of the
labelled artifact. The unit suite (`tests/eval/test_grounding_eval.py`) enforces the targets
on every set below.

How the sets were used, so the figures can be read honestly:

| set | questions | author | role | first run, before any tuning on it |
|---|---|---|---|---|
| `questions.jsonl` | 260 | helper session A | tuning set: thresholds and intent rules calibrated on it | in-scope 59%, approval 52%, private 45% |
| `heldout.jsonl` | 145 | helper session B, without seeing the rules | first generalisation check | in-scope 89.3%, borderline 86.7%, general chat 80.0%, approval 60.0%, private 53.3%, top-3 92.2% |
| `fresh.jsonl` | 150 | helper session C, without seeing code or sets | second generalisation check, after the ask + target rewrite | in-scope 93.3%, borderline 80.0%, general chat 80.0%, approval 80.0%, private 60.0%, top-3 97.5% |

After each check the misses were studied by *kind* (an ask phrased without "you", a secret named
after the verb, a sentence split by a dash, a support threshold too strict for borderline
questions) and the rules generalised, so the figures below are after tuning on all three.
The first-run column is the better estimate for unseen questions.

`no_support` questions (outside the package) carry no target. The support threshold was set to
meet the in-scope and borderline targets, and lexical retrieval cannot tell every near-domain
question from a covered one, so many of them are answered with quotes from the nearest rows;
those answers still cite the rows they quote with their claim boundaries, and never claim
more than the quoted sentences.

"""


def render_markdown(
    report: Report, *, package_version: str, source: str = "questions.jsonl"
) -> str:
    """One set's report as Markdown (a section of docs/evaluation.md)."""
    lines = [
        f"## `{source}`",
        "",
        f"Package version `{package_version}`, {len(report.outcomes)} labelled questions.",
        "",
        "### Targets",
        "",
        "| measure | value | target | met |",
        "|---|---|---|---|",
    ]
    for key, target in TARGETS.items():
        value = report.rates.get(key)
        if value is None:
            continue
        lines.append(
            f"| {key} | {value:.1%} | {target:.0%} | {'yes' if value >= target else 'NO'} |"
        )
    for key, value in sorted(report.rates.items()):
        if key not in TARGETS:
            lines.append(f"| {key} | {value:.1%} | (no target) | |")
    lines += [
        "",
        "### Refusal decision by pattern",
        "",
        "| decision | precision | recall | questions |",
        "|---|---|---|---|",
    ]
    for pattern, m in report.per_pattern.items():
        lines.append(
            f"| {pattern} | {m['precision']:.1%} | {m['recall']:.1%} | {int(m['support'])} |"
        )
    lines += ["", "### Misses", ""]
    if not report.failures:
        lines.append("None.")
    for o in report.failures:
        lines.append(
            f"- `{o.question.id}` ({o.question.category}) expected `{o.question.expected}`, "
            f"got `{o.decision}`: {o.question.question}"
        )
    misses = [
        o
        for o in report.outcomes
        if o.question.expected == ANSWERED and o.question.topic and not o.hit
    ]
    lines += ["", "### Retrieval misses (top 3 lacks the labelled topic)", ""]
    lines += [
        f"- `{o.question.id}` want `{o.question.topic}`, got {list(o.top3_topics)}" for o in misses
    ] or ["None."]
    return "\n".join(lines) + "\n"


def as_dict(report: Report) -> dict[str, Any]:
    return {
        "rates": report.rates,
        "per_pattern": report.per_pattern,
        "failures": len(report.failures),
    }
