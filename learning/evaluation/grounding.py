"""The grounding evaluation: refusal precision/recall, answer rates and top-3 retrieval hit rate."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval.context_pack import get_context_pack

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


HEADER = """# Evaluation

Produced by `make eval` (`manage.py evaluate`). Every figure below says which data it was
measured on, and who wrote that data. A figure counts only on data the tuning never saw: each
section names its tuning data and its held-out data, and the unit suite asserts floors on the
held-out figures only.

| section | data | authors | tuned on | measured on |
|---|---|---|---|---|
| Screening (intent + answerability) | `data/screening/`, 8,000+ questions, six classes | five persona authors (architect, hurried, newcomer, redteam, operator), the three earlier eval sets as authors session-a/b/c, two authors of questions that name the asker's own tools and names (integrator, context2) and two of review requests about the asker's uploaded draft (reviewreq, reviewreq2, marked `with_upload`) | the other authors of each fold | each author held out in turn; `operator` was written last and never used for any design choice |
| Answer quality | `data/ranking/` (1,658 questions), `data/answers/heldout/` (1,508) | analyst, auditor, opsdirector, servicedesk, sponsor, chatops, qalead, intern, vendormgr (ranker training and the labelled-question memory); counsel, pm (held out, checked in aggregate during design); sre, exec (final test, measured at design freeze); ml, newhire (second final test, measured once); procurement, frontline (third final test, measured once); riskmgr, slack (fourth final test, written during a later round by authors who saw none of its changes; measured before the unit ranker landed and once after, never used for a design choice); finctl, uxres, helpdesk (fifth final test, written in the round that added the labelled-question memory, first measured after its design was fixed, then twice more: with three more training authors and with the votes reweighted on training figures; its questions were never read) | `questions-*.jsonl` in `data/ranking/` | `heldout-*.jsonl`, `final-*.jsonl`, `final2-*.jsonl` to `final5-*.jsonl` |
| Criteria-level review | `data/reviews/training/` (46 training drafts), `data/reviews/heldout/` (20 held-out drafts); planted gaps, Markdown, DOCX, PDF | consultant, engineer, platform-lead, secarch (training the evidence model; each read out of author); privacy, opslead (held out, written after the model's design was fixed, measured once) | `data/reviews/training/` | `data/reviews/heldout/privacy/`, `data/reviews/heldout/opslead/` |
| Claim verifier | claims built from the package rows | generated (seeded) | the tune half of the artifacts | the held-out half |
| Early end-to-end sets | `data/eval/*.jsonl` | helper sessions A, B, C | now part of the screening corpus | retrieval top-3 only (their refusal rates are training figures) |

## How the screening works and how it is measured

The intent screen (`assistant/screening/`) decides, before retrieval and before any provider
call, whether a question asks for general chat, an approval, or private/internal data. It reads
the question's plain spelling (NFKC, invisible characters dropped, look-alike letters folded,
digit-for-letter and spaced-out spellings joined) and scores it with a one-vs-rest logistic
regression over hashed word (1-2) and character (2-5) n-grams, trained by stochastic gradient
descent with a fixed seed. Every request of a question is screened: the question is split into
its sentences, clauses, list items and "then ..." clauses (`assistant/screening/requests.py`),
with quoted text set apart as context, and each request is scored alone as well as the question
whole; a request hidden in base64, ROT13 or reversed text (`assistant/screening/decoding.py`:
decoded when the decoding reads as English prose and the original does not) is one more
request, read decoded. A class is refused when the whole question's probability reaches the
class's threshold; an approval or a private-data request is also refused when one request's
probability reaches the class's request threshold (off-topic stays a property of the whole
question: a greeting beside a fair request is not general chat). All five thresholds are chosen
by coordinate ascent on **out-of-fold** probabilities (each training author scored, whole and
by request, by a model that did not see them; request thresholds from 0.6 to 0.9), maximising
the mean per-class accuracy while keeping at least 98% of answerable questions asked without an upload. (Training
on request-shaped examples, every request of an answerable question and every question set
among other text, was tried and dropped: it cut bypasses little, 59 against 64 of 317 on the
authors checked while designing, and lowered the scores of short blunt requests.) A question
in another language than the package's is answered with the notice that the package is in
English before retrieval, unless the screen recognised it as an approval, private-data or
upload-boundary request (which keep their refusal): the package is matched, and the screen
learnt requests, in the package's language. A handful of explicit rules stay beside the model
where a rule is clearly right: promoting or keeping uploads (the seed's uploaded-source
boundary), leaving the source boundary ("ignore the package": refused with the model's most
likely refusal class), and asking for a secret-shaped variable's value; they match addressed
requests only, with quoted passages removed, and none of them fires on an answerable question of
the corpus. After retrieval, answerability (`assistant/screening/answerability.py`) refuses
`no_package_support` when the question's specific subjects that the package never mentions
outweigh the rows' coverage, with weights learnt from the corpus against the shipped package.
Its evidence tells the asking part of a question (the last sentence with a question mark, after
a leading clause set off by a comma) from the context the asker gives around it, so a name the
package never uses counts differently in "We run Splunk; what must logs never contain?" and in
"Which Splunk index should gateway logs go to?". Two authors (`reviewreq`, `reviewreq2`) wrote
requests about the asker's own uploaded draft; their questions are marked `with_upload` and
decided as the pipeline decides them with the draft selected: the intent screen reads the
question alone, as it does for every question; a request that opens by asking for a review of
the draft is answered by the review against the package's declared criteria, so answerability is
not applied to it; any other question is judged as without the upload. Answerability is trained without them, and the
intent thresholds are chosen on the questions asked without an upload.

The cross-author figures hold every author out in turn: the intent weights, the thresholds
(from out-of-fold scores of the remaining authors only) and the answerability weights that
decide an author's questions are all learnt without that author. No word list or rule was grown
from a miss; the design choices (model family, features, the answerability features) were made
on cross-author figures of the first seven authors, and `operator` was held back until they were
fixed. The previous screening's column is the rule-based screen this replaced, measured on the
same corpus before it was removed (`data/screening/previous_figures.json`); it had been
tuned on authors session-a/b/c.

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
