"""The claim verifier's benchmark: claims built from the package's own rows, supported or not.

Every case is one claim cited to one package row, checked by ``claim_support.check`` exactly as a
``Package says`` claim is checked in the answer path (the row it cites and one other row are
"sent"). Supported variants of a row sentence: verbatim, clauses reordered, a glossary term
replaced by one of its listed synonyms, and a claim joined from two sentences of the row.
Unsupported variants: a number, a named role, a duration or a modal changed, the negation
flipped, an invented organisation inserted, and the verbatim sentence cited to another row.

Deterministic (seeded). The artifacts are split in two halves by a seeded shuffle: the
verifier's threshold and rules were tuned on the ``tune`` half only, and the figures that
matter (and the floors the unit test asserts) are those of the ``held_out`` half.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from assistant import citations, claim_support, claims, lanes
from assistant.expansion import Expansion
from assistant.modes import Mode
from assistant.prompt import ProviderRequest
from assistant.sentences import split_sentences
from assistant.types import Lane, PackageRow

SEED = 17
SENTENCES_PER_ROW = 3
MIN_WORDS = 7
TARGET_CAUGHT = 0.95
TARGET_FALSE_REJECTION = 0.05
TUNE, HELD_OUT = "tune", "held_out"

SUPPORTED_KINDS = ("verbatim", "reordered", "glossary paraphrase", "two-sentence summary")
UNSUPPORTED_KINDS = (
    "number changed",
    "role changed",
    "duration changed",
    "modal changed",
    "negation flipped",
    "entity invented",
    "wrong row",
)
INVENTED = ("Contoso", "Fabrikam", "Northwind Traders", "Initech", "Globex", "Tailspin Toys")
ROLES = (
    "product owner",
    "risk owner",
    "source owner",
    "platform owner",
    "model owner",
    "data protection officer",
    "security reviewer",
    "gate owner",
)
_MODAL_SWAPS = (
    (r"\bmust not\b", "may"),
    (r"\bcannot\b", "can"),
    (r"\bmust\b", "may"),
    (r"\bshould\b", "must"),
    (r"\bmay\b", "must"),
    (r"\bshall\b", "may"),
)
_NEGATION_REMOVALS = (
    (r"\b(must|should|may|can|does|do|is|are|will|shall) not\b", r"\1"),
    (r"\bcannot\b", "can"),
    (r"\bnever\b", "always"),
    (r"\bno\b", "some"),
    (r"\bwithout\b", "with"),
)
_NEGATION_INSERTS = (r"\b(is|are|must|should|can|will|does|do)\b", r"\1 not")
_UNITS = ("day", "week", "month", "quarter", "year", "hour")
_SYNONYM_LINE = re.compile(r"Also called:\s*(.+)")


@dataclass(frozen=True)
class Case:
    """One benchmark claim: which half, what kind, whether it is supported, and the sources."""

    half: str
    kind: str
    supported: bool
    claim: str
    cited: PackageRow
    other: PackageRow


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


def halves(rows: Sequence[PackageRow], seed: int = SEED) -> dict[str, str]:
    """Each artifact's half: a seeded shuffle of the artifact paths, split in the middle."""
    paths = sorted({row.source_path for row in rows})
    random.Random(seed).shuffle(paths)  # noqa: S311 - a seeded, reproducible split, not a secret
    middle = len(paths) // 2
    return {path: (TUNE if i < middle else HELD_OUT) for i, path in enumerate(paths)}


def glossary(rows: Iterable[PackageRow]) -> dict[str, list[str]]:
    """Glossary terms and their listed synonyms, read from the glossary rows of the pack."""
    out: dict[str, list[str]] = {}
    for row in rows:
        match = _SYNONYM_LINE.search(row.text) if row.topic == "glossary" else None
        if match:
            out[row.heading] = [w.strip() for w in match.group(1).split(";") if w.strip()]
    return out


def _candidates(row: PackageRow) -> list[str]:
    return [
        s
        for s in split_sentences(row.text)
        if len(s.split()) >= MIN_WORDS and not s.endswith(":") and '"' not in s and "|" not in s
    ]


def _sub_once(pattern: str, replacement: str, text: str) -> str | None:
    changed, n = re.subn(pattern, replacement, text, count=1, flags=re.I)
    return changed if n else None


def _reordered(sentence: str) -> str | None:
    body = sentence.rstrip(".")
    head, sep, tail = body.partition(", ")
    if not sep or len(head.split()) < 3 or len(tail.split()) < 3 or "," in tail:
        return None
    return f"{tail[0].upper()}{tail[1:]}, {head[0].lower()}{head[1:]}."


