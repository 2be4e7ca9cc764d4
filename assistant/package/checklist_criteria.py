"""Review criteria derived from a package's checklist sections, for a package that declares none.

Many packages carry checklists (sections of kind ``checklist``: ``assistant/package/kinds.py``)
but no ``review_criteria`` front matter. For such a package each checklist item, a Markdown
list item or a table body row of a checklist section, becomes one criterion citing its own
section row (docs/package-format.md, "Derived criteria"):

- ``name``: the item's label ("Rollback plan: ..." -> "Rollback plan"), else its opening words
  up to the first clause break;
- ``evidence_expected``: the item's text;
- ``terms``: the item's key phrases, read generically: the runs of content words between
  stopwords and punctuation, as one- and two-word spans, weighted by how rare their words are
  across the package's rows and checklist items (a word every item shares, or the checklist's
  own heading words, names the checklist, not the item);
- ``requires``: an element only when the item asks for one (a named owner: ``person``; a date
  or deadline: ``date``; a cost or budget: ``amount``; a sign-off: ``confirmation``);
- ``applies_to``: every draft kind, unless the artifact's ``checklist_applies_to`` names some.

Declared criteria win: a package that declares any gets none derived. A package with neither
declared criteria nor checklist items gets criteria from its rule sentences instead
(``assistant/package/rule_criteria.py``), so that every package is reviewed by the one criteria
review. The result is deterministic (artifacts in path order, sections and items in document order).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from assistant.package import criteria as declared_criteria
from assistant.package import kinds as section_kinds
from assistant.package import rule_criteria
from assistant.package.criteria import (
    CHECKLIST_BASIS,
    DRAFT_KINDS,
    RULES_BASIS,
    Criterion,
    ReviewCriteria,
    table,
)
from assistant.package.key_phrases import CLAUSE_BREAK, Weights, asks_for
from core.text import STOPWORDS, content_stems

if TYPE_CHECKING:
    from assistant.package.artifacts import Artifact, Section

# A review shows one finding per criterion and assesses each on every uploaded sentence: past
# about twenty findings a reviewer no longer reads the checklist as one, and the work grows with
# criteria x sentences. A longer checklist is usually a runbook; its first items are kept.
MAX_DERIVED = 20
MAX_TERMS = 4
NAME_WORDS = 6
LABEL_WORDS = 6
APPLIES_KEY = "checklist_applies_to"
_ARTICLES = frozenset({"a", "an", "the"})
NO_OWNER = "the reviewer (the checklist names no owner)"

_ITEM = re.compile(r"^(?:- |\d+\. )(?:\[[ xX]\]\s*)?(?P<text>.+)$")
_LABEL = re.compile(r"^(?P<label>[^:—–]+?)\s*(?::|\s[—–]\s)\s*(?P<rest>\S.*)$")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
_OWNER_COLUMN = re.compile(r"\b(?:owner|confirmed by|responsible|accountable|who)\b", re.I)


@dataclass(frozen=True)
class _Item:
    """One checklist item: its text, the section it comes from and its owner cell, if any."""

    text: str
    owner: str
    artifact: Artifact
    section: Section


@dataclass(frozen=True)
class Derived:
    """The derived criteria, what they were derived from (``CHECKLIST_BASIS`` or
    ``RULES_BASIS``), how many items (or rule sections) the cap left out, and what is wrong with
    the ``checklist_applies_to`` declarations."""

    criteria: tuple[Criterion, ...] = ()
    left_out: int = 0
    problems: tuple[str, ...] = ()
    basis: str = CHECKLIST_BASIS


def collect(artifacts: Sequence[Artifact]) -> tuple[ReviewCriteria, list[str], Derived]:
    """The package's review criteria: the declared ones, else those derived from its
    checklists; every problem with the declarations; and what was derived (for the report)."""
    review, found = declared_criteria.collect(artifacts)
    if any(declared_criteria.DECLARED_KEY in a.meta for a in artifacts):
        return review, found, Derived()
    derived = derive(artifacts)
    if not derived.criteria:
        rules, left_out = rule_criteria.derive(artifacts)
        derived = replace(derived, criteria=rules, left_out=left_out, basis=RULES_BASIS)
    review = ReviewCriteria(
        derived.criteria, review.prohibitions, review.not_covered, basis=derived.basis
    )
    return review, found + list(derived.problems), derived


def problems(artifacts: Sequence[Artifact]) -> list[str]:
    """Every problem with the package's criteria declarations (``build_context_pack --check``)."""
    return collect(artifacts)[1]


