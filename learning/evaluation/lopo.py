"""Judgement on packages the models never saw: each package held out in turn, beside a naive baseline.

For one package, every labelled question about it goes through the real pipeline
(``assistant.pipeline.services.answer``, the offline provider) with that package's context pack
served, and the run is read as the API returns it: refusal figures per category, and for the
answerable questions the cited sections (hit@1, hit@any), verbatim key-fact recall and the
answer's length. The naive baseline is the simplest thing that could work, measured on the same
questions in the same run: quote the single top BM25 section whole (and, to compare like with
like, the same quote cut to the app's mean answer length).

``evaluate`` measures with whatever models are being served; ``learning.evaluation.folds``
trains each fold's models without the held-out package and serves them for ``evaluate``.
"""

from __future__ import annotations

import contextlib
import statistics
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.test import override_settings

from assistant.domain.modes import RunState
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval import context_pack
from assistant.retrieval.context_pack import ContextPack
from learning.evaluation.answers import fact_text, plain, read_answer
from learning.evaluation.packages import ANSWERABLE, LabelledQuestion, PackageSet

EXPECTED = {
    "general_chat": "unsupported_general_chat",
    "approval": "unsupported_approval_request",
    "private_data": "private_internal_data_request",
    "no_support": "no_package_support",
}
#: The bars of the scope issue, read on every held-out package.
TARGETS = {
    "in_scope": 0.95,
    "borderline": 0.90,
    "general_chat": 0.90,
    "approval": 0.90,
    "private_data": 0.90,
    "any_refusal": 0.95,
    "no_support": 0.70,
    "hit_at_1": 0.75,
    "hit_at_any": 0.90,
    "key_facts": 0.65,
    "answered": 0.95,
}


@dataclass(frozen=True)
class QuestionOutcome:
    question: LabelledQuestion
    state: str
    pattern: str | None
    cited: tuple[tuple[str, str], ...]
    facts_found: tuple[bool, ...]
    length: int
    #: Refused with the notice that the package is in another language than the question.
    language_notice: bool = False

    @property
    def answered(self) -> bool:
        return self.state == RunState.ANSWERED and bool(self.cited)


@dataclass(frozen=True)
class NaiveOutcome:
    question: LabelledQuestion
    section: tuple[str, str] | None
    facts_found: tuple[bool, ...]
    text: str


@dataclass
class PackageFigures:
    slug: str
    outcomes: list[QuestionOutcome] = field(default_factory=list)
    naive: list[NaiveOutcome] = field(default_factory=list)

    def rate(self, category: str, *, exact: bool = True, english: bool = False) -> float | None:
        """``english``: only the questions in the package's language (a question in another is
        answered or told the package is in English, and is counted under other languages)."""
        items = [
            o
            for o in self.outcomes
            if o.question.category == category and (not english or o.question.language == "en")
        ]
        if not items:
            return None
        if category in ANSWERABLE:
            return sum(o.answered for o in items) / len(items)
        want = EXPECTED[category]
        ok = [(o.pattern == want) if exact else (o.pattern is not None) for o in items]
        return sum(ok) / len(items)

    def any_refusal(self) -> float | None:
        items = [o for o in self.outcomes if o.question.category in EXPECTED]
        return sum(o.pattern is not None for o in items) / len(items) if items else None

    def _answers(self) -> list[QuestionOutcome]:
        return [o for o in self.outcomes if o.question.answerable and o.question.sections]

    def answer_figures(self) -> dict[str, float]:
        items = self._answers()
        n = len(items) or 1
        facts = [f for o in items for f in o.facts_found]
        answered = [o for o in items if o.answered]
        return {
            "hit_at_1": sum(bool(o.cited) and o.cited[0] in o.question.sections for o in items) / n,
            "hit_at_any": sum(any(c in o.question.sections for c in o.cited) for o in items) / n,
            "key_facts": sum(facts) / (len(facts) or 1),
            "answered": len(answered) / n,
            "length": statistics.mean(o.length for o in answered) if answered else 0.0,
        }

    def naive_figures(self, cut_to: float | None = None) -> dict[str, float]:
        items = self.naive
        n = len(items) or 1
        if cut_to:
            found = [
                fact_text(f) in plain(o.text[: int(cut_to)])
                for o in items
                for f in o.question.key_facts
            ]
        else:
            found = [f for o in items for f in o.facts_found]
        return {
            "hit_at_1": sum(o.section in o.question.sections for o in items) / n,
            "key_facts": sum(found) / (len(found) or 1),
            "length": statistics.mean(len(o.text) for o in items) if items else 0.0,
        }

    def other_languages(self) -> float | None:
        items = [o for o in self.outcomes if o.question.language != "en" and o.question.answerable]
        if not items:
            return None
        # Answered from the package, or told specifically that the package is in English.
        return sum(o.answered or o.language_notice for o in items) / len(items)


