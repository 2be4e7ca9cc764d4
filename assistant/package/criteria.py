"""The review criteria a package declares: checklist tables named in front matter, and prohibitions.

The convention (docs/package-format.md): an artifact's front matter names, under
``review_criteria``, each ``##`` section whose table lists criteria (first column ``Item`` or
``Criterion``, then ``Evidence expected`` and ``Confirmed by``), the draft kinds it applies to
(``prd``, ``poc_proposal``, ``architecture_proposal``), and for each criterion its key terms
(``terms``, phrases separated by ";") and an optional required element (``requires``: person,
number, amount, date or confirmation). ``review_prohibitions`` lists what the package forbids:
the criterion it breaks, a rule sentence quoted verbatim from a named section, and the signals
that show a draft doing it ("a / b + c" : a sentence holding a or b, and c; "not x": x negated).
``review_not_covered`` names the section whose findings-label table has a row for the label a
review gives an aspect the package declares no criterion for (``label``, for example "Not
covered"), with what it means and what happens next.
``build_context_pack --check`` reports every entry that names no table, row or sentence.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from django.utils.text import slugify

from assistant.package.sentences import split_sentences

if TYPE_CHECKING:
    from assistant.package.artifacts import Artifact, Section

DRAFT_KINDS = ("prd", "poc_proposal", "architecture_proposal")
REQUIRED_ELEMENTS = ("person", "number", "amount", "date", "confirmation")
NAME_COLUMNS = ("item", "criterion")
DECLARED_KEY = "review_criteria"
#: Where a package's criteria come from: its declaration, its checklist sections
#: (``checklist_criteria.py``), or its rule sentences (``rule_criteria.py``). A review of rule
#: criteria checks those a draft speaks to, not all of them (``assistant/review/criteria_review.py``).
DECLARED_BASIS, CHECKLIST_BASIS, RULES_BASIS = "declared", "checklist", "rules"


@dataclass(frozen=True)
class Criterion:
    """One declared criterion, with the package row (``row_id``) that states it."""

    name: str
    evidence_expected: str
    confirmed_by: str
    applies_to: tuple[str, ...]
    terms: tuple[str, ...]
    requires: str
    row_id: str


@dataclass(frozen=True)
class Prohibition:
    """Something the package forbids, the criterion it breaks, and how a draft shows it."""

    criterion: str
    rule: str
    row_id: str
    signals: tuple[tuple[tuple[str, ...], ...], ...]


@dataclass(frozen=True)
class NotCoveredRule:
    """The package's own row for a "not covered" finding: its label, meaning and next step."""

    label: str
    meaning: str
    next_step: str
    row_id: str