def _paraphrased(sentence: str, terms: dict[str, list[str]], rng: random.Random) -> str | None:
    for term in sorted(terms, key=len, reverse=True):
        if terms[term] and re.search(rf"\b{re.escape(term)}\b", sentence, re.I):
            synonym = rng.choice(terms[term])
            return re.sub(rf"\b{re.escape(term)}\b", synonym, sentence, count=1, flags=re.I)
    return None


def _summary(first: str, second: str) -> str:
    a = first.rstrip(".;").split("; ")[0]
    b = second.rstrip(".;").split("; ")[0]
    return f"{a}; {b[0].lower()}{b[1:]}."


def _number_changed(sentence: str) -> str | None:
    match = re.search(r"(?<![\w.])\d+(?![\w.]\d)", sentence)
    if match is None:
        return None
    return sentence[: match.start()] + str(int(match.group(0)) + 1) + sentence[match.end() :]


def _role_changed(sentence: str, rng: random.Random) -> str | None:
    found = claims.roles(sentence)
    if not found:
        return None
    old = sorted(found)[0]
    new = rng.choice([r for r in ROLES if r not in found])
    return _sub_once(rf"\b{re.escape(old)}s?\b", new, sentence)


def _duration_changed(sentence: str) -> str | None:
    match = re.search(
        r"\b(\d+|one|two|three|four|six|twelve)[\s-]+(" + "|".join(_UNITS) + r")s?\b",
        sentence,
        re.I,
    )
    if match is None:
        return None
    unit = match.group(2).lower()
    other = _UNITS[(_UNITS.index(unit) + 1) % len(_UNITS)]
    return sentence[: match.start(2)] + other + sentence[match.start(2) + len(unit) :]


def _modal_changed(sentence: str) -> str | None:
    for pattern, replacement in _MODAL_SWAPS:
        changed = _sub_once(pattern, replacement, sentence)
        if changed:
            return changed
    return None


def _negation_flipped(sentence: str) -> str | None:
    for pattern, replacement in _NEGATION_REMOVALS:
        changed = _sub_once(pattern, replacement, sentence)
        if changed:
            return changed
    return _sub_once(*_NEGATION_INSERTS, sentence)


def _entity_invented(sentence: str, rng: random.Random) -> str:
    return f"{sentence.rstrip('.')} at {rng.choice(INVENTED)}."


def build_cases(rows: Sequence[PackageRow], seed: int = SEED) -> list[Case]:
    """Every benchmark case, in a deterministic order."""
    rng = random.Random(seed)  # noqa: S311 - reproducible benchmark variants, not a secret
    half_of = halves(rows, seed)
    terms = glossary(rows)
    usable = [row for row in rows if row.topic != "glossary" and _candidates(row)]
    cases: list[Case] = []
    for row in usable:
        half = half_of[row.source_path]
        others = [
            r for r in usable if r.source_path != row.source_path and half_of[r.source_path] == half
        ]
        sentences = _candidates(row)
        picked = rng.sample(sentences, min(SENTENCES_PER_ROW, len(sentences)))
        for sentence in picked:
            other = rng.choice(others)
            rest = [s for s in sentences if s != sentence]
            variants = [
                ("reordered", True, _reordered(sentence)),
                ("glossary paraphrase", True, _paraphrased(sentence, terms, rng)),
                (
                    "two-sentence summary",
                    True,
                    _summary(sentence, rng.choice(rest)) if rest else None,
                ),
                ("number changed", False, _number_changed(sentence)),
                ("role changed", False, _role_changed(sentence, rng)),
                ("duration changed", False, _duration_changed(sentence)),
                ("modal changed", False, _modal_changed(sentence)),
                ("negation flipped", False, _negation_flipped(sentence)),
                ("entity invented", False, _entity_invented(sentence, rng)),
            ]
            cases.append(Case(half, "verbatim", True, sentence, row, other))
            cases += [
                Case(half, kind, supported, claim, row, other)
                for kind, supported, claim in variants
                if claim and claim != sentence
            ]
            # A sentence the other row also states (shared boilerplate) is not a wrong citation.
            if claims.flat(sentence).rstrip(".") not in claims.flat(other.text):
                cases.append(Case(half, "wrong row", False, sentence, other, row))
    return cases


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
        "Claims are built from the package's own rows (`assistant/verifier_benchmark.py`, seed "
        f"{SEED}) and checked as `Package says` claims by `assistant/claim_support.py`. The artifacts "
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


TUNING_GRID = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9)


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


__all__ = ["Case", "Figures", "build_cases", "render_markdown", "report", "run", "tune_threshold"]