def derive(artifacts: Sequence[Artifact]) -> Derived:
    """Criteria from every checklist item of ``artifacts`` (call only when none are declared)."""
    found: list[str] = []
    items = [
        item
        for artifact in artifacts
        for section in artifact.sections
        if section.kind == section_kinds.CHECKLIST
        for item in _items(artifact, section)
    ]
    weights = Weights.of(
        [s.text for a in artifacts for s in a.sections] + [item.text for item in items]
    )
    applies = {a.source_path: _applies_to(a, found) for a in artifacts}
    criteria: list[Criterion] = []
    names: set[str] = set()
    read = 0
    for item in items:
        if len(criteria) == MAX_DERIVED:
            break
        read += 1
        name = _unique_name(item, names)
        if not name:
            continue
        names.add(name.casefold())
        criteria.append(
            Criterion(
                name=name,
                evidence_expected=item.text.rstrip(". "),
                confirmed_by=item.owner or NO_OWNER,
                applies_to=applies[item.artifact.source_path],
                # The checklist's own heading words name every item, so none of them is a term.
                terms=weights.key_phrases(
                    item.text, set(content_stems(item.section.heading)), MAX_TERMS
                ),
                requires=asks_for(item.text),
                row_id=f"{item.artifact.topic}#{item.section.anchor}",
            )
        )
    return Derived(tuple(criteria), len(items) - read, tuple(found))


def _items(artifact: Artifact, section: Section) -> list[_Item]:
    """The list items and table body rows of one checklist section, in document order."""
    out = []
    header, _ = table(section.text)
    owner_col = next((i for i, h in enumerate(header) if _OWNER_COLUMN.search(h)), None)
    seen_header = False
    for line in section.text.splitlines():
        line = line.strip()
        if line.startswith("|") and line.endswith("|"):
            if not seen_header:
                seen_header = True
                continue
            cells = [c.strip() for c in line[1:-1].split(" | ")]
            owner = cells[owner_col] if owner_col is not None and owner_col < len(cells) else ""
            kept = [c for i, c in enumerate(cells) if i != owner_col and c]
            if kept:
                text = kept[0] + (": " + "; ".join(kept[1:]) if len(kept) > 1 else "")
                out.append(_Item(text, owner, artifact, section))
            continue
        match = _ITEM.match(line)
        if match and _WORD.search(match.group("text")):
            out.append(_Item(match.group("text").strip(), "", artifact, section))
    return out


def _applies_to(artifact: Artifact, problems: list[str]) -> tuple[str, ...]:
    """The draft kinds an artifact's checklists apply to: every kind unless it names some."""
    declared = artifact.meta.get(APPLIES_KEY)
    if declared is None:
        return DRAFT_KINDS
    kinds = declared if isinstance(declared, list) else [declared]
    unknown = [k for k in kinds if k not in DRAFT_KINDS]
    if unknown or not kinds:
        problems.append(
            f"{artifact.source_path}: {APPLIES_KEY} names unknown draft kinds {unknown!r} "
            f"(one or more of {', '.join(DRAFT_KINDS)})"
        )
    return tuple(k for k in DRAFT_KINDS if k in kinds)


def _unique_name(item: _Item, taken: set[str]) -> str:
    """A short name for the item, its label else its opening words; a longer one if taken."""
    label = _LABEL.match(item.text)
    if label and len(label.group("label").split()) <= LABEL_WORDS:
        short = label.group("label").strip()
    else:
        short = _opening(item.text, NAME_WORDS)
    for name in (short, _opening(item.text, NAME_WORDS * 2), item.text.rstrip(".")):
        if name and name.casefold() not in taken:
            return name
    return ""


def _opening(text: str, limit: int) -> str:
    """The item's first words up to a clause break, at most ``limit`` of them after a leading
    article, no trailing stopword, the first capitalised ("A named owner for the help page after
    launch" -> "Named owner for the help page")."""
    words = CLAUSE_BREAK.split(text, maxsplit=1)[0].split()
    while len(words) > 1 and words[0].lower() in _ARTICLES:
        words.pop(0)
    words = words[:limit]
    while len(words) > 1 and words[-1].lower().strip("'’") in STOPWORDS:
        words.pop()
    name = " ".join(words).strip()
    return name[:1].upper() + name[1:]
