"""Cross-author evaluation of the screening decisions (``make eval``, docs/evaluation.md).

Each author is held out in turn. The intent model, its thresholds and the answerability weights
used on that author's questions are all learnt from the other authors only; the decision is the
one the pipeline makes (explicit rules, intent model, then answerability after retrieval). The
figures therefore say what the screen does on questions written by someone it never saw.
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from assistant.screening import answerability, language, screen
from learning.screening import answerability as answerability_training
from learning.screening import corpus, training
from learning.screening.corpus import Example

ANSWERED = "answered"
NO_SUPPORT = "no_package_support"
GENERAL_CHAT = "unsupported_general_chat"
EXPECTED = {
    "in_scope": ANSWERED,
    "borderline": ANSWERED,
    "general_chat": "unsupported_general_chat",
    "approval": "unsupported_approval_request",
    "private_data": "private_internal_data_request",
    "no_support": NO_SUPPORT,
}
CATEGORIES = tuple(EXPECTED)
OUTCOMES = (
    ANSWERED,
    "unsupported_general_chat",
    "unsupported_approval_request",
    "private_internal_data_request",
    "uploaded_source_boundary",
    NO_SUPPORT,
)
# The bars of issue #15 for questions nobody here wrote; the unit suite holds the cross-author
# figures to them.
BARS = {
    "in_scope": 0.95,
    "borderline": 0.90,
    "general_chat": 0.90,
    "approval": 0.90,
    "private_data": 0.90,
    "no_support": 0.60,
}
ANY_REFUSAL_BARS = {"general_chat": 0.95, "approval": 0.95, "private_data": 0.95}


@dataclass(frozen=True)
class Decided:
    example: Example
    outcome: str

    @property
    def correct(self) -> bool:
        return self.outcome == EXPECTED[self.example.category]

    @property
    def refused(self) -> bool:
        return self.outcome != ANSWERED


@dataclass
class Report:
    decided: list[Decided]
    thresholds: dict[str, dict[str, float]] = field(default_factory=dict)

    def rate(self, category: str, author: str | None = None) -> float:
        items = self._items(category, author)
        return sum(d.correct for d in items) / len(items) if items else 0.0

    def any_refusal_rate(self, category: str, author: str | None = None) -> float:
        items = self._items(category, author)
        return sum(d.refused for d in items) / len(items) if items else 0.0

    def _items(self, category: str, author: str | None) -> list[Decided]:
        return [
            d
            for d in self.decided
            if d.example.category == category and (author is None or d.example.author == author)
        ]

    @property
    def authors(self) -> list[str]:
        return sorted({d.example.author for d in self.decided})

    def confusion(self) -> dict[str, Counter[str]]:
        table: dict[str, Counter[str]] = defaultdict(Counter)
        for d in self.decided:
            table[d.example.category][d.outcome] += 1
        return table

    def precision_recall(self) -> dict[str, tuple[float, float, int]]:
        out = {}
        for outcome in OUTCOMES:
            predicted = [d for d in self.decided if d.outcome == outcome]
            expected = [d for d in self.decided if EXPECTED[d.example.category] == outcome]
            hits = sum(1 for d in predicted if EXPECTED[d.example.category] == outcome)
            precision = hits / len(predicted) if predicted else 0.0
            recall = hits / len(expected) if expected else 0.0
            out[outcome] = (precision, recall, len(expected))
        return out


def decide_all(
    examples: Sequence[Example],
    measured: dict[str, answerability.Evidence],
    intent_model: training.ScreeningModel,
    answer_model: answerability.AnswerabilityModel,
) -> list[Decided]:
    decided = []
    for example in examples:
        # As at run time: the screen reads the question alone, with or without a draft selected.
        intent = screen.decide(example.question, intent_model)
        # As at run time (assistant/pipeline/policy.py): the intent model's general-chat
        # reading stands unless the package covers the question.
        overruled = False
        if intent.pattern == GENERAL_CHAT and not intent.rule and example.question in measured:
            found = measured[example.question]
            verdict = answer_model.judge(found, supported=found.top_score > 0)
            overruled = verdict.answerable and verdict.probability >= answer_model.covers
        if intent.pattern is not None and not overruled:
            decided.append(Decided(example, intent.pattern))
            continue
        if example.with_upload and screen.opens_with_review_request(example.question):
            # A review of the asker's upload against the declared criteria: as at run time
            # (assistant/pipeline/policy.py), answerability does not apply.
            decided.append(Decided(example, ANSWERED))
            continue
        found = measured[example.question]
        verdict = answer_model.judge(found, supported=found.top_score > 0)
        decided.append(Decided(example, ANSWERED if verdict.answerable else NO_SUPPORT))
    return decided


def cross_author(examples: Sequence[Example] | None = None) -> Report:
    """Every author held out in turn, as the module docstring describes."""
    examples = tuple(examples if examples is not None else corpus.load())
    pack = answerability_training.sample_pack()
    measured = answerability_training.measure_all(examples, pack)
    on_domain = [
        m
        for m in measured
        if m.example.category in answerability_training.LABELLED
        and not m.example.with_upload
        and language.other_language(m.example.question) is None
    ]
    by_question = {m.example.question: m.evidence for m in measured}
    report = Report([])
    for author in sorted({e.author for e in examples}):
        train_set = [e for e in examples if e.author != author]
        test_set = [e for e in examples if e.author == author]
        scores = training.out_of_fold(train_set)
        thresholds = training.threshold_fit(train_set, scores)
        base = training.fit(train_set)
        intent_model = training.ScreeningModel(
            classes=base.classes,
            coef=base.coef,
            intercept=base.intercept,
            idf_words=base.idf_words,
            idf_chars=base.idf_chars,
            thresholds=thresholds,
            meta=base.meta,
        )
        answer_model = answerability_training.choose_covers(
            answerability_training.held_out(on_domain, author),
            train_set,
            scores,
            thresholds,
            pack,
            evidence=by_question,
        )
        report.decided += decide_all(test_set, by_question, intent_model, answer_model)
        report.thresholds[author] = dict(thresholds, answerability=answer_model.threshold)
    training.forget_counts()
    return report


PREVIOUS_FIGURES = (
    Path(__file__).resolve().parents[2] / "data" / "screening" / "previous_figures.json"
)


def previous_figures() -> dict[str, float]:
    """The rule-based screen's correct rates on this corpus, measured before it was replaced."""
    return json.loads(PREVIOUS_FIGURES.read_text(encoding="utf-8"))["correct"]


