"""The claim verifier's benchmark run: each case scored by the verifier, figures per half.

Every case (``learning.evaluation.verifier_cases``) is checked by ``claim_support.check`` exactly as a
``Package says`` claim is checked in the answer path (the row it cites and one other row are
"sent"). A case is flagged unsupported below the threshold; the threshold is tuned on the
``tune`` half only, and the floors the unit test asserts are those of the ``held_out`` half.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from assistant.domain import lanes
from assistant.domain.modes import Mode
from assistant.domain.prompt import ProviderRequest
from assistant.domain.types import Lane
from assistant.package.expansion import Expansion
from assistant.pipeline import citations
from assistant.verify import claim_support
from learning.evaluation.verifier_cases import HELD_OUT, TUNE, Case

TARGET_CAUGHT = 0.95
TARGET_FALSE_REJECTION = 0.05
TUNING_GRID = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


@dataclass
class Figures:
    """Detection of unsupported claims on one half, by variant kind."""

    cases: int = 0
    unsupported: int = 0
    caught: int = 0
    supported: int = 0
    rejected: int = 0
    by_kind: dict[str, list[int]] = field(default_factory=dict)  # kind -> [cases, flagged]

    @property
    def recall(self) -> float:
        return self.caught / self.unsupported if self.unsupported else 0.0

    @property
    def precision(self) -> float:
        flagged = self.caught + self.rejected
        return self.caught / flagged if flagged else 0.0

    @property
    def false_rejection(self) -> float:
        return self.rejected / self.supported if self.supported else 0.0

    @property
    def balanced_accuracy(self) -> float:
        return (self.recall + 1 - self.false_rejection) / 2

    def meets_targets(self) -> bool:
        return self.recall >= TARGET_CAUGHT and self.false_rejection <= TARGET_FALSE_REJECTION


def case_score(case: Case, expansion: Expansion, vocabulary: object) -> float:
    """The lowest claim score the verifier gives the case's claim, checked as a Package says claim.

    Scores do not depend on the threshold, so one pass serves every threshold tried.
    """
    refs = (citations.package_ref("P1", case.cited), citations.package_ref("P2", case.other))
    request = ProviderRequest(
        mode=Mode.PACKAGE_ONLY, question="", lane_order=(lanes.PACKAGE_SAYS,), package_refs=refs
    )
    lane = Lane(label=lanes.PACKAGE_SAYS, text=f"{case.claim} [P1]", citation_ids=("P1",))
    report = claim_support.check(
        [lane],
        request,
        expansion=expansion,
        vocabulary=vocabulary,  # type: ignore[arg-type]
    )
    return min(c.score for c in report.claims)


def score_cases(cases: Sequence[Case], expansion: Expansion, vocabulary: object) -> list[float]:
    return [case_score(case, expansion, vocabulary) for case in cases]


def run(cases: Sequence[Case], scores: Sequence[float], threshold: float) -> dict[str, Figures]:
    """Figures for each half: a case is flagged unsupported when its score is below ``threshold``."""
    out = {TUNE: Figures(), HELD_OUT: Figures()}
    for case, score in zip(cases, scores, strict=True):
        figures = out[case.half]
        hit = score < threshold
        figures.cases += 1
        counts = figures.by_kind.setdefault(case.kind, [0, 0])
        counts[0] += 1
        counts[1] += int(hit)
        if case.supported:
            figures.supported += 1
            figures.rejected += int(hit)
        else:
            figures.unsupported += 1
            figures.caught += int(hit)
    return out


def tune_threshold(cases: Sequence[Case], scores: Sequence[float], grid: Iterable[float]) -> float:
    """The threshold with the best balanced accuracy on the tune half only (ties: the lower)."""
    tune = [(c, s) for c, s in zip(cases, scores, strict=True) if c.half == TUNE]
    best, best_value = 0.0, -1.0
    for threshold in grid:
        value = run([c for c, _ in tune], [s for _, s in tune], threshold)[TUNE].balanced_accuracy
        if value > best_value:
            best, best_value = threshold, value
    return best


def summary(figures: dict[str, Figures]) -> dict[str, dict[str, float]]:
    return {
        half: {
            "recall": f.recall,
            "precision": f.precision,
            "false_rejection": f.false_rejection,
            "cases": float(f.cases),
        }
        for half, f in figures.items()
    }
