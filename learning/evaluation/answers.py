"""Answer-quality evaluation: cited sections (hit@1, hit@any), key-fact recall and answer rate.

Each labelled question names the sections a careful expert would cite (first is best) and the
verbatim package phrases a good answer must contain. A question goes through the real pipeline
(`assistant.pipeline.services.answer`, deterministic offline provider); the figures read the run as the
API returns it.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from assistant.domain import lanes
from assistant.domain.modes import RunState
from assistant.domain.types import Run
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval import question_memory
from learning.evaluation.figures_table import figures_table

# The bars of issue #16, read on the held-out set.
ANSWER_TARGETS = {"hit_at_1": 0.75, "hit_at_any": 0.90, "key_fact_recall": 0.65, "answered": 0.95}
_MARKER = re.compile(r"\[[PCU]\d+(?:\s*,\s*[PCU]\d+)*\]")
_MARKUP = re.compile(r"[*_`#>|]+")


@dataclass(frozen=True)
class AnswerQuestion:
    id: str
    author: str
    question: str
    sections: tuple[tuple[str, str], ...]
    key_facts: tuple[str, ...]
    qtype: str


@dataclass(frozen=True)
class AnswerOutcome:
    question: AnswerQuestion
    answered: bool
    cited: tuple[tuple[str, str], ...]
    facts_found: tuple[bool, ...]
    text: str

    @property
    def hit_at_1(self) -> bool:
        return bool(self.cited) and self.cited[0] in self.question.sections

    @property
    def hit_at_any(self) -> bool:
        return any(c in self.question.sections for c in self.cited)


def load(path: Path) -> list[AnswerQuestion]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        raw = json.loads(line)
        try:
            out.append(
                AnswerQuestion(
                    id=raw["id"],
                    author=raw.get("author", ""),
                    question=raw["question"],
                    sections=tuple((s["path"], s["heading"]) for s in raw["sections"]),
                    key_facts=tuple(raw["key_facts"]),
                    qtype=raw.get("qtype", ""),
                )
            )
        except KeyError as exc:
            raise ValueError(f"{path}:{number}: missing key {exc}") from None
    return out


def plain(text: str) -> str:
    """Answer text as the key-fact check reads it: no markers or markup, lowercased, one space."""
    text = _MARKUP.sub(" ", _MARKER.sub(" ", text))
    text = re.sub(r"^\s*(?:[-•]|\d+[.)])\s+", " ", text, flags=re.M)
    return " ".join(text.lower().split())


def fact_text(fact: str) -> str:
    return question_memory.plain(fact)


def cited_sections(run: Run) -> tuple[tuple[str, str], ...]:
    """(source path, heading) of each package citation, in the order the run lists them."""
    out = []
    for c in run.citations_of_class(lanes.PACKAGE_CITATION):
        heading = c.title.split(" — ", 1)[-1]
        out.append((str(c.fields.get("source_path", "")), heading))
    return tuple(out)


@dataclass(frozen=True)
class ReadAnswer:
    """A run read as the answer figures read it: answered with package citations or not, the
    sections it cites, which key facts its Package says lane holds verbatim, and that lane."""

    answered: bool
    cited: tuple[tuple[str, str], ...]
    facts_found: tuple[bool, ...]
    text: str


def read_answer(run: Run, key_facts: tuple[str, ...]) -> ReadAnswer:
    text = "\n".join(lane.text for lane in run.lanes if lane.label == lanes.PACKAGE_SAYS)
    answered = run.state is RunState.ANSWERED and bool(
        run.citations_of_class(lanes.PACKAGE_CITATION)
    )
    body = plain(text)
    found = tuple(answered and fact_text(f) in body for f in key_facts)
    return ReadAnswer(answered, cited_sections(run) if answered else (), found, text)


def run_one(q: AnswerQuestion, provider: DeterministicProvider) -> AnswerOutcome:
    read = read_answer(services.answer(question=q.question, provider=provider), q.key_facts)
    return AnswerOutcome(q, read.answered, read.cited, read.facts_found, read.text)


def evaluate(questions: list[AnswerQuestion]) -> list[AnswerOutcome]:
    provider = DeterministicProvider()
    return [run_one(q, provider) for q in questions]


def figures(outcomes: list[AnswerOutcome]) -> dict[str, float]:
    """hit@1 and hit@any over answered questions' citations, recall over every key fact."""
    n = len(outcomes) or 1
    facts = [f for o in outcomes for f in o.facts_found]
    return {
        "hit_at_1": sum(o.hit_at_1 for o in outcomes) / n,
        "hit_at_any": sum(o.hit_at_any for o in outcomes) / n,
        "key_fact_recall": sum(facts) / (len(facts) or 1),
        "answered": sum(o.answered for o in outcomes) / n,
        "mean_package_citations": sum(len(o.cited) for o in outcomes) / n,
    }


def render_markdown(name: str, role: str, outcomes: list[AnswerOutcome]) -> str:
    rows = []
    for key, value in figures(outcomes).items():
        bar = ANSWER_TARGETS.get(key)
        rows.append((key, f"{value:.3f}", f">= {bar:.2f}" if bar is not None else ""))
    return figures_table(name, role, f"{len(outcomes)} questions", rows)


def as_dict(outcomes: list[AnswerOutcome]) -> dict[str, Any]:
    return figures(outcomes)