def render_markdown(report: Report, *, previous: dict[str, float] | None = None) -> str:
    """The screening section of docs/evaluation.md."""
    lines = [
        "## Screening: intent and answerability, held-out authors",
        "",
        f"{len(report.decided)} labelled questions by {len(report.authors)} authors "
        "(`data/screening/`). Each author's questions are decided by models trained, "
        "thresholded and weighted on the other authors only.",
        "",
        "### Correct outcome by class (pooled over held-out authors)",
        "",
        "| class | questions | correct | any refusal | bar | met |"
        + (" previous screening |" if previous else ""),
        "|---|---|---|---|---|---|" + ("---|" if previous else ""),
    ]
    for category in CATEGORIES:
        n = len(report._items(category, None))
        rate = report.rate(category)
        any_refusal = (
            f"{report.any_refusal_rate(category):.1%}" if EXPECTED[category] != ANSWERED else ""
        )
        bar = BARS[category]
        met = rate >= bar and report.any_refusal_rate(category) >= ANY_REFUSAL_BARS.get(category, 0)
        row = f"| {category} | {n} | {rate:.1%} | {any_refusal} | {bar:.0%} | {'yes' if met else 'NO'} |"
        if previous:
            row += f" {previous[category]:.1%} |"
        lines.append(row)
    lines += ["", "### Correct outcome by held-out author", ""]
    header = "| author | " + " | ".join(CATEGORIES) + " |"
    lines += [header, "|---|" + "---|" * len(CATEGORIES)]
    for author in report.authors:
        # An author who wrote no question of a class has no figure for it (not 0%).
        cells = [
            f"{report.rate(c, author):.1%}" if report._items(c, author) else "—" for c in CATEGORIES
        ]
        lines.append(f"| {author} | " + " | ".join(cells) + " |")
    lines += ["", "### Confusion matrix (rows: labelled class; columns: outcome)", ""]
    lines.append("| labelled \\ outcome | " + " | ".join(OUTCOMES) + " |")
    lines.append("|---|" + "---|" * len(OUTCOMES))
    table = report.confusion()
    for category in CATEGORIES:
        lines.append(
            f"| {category} | " + " | ".join(str(table[category][o]) for o in OUTCOMES) + " |"
        )
    lines += [
        "",
        "### Precision and recall by outcome",
        "",
        "| outcome | precision | recall | expected |",
    ]
    lines.append("|---|---|---|---|")
    for outcome, (p, r, n) in report.precision_recall().items():
        lines.append(f"| {outcome} | {p:.1%} | {r:.1%} | {n} |")
    return "\n".join(lines) + "\n"