@dataclass(frozen=True)
class ReviewCriteria:
    criteria: tuple[Criterion, ...] = ()
    prohibitions: tuple[Prohibition, ...] = ()
    not_covered: NotCoveredRule | None = None
    basis: str = DECLARED_BASIS

    def for_kind(self, kind: str) -> tuple[Criterion, ...]:
        return tuple(c for c in self.criteria if kind in c.applies_to)

    def prohibitions_for(self, name: str) -> tuple[Prohibition, ...]:
        return tuple(p for p in self.prohibitions if p.criterion == name)

    def to_json(self) -> dict[str, Any]:
        return {
            "criteria": [
                c.__dict__ | {"applies_to": list(c.applies_to), "terms": list(c.terms)}
                for c in self.criteria
            ],
            "prohibitions": [
                {
                    "criterion": p.criterion,
                    "rule": p.rule,
                    "row_id": p.row_id,
                    "signals": [[list(part) for part in signal] for signal in p.signals],
                }
                for p in self.prohibitions
            ],
            "not_covered": self.not_covered.__dict__ if self.not_covered else None,
            "basis": self.basis,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ReviewCriteria:
        criteria = tuple(
            Criterion(**(c | {"applies_to": tuple(c["applies_to"]), "terms": tuple(c["terms"])}))
            for c in data.get("criteria", [])
        )
        prohibitions = tuple(
            Prohibition(
                criterion=p["criterion"],
                rule=p["rule"],
                row_id=p["row_id"],
                signals=tuple(tuple(tuple(part) for part in signal) for signal in p["signals"]),
            )
            for p in data.get("prohibitions", [])
        )
        rule = data.get("not_covered")
        return cls(
            criteria,
            prohibitions,
            NotCoveredRule(**rule) if rule else None,
            str(data.get("basis", DECLARED_BASIS)),
        )


def parse_signals(text: str) -> tuple[tuple[tuple[str, ...], ...], ...]:
    """ "a / b + c; d" -> ((("a", "b"), ("c",)), (("d",),)): alternatives, all parts, any signal."""
    return tuple(
        tuple(
            tuple(a.strip().lower() for a in part.split(" / ") if a.strip())
            for part in signal.split(" + ")
        )
        for signal in text.split(";")
        if signal.strip()
    )


def table(text: str) -> tuple[list[str], list[list[str]]]:
    """The header and body rows of the first table in a row's text ("| a | b |" lines)."""
    rows = [
        [c.strip() for c in line.strip()[1:-1].split(" | ")]
        for line in text.splitlines()
        if line.strip().startswith("|") and line.strip().endswith("|")
    ]
    return (rows[0], rows[1:]) if rows else ([], [])


def _split_terms(value: Any) -> tuple[str, ...]:
    return tuple(t.strip().lower() for t in str(value or "").split(";") if t.strip())


def collect(artifacts: Sequence[Artifact]) -> tuple[ReviewCriteria, list[str]]:
    """The package's declared criteria and prohibitions, and every problem with the declaration."""
    problems: list[str] = []
    criteria: list[Criterion] = []
    prohibitions: list[Prohibition] = []
    for artifact in artifacts:
        sections = {s.heading: s for s in artifact.sections}
        criteria += _declared_criteria(artifact, sections, problems)
        prohibitions += _declared_prohibitions(artifact, sections, problems)
    not_covered = _declared_not_covered(artifacts, problems)
    known = {c.name for c in criteria}
    for p in prohibitions:
        if p.criterion not in known:
            problems.append(f"prohibition names no declared criterion {p.criterion!r}")
    return ReviewCriteria(tuple(criteria), tuple(prohibitions), not_covered), problems


def _declared_criteria(
    artifact: Artifact, sections: dict[str, Section], problems: list[str]
) -> list[Criterion]:
    """The criteria of an artifact's ``review_criteria``; each problem appended to ``problems``."""
    declared = artifact.meta.get(DECLARED_KEY)
    if declared is not None and not isinstance(declared, dict):
        problems.append(
            f"{artifact.source_path}: review_criteria must map section headings to their settings"
        )
        declared = None
    criteria: list[Criterion] = []
    for heading, spec in (declared or {}).items():
        section = sections.get(heading)
        if section is None or not isinstance(spec, dict):
            problems.append(f"{artifact.source_path}: review_criteria names no section {heading!r}")
            continue
        criteria += _section_criteria(artifact, heading, section, spec, problems)
    return criteria


def _section_criteria(
    artifact: Artifact, heading: str, section: Section, spec: dict[str, Any], problems: list[str]
) -> list[Criterion]:
    """One declared section's table rows as criteria, with its settings checked."""
    where = artifact.source_path
    header, body = table(section.text)
    columns = [h.lower() for h in header]
    if (
        not columns
        or columns[0] not in NAME_COLUMNS
        or "evidence expected" not in columns
        or ("confirmed by" not in columns)
    ):
        problems.append(
            f"{where}: section {heading!r} needs a table with Item (or Criterion), "
            "Evidence expected and Confirmed by columns"
        )
        return []
    applies = tuple(spec.get("applies_to") or ())
    terms = spec.get("terms") or {}
    requires = spec.get("requires") or {}
    problems += _spec_problems(f"{where}: {heading!r}", applies, [c[0] for c in body if c], spec)
    problems += [
        f"{where}: {name!r} requires unknown element {element!r}"
        for name, element in requires.items()
        if element not in REQUIRED_ELEMENTS
    ]
    evidence_col = columns.index("evidence expected")
    owner_col = columns.index("confirmed by")
    criteria = []
    for cells in body:
        name = cells[0]
        if name not in terms:
            problems.append(f"{where}: criterion {name!r} declares no terms")
        criteria.append(
            Criterion(
                name=name,
                evidence_expected=cells[evidence_col] if evidence_col < len(cells) else "",
                confirmed_by=cells[owner_col] if owner_col < len(cells) else "",
                applies_to=applies,
                terms=_split_terms(terms.get(name)),
                requires=str(requires.get(name) or ""),
                row_id=f"{artifact.topic}#{slugify(heading)}",
            )
        )
    return criteria


def _spec_problems(
    what: str, applies: tuple[str, ...], names: list[str], spec: dict[str, Any]
) -> list[str]:
    """Unknown draft kinds, and terms or requirements naming no criterion row."""
    found = [
        f"{what} applies to unknown draft kind {kind!r}"
        for kind in applies
        if kind not in DRAFT_KINDS
    ]
    named = list(spec.get("terms") or {}) + list(spec.get("requires") or {})
    found += [f"{what} has no criterion row {name!r}" for name in named if name not in names]
    return found


def _declared_prohibitions(
    artifact: Artifact, sections: dict[str, Section], problems: list[str]
) -> list[Prohibition]:
    """The prohibitions of an artifact's ``review_prohibitions``; each problem appended."""
    where = artifact.source_path
    prohibitions = []
    for entry in artifact.meta.get("review_prohibitions") or ():
        if not isinstance(entry, dict):
            problems.append(f"{where}: each review_prohibitions entry must be a mapping")
            continue
        section = sections.get(str(entry.get("section")))
        rule = " ".join(str(entry.get("rule") or "").split())
        if section is None:
            problems.append(f"{where}: prohibition names no section {entry.get('section')!r}")
            continue
        if rule not in split_sentences(section.text):
            problems.append(
                f"{where}: prohibition rule is not a sentence of {section.heading!r}: {rule!r}"
            )
        signals = parse_signals(str(entry.get("signals") or ""))
        if not signals:
            problems.append(f"{where}: prohibition for {entry.get('criterion')!r} has no signals")
        prohibitions.append(
            Prohibition(
                criterion=str(entry.get("criterion")),
                rule=rule,
                row_id=f"{artifact.topic}#{section.anchor}",
                signals=signals,
            )
        )
    return prohibitions


def _declared_not_covered(
    artifacts: Sequence[Artifact], problems: list[str]
) -> NotCoveredRule | None:
    """The package's one ``review_not_covered`` row (the first, if declared twice)."""
    not_covered: NotCoveredRule | None = None
    for artifact in artifacts:
        declared_row, found = _not_covered(artifact)
        problems += found
        if declared_row is not None:
            if not_covered is not None:
                problems.append(f"{artifact.source_path}: review_not_covered is declared twice")
            not_covered = not_covered or declared_row
    return not_covered


def _not_covered(artifact: Artifact) -> tuple[NotCoveredRule | None, list[str]]:
    """The artifact's ``review_not_covered`` row, and what is wrong with its declaration."""
    declared = artifact.meta.get("review_not_covered")
    where = artifact.source_path
    if declared is None:
        return None, []
    if not isinstance(declared, dict):
        return None, [f"{where}: review_not_covered must map section and label"]
    heading, label = str(declared.get("section") or ""), str(declared.get("label") or "")
    section = next((s for s in artifact.sections if s.heading == heading), None)
    if section is None:
        return None, [f"{where}: review_not_covered names no section {heading!r}"]
    _, body = table(section.text)
    row = next((cells for cells in body if cells and cells[0] == label), None)
    if row is None or len(row) < 3:
        return None, [
            f"{where}: section {heading!r} needs a table row {label!r} with its meaning and next step"
        ]
    return NotCoveredRule(label, row[1], row[2], f"{artifact.topic}#{section.anchor}"), []


def problems(artifacts: Iterable[Artifact]) -> list[str]:
    return collect(list(artifacts))[1]