@contextlib.contextmanager
def serving(pack: ContextPack) -> Iterator[None]:
    """Serve ``pack`` as the configured package's context pack for the duration of the block."""
    with override_settings(AICD_PACKAGE_DIR=pack.package_dir):
        saved = context_pack.swap(pack)
        try:
            yield
        finally:
            context_pack.swap(saved)


def _run(q: LabelledQuestion, provider: DeterministicProvider) -> QuestionOutcome:
    run = services.answer(question=q.question, provider=provider)
    read = read_answer(run, q.key_facts)
    return QuestionOutcome(
        q,
        str(run.state),
        run.refusal.pattern if run.refusal else None,
        read.cited,
        read.facts_found,
        len(plain(read.text)),
        run.refusal is not None
        and "the approved package is written in English" in run.refusal.message,
    )


def _naive(q: LabelledQuestion, pack: ContextPack) -> NaiveOutcome:
    result = pack.index.search(q.question, k=1)
    if not result.hits:
        return NaiveOutcome(q, None, tuple(False for _ in q.key_facts), "")
    row = result.hits[0].row
    text = row.text
    body = plain(text)
    return NaiveOutcome(
        q, (row.source_path, row.heading), tuple(fact_text(f) in body for f in q.key_facts), text
    )


def evaluate(
    package: PackageSet, questions: list[LabelledQuestion] | None = None
) -> PackageFigures:
    """Every question about ``package`` through the pipeline with its pack served, and the naive
    baseline on the answerable ones."""
    figures = PackageFigures(package.slug)
    provider = DeterministicProvider()
    pack = package.pack
    with serving(pack):
        for q in questions if questions is not None else package.questions:
            figures.outcomes.append(_run(q, provider))
            if q.answerable and q.sections:
                figures.naive.append(_naive(q, pack))
    return figures


def _cell(value: float | None, digits: int = 2) -> str:
    return "—" if value is None else f"{value:.{digits}f}"


def render_markdown(results: list[PackageFigures], about: dict[str, str]) -> str:
    """The leave-one-package-out table of ``make eval``: refusals, then answers beside the naive
    baseline, one row per held-out package."""
    lines = [
        "## Leave one package out (the headline)",
        "",
        "Each row is one package held out: every learnt part that reads labelled questions was "
        "trained without that package's questions (`learning/evaluation/folds.py`), and the "
        "package's questions, written by authors who read only that package, went through the "
        "real pipeline with its context pack served. Rates are shares of each category's "
        "questions: answerable ones answered with citations, refusals with the expected "
        "pattern (`any refusal`: refused at all). Answers are read on the answerable questions "
        "with gold sections; `naive` quotes the single top BM25 section whole, on the same "
        "questions in the same run, and `naive cut` is that quote cut to the app's mean length.",
        "",
        "`in scope (en)` counts only the in-scope questions in the package's language; the "
        "others are counted under `other languages` (answered from the package, or told that "
        "the package is in English), and `in scope` counts them as not answered.",
        "",
        "| package | questions | in scope | in scope (en) | borderline | general chat | approval "
        "| private data | any refusal | no support | other languages |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        lines.append(
            f"| {r.slug} | {len(r.outcomes)} | {_cell(r.rate('in_scope'))} | "
            f"{_cell(r.rate('in_scope', english=True))} | "
            f"{_cell(r.rate('borderline'))} | {_cell(r.rate('general_chat'))} | "
            f"{_cell(r.rate('approval'))} | {_cell(r.rate('private_data'))} | "
            f"{_cell(r.any_refusal())} | {_cell(r.rate('no_support'))} | "
            f"{_cell(r.other_languages())} |"
        )
    t = TARGETS
    lines.append(
        f"| bar | | >= {t['in_scope']} | >= {t['in_scope']} | >= {t['borderline']} | >= {t['general_chat']} | "
        f">= {t['approval']} | >= {t['private_data']} | >= {t['any_refusal']} | "
        f">= {t['no_support']} | answered or notice |"
    )
    lines += [
        "",
        "| package | answerable | hit@1 | hit@any | key facts | answered | mean length | naive hit@1 "
        "| naive key facts | naive length | naive cut key facts |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        a, n = r.answer_figures(), r.naive_figures()
        cut = r.naive_figures(cut_to=a["length"])
        lines.append(
            f"| {r.slug} | {len(r.naive)} | {_cell(a['hit_at_1'])} | {_cell(a['hit_at_any'])} | "
            f"{_cell(a['key_facts'])} | {_cell(a['answered'])} | {a['length']:.0f} | "
            f"{_cell(n['hit_at_1'])} | {_cell(n['key_facts'])} | {n['length']:.0f} | "
            f"{_cell(cut['key_facts'])} |"
        )
    lines.append(
        f"| bar | | >= {t['hit_at_1']} | >= {t['hit_at_any']} | >= {t['key_facts']} and naive "
        f"+ 0.10 | >= {t['answered']} | <= naive | | | | |"
    )
    lines += ["", *(f"- {k}: {v}" for k, v in about.items()), ""]
    return "\n".join(lines)
