"""The claim verifier benchmark's report: the "Claim verifier" section of docs/evaluation.md."""

from __future__ import annotations

from collections.abc import Sequence

from assistant.domain.types import PackageRow
from assistant.package.expansion import Expansion
from assistant.verify import claim_support
from learning.evaluation.verifier_benchmark import (
    TARGET_CAUGHT,
    TARGET_FALSE_REJECTION,
    TUNING_GRID,
    Figures,
    run,
    score_cases,
    tune_threshold,
)
from learning.evaluation.verifier_cases import (
    HELD_OUT,
    SEED,
    SUPPORTED_KINDS,
    TUNE,
    UNSUPPORTED_KINDS,
    build_cases,
)

PUBLISHED = """\
Published figures for other verifiers, for scale only: they measure **other data** (news and
dialogue summaries written by models, with human labels), not claims built from this package,
so neither number is comparable with the table above.

| verifier | benchmark | published figure |
|---|---|---|
| Vectara HHEM-2.1 (open model) | AggreFact-SOTA | about 76.5% balanced accuracy |
| MiniCheck-Flan-T5-L | LLM-AggreFact | about 75% balanced accuracy |
| Google check-grounding API | (a service, no benchmark figure) | default citation threshold 0.6 |

This verifier is lexical: it is strong on the edits it was built to catch (a changed number,
owner, modal, duration, a flipped negation, an invented name, a wrong citation) and on quotes and
light paraphrase, and it does not understand paraphrase beyond the package glossary. A claim
reworded with everyday words the glossary does not list is rejected (safe, but a false
rejection); the benchmark's supported variants are close to the source by construction, so
its false-rejection rate is a floor, not an estimate for free-form model prose.
"""


def render_markdown(
    figures: dict[str, Figures], *, threshold: float, tuned: float, package_version: str
) -> str:
    """The "Claim verifier" section of docs/evaluation.md."""
    lines = [
        "## Claim verifier",
        "",
        f"Produced by `make eval` (`manage.py evaluate_verifier`) on package version `{package_version}`. "
        "Claims are built from the package's own rows (`learning/evaluation/verifier_cases.py`, seed "
        f"{SEED}) and checked as `Package says` claims by `assistant/verify/claim_support.py`. The artifacts "
        "are split in two halves by a seeded shuffle; the threshold and the rules were tuned on the "
        "`tune` half only. **The held-out half is the figure to read**; "
        "`tests/assistant/test_verifier_benchmark.py` asserts its floors.",
        "",
        f"Threshold in use: {threshold:g} (`AICD_CLAIM_SUPPORT_THRESHOLD`); the best threshold on "
        f"the tune half alone: {tuned:g}.",
        "",
        '| half | claims | unsupported caught (recall) | precision of "unsupported" | supported rejected | target met |',
        "|---|---|---|---|---|---|",
    ]
    for half in (HELD_OUT, TUNE):
        f = figures[half]
        met = "yes" if f.meets_targets() else "NO"
        lines.append(
            f"| {half} | {f.cases} | {f.recall:.1%} ({f.caught}/{f.unsupported}) | {f.precision:.1%} | "
            f"{f.false_rejection:.1%} ({f.rejected}/{f.supported}) | {met} |"
        )
    lines += [
        "",
        f"Targets: at least {TARGET_CAUGHT:.0%} of unsupported claims caught, at most "
        f"{TARGET_FALSE_REJECTION:.0%} of supported claims rejected.",
        "",
        "### Held-out half by variant",
        "",
        "| variant | supported? | claims | flagged unsupported |",
        "|---|---|---|---|",
    ]
    held = figures[HELD_OUT]
    for kind in (*SUPPORTED_KINDS, *UNSUPPORTED_KINDS):
        total, hit = held.by_kind.get(kind, [0, 0])
        if total:
            lines.append(
                f"| {kind} | {'yes' if kind in SUPPORTED_KINDS else 'no'} | {total} | {hit / total:.1%} |"
            )
    lines += ["", PUBLISHED]
    return "\n".join(lines) + "\n"


def report(
    rows: Sequence[PackageRow], expansion: Expansion, vocabulary: object, *, package_version: str
) -> tuple[str, dict[str, Figures]]:
    """Build the cases, tune a threshold on the tune half (for the record), score both halves at
    the configured default, and render the section."""
    cases = build_cases(rows)
    scores = score_cases(cases, expansion, vocabulary)
    tuned = tune_threshold(cases, scores, TUNING_GRID)
    threshold = claim_support.DEFAULT_THRESHOLD
    figures = run(cases, scores, threshold)
    text = render_markdown(
        figures, threshold=threshold, tuned=tuned, package_version=package_version
    )
    return text, figures
