"""Review evaluation: criterion-level statuses of the structured review against labelled drafts.

Each labelled draft (``labels.jsonl`` next to the drafts) gives, per criterion, present, partial,
missing or contradicted. A draft goes through the real pipeline (``assistant.pipeline.services.answer``,
deterministic provider, the draft as a session source) with a question that does not name its
kind, and the assessment lane is read back: the finding label for each criterion it names.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from assistant.domain import lanes
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval.context_pack import get_context_pack
from assistant.review import criterion_evidence
from learning.evaluation.figures_table import figures_table
from learning.training import evidence as evidence_training
from uploads.services import load_local

REVIEW_QUESTION = "Review this draft against the package's review criteria."
REVIEW_TARGETS = {
    "recall": 0.75,
    "false_alarm_rate": 0.20,
    "contradictions_flagged": 0.50,
    "verbatim_rate": 0.98,
}
LABEL_STATUS = {
    "pass": "present",
    "concern": "partial",
    "blocker": "contradicted",
    "missing evidence": "missing",
}
_FINDING = re.compile(
    r"^- (?P<label>pass|concern|blocker|missing evidence): (?P<name>.+?) \[P\d+\]", re.M
)
_QUOTE = re.compile(r': "(?P<quote>.*)" \[U\d+(?:, U\d+)?\]$', re.M)


@dataclass(frozen=True)
class DraftOutcome:
    file: str
    kind: str
    labels: dict[str, str]
    got: dict[str, str]
    quotes: tuple[str, ...]
    verbatim: tuple[bool, ...]


def _flat(text: str) -> str:
    return " ".join(text.split()).replace("[", "(").replace("]", ")")


def evaluate(directory: Path) -> list[DraftOutcome]:
    provider = DeterministicProvider()
    out = []
    for line in (directory / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        label = json.loads(line)
        sources = load_local(files=[directory / label["file"]])
        run = services.answer(question=REVIEW_QUESTION, session_sources=sources, provider=provider)
        body = {lane.label: lane.text for lane in run.lanes}
        got = {
            m.group("name"): LABEL_STATUS[m.group("label")]
            for m in _FINDING.finditer(body.get(lanes.ASSESSMENT, ""))
        }
        quotes = tuple(m.group("quote") for m in _QUOTE.finditer(body.get(lanes.UPLOADED_SAYS, "")))
        text = " ".join(_flat(s.text) for s in sources)
        out.append(
            DraftOutcome(
                file=label["file"],
                kind=label["kind"],
                labels={name: c["status"] for name, c in label["criteria"].items()},
                got=got,
                quotes=quotes,
                verbatim=tuple(q in text for q in quotes),
            )
        )
    return out


def out_of_author(draft_dirs: list[Path]) -> dict[str, list[DraftOutcome]]:
    """Each training author's drafts through the real pipeline, read by an evidence model whose
    weights and threshold were learnt without that author (``evidence_training.fold_for``)."""
    items = evidence_training.training_drafts()
    review = get_context_pack().review
    out = {}
    for author in sorted({d.author for d in items}):
        with criterion_evidence.reading_with(evidence_training.fold_for(items, author, review)):
            out[author] = [o for d in draft_dirs if d.name == author for o in evaluate(d)]
    return out


def figures(outcomes: list[DraftOutcome]) -> dict[str, float]:
    """Flagged = any status but present; contradictions count when flagged blocker or concern."""
    gaps = flagged = present = alarms = contradicted = caught = 0
    for o in outcomes:
        for name, want in o.labels.items():
            got = o.got.get(name, "not assessed")
            if want in ("missing", "contradicted"):
                gaps += 1
                flagged += got != "present"
            if want == "present":
                present += 1
                alarms += got != "present"
            if want == "contradicted":
                contradicted += 1
                caught += got in ("contradicted", "partial")
    quotes = [v for o in outcomes for v in o.verbatim]
    return {
        "recall": flagged / (gaps or 1),
        "false_alarm_rate": alarms / (present or 1),
        "contradictions_flagged": caught / (contradicted or 1),
        "verbatim_rate": sum(quotes) / (len(quotes) or 1),
        "graded_criteria": float(sum(len(o.labels) for o in outcomes)),
    }


def render_markdown(name: str, role: str, outcomes: list[DraftOutcome]) -> str:
    rows = []
    for key, value in figures(outcomes).items():
        bar = REVIEW_TARGETS.get(key)
        sign = "<=" if key == "false_alarm_rate" else ">="
        shown = f"{value:.0f}" if key == "graded_criteria" else f"{value:.3f}"
        rows.append((key, shown, f"{sign} {bar:.2f}" if bar is not None else ""))
    return figures_table(name, role, f"{len(outcomes)} drafts", rows)
