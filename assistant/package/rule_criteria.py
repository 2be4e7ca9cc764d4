"""Review criteria derived from a package's rule sentences, for a package with no declared
criteria and no checklist items.

Most playbooks state what a team must do in running prose ("You must test that you can restore
your backups"), not in a checklist. Such a package is still reviewed by the one criteria review:
each section that states rules becomes one criterion citing its own section row
(docs/package-format.md, "Derived criteria"):

- a rule sentence is an obligation or a prohibition: it says "must", "shall", "mandatory",
  "is required" or "required to", or it forbids ("Never ...", "Do not ...", "you should not");
  a sentence that lifts an obligation ("you do not need to") or hedges ("not always") is not
  one, nor a question. A list item introduced by a rule lead-in ("When you publish code, you
  must:") is a rule of its own;
- ``name``: the section heading, with the artifact's title after it when the heading recurs
  across the package ("Overview (Alerting)") and so names no rule by itself;
- ``evidence_expected``: the section's first rule sentences, verbatim;
- ``terms``: the name's three key phrases, then the rules' six, weighted by how rare their words
  are across the package's sections (``assistant/package/key_phrases.py``);
- ``requires``: an element only when the rules ask for one (a named owner, a date, a cost, a
  sign-off), read as a checklist item's is;
- ``applies_to``: every draft kind; ``confirmed_by``: the reviewer (prose names no owner column).

Only guidance sections are read: examples, definitions and anti-patterns describe, they do not
require. A package that states no rule at all gets each guidance section's opening sentences
(or list items, or table rows) as its criterion instead, so that a review always has rows to
check. At most ``MAX_DERIVED`` sections are kept, those stating the most rules (document order
breaks ties, and is the order kept); a review checks the few a draft speaks to
(``assistant/review/criteria_review.py``). The result is deterministic.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from assistant.package import kinds as section_kinds
from assistant.package import units
from assistant.package.criteria import DRAFT_KINDS, Criterion
from assistant.package.key_phrases import Weights, asks_for
from core.text import content_stems

if TYPE_CHECKING:
    from assistant.package.artifacts import Artifact, Section

#: Sections kept as criteria: enough to cover a large playbook's rule-bearing sections, few
#: enough that the context pack's manifest stays small.
MAX_DERIVED = 60
MAX_TERMS = 6
NAME_TERMS = 3
#: Rule sentences quoted as a criterion's evidence expected.
QUOTED_RULES = 3
#: Opening sentences of a section that stand for it when the package states no rule.
OPENING_SENTENCES = 2
MIN_CONTENT_WORDS = 3
NO_OWNER = "the reviewer (the package names no owner for this rule)"
READ_KINDS = (section_kinds.GUIDANCE, section_kinds.CHECKLIST)
_OPENING_UNITS = (units.SENTENCE, units.ITEM, units.ROW)

_OBLIGATION = re.compile(
    r"\b(?:must|shall|mandatory|(?:is|are|be|been) required|required to)\b", re.I
)
_PROHIBITION = re.compile(
    r"^(?:never|do not|don't)\b|\b(?:you|we|teams?|should|will|must) (?:never|not)\b", re.I
)
_NAME_BREAK = re.compile(r"\s*[:—–]\s*")
_LIFTED = re.compile(
    r"\b(?:do|does|did|will|should|must|need)(?:n't| not)(?: always)? (?:need|have) to\b"
    r"|\bnot (?:necessarily|always|required)\b|\bno longer required\b",
    re.I,
)


def is_rule(sentence: str) -> bool:
    """Whether a package sentence states an obligation or a prohibition."""
    text = sentence.strip()
    if text.endswith("?") or _LIFTED.search(text):
        return False
    return bool(_OBLIGATION.search(text) or _PROHIBITION.search(text))


def rules(section: Section) -> list[tuple[str, str]]:
    """The rule sentences of one section, in document order, each with the lead-in it is read
    with ("" for a sentence): list items under a rule lead-in count, the lead-in itself, ending
    in ":", is not a rule one can check."""
    found: list[tuple[str, str]] = []
    for unit in units.units(section.text):
        if unit.kind == units.SENTENCE:
            ok = is_rule(unit.text) and not unit.text.endswith(":")
        elif unit.kind == units.ITEM:
            ok = is_rule(unit.intro) or is_rule(unit.text)
        else:
            continue
        if not ok or len(content_stems(unit.text)) < MIN_CONTENT_WORDS:
            continue
        rule = (unit.intro if unit.kind == units.ITEM else "", unit.text)
        if rule not in found:
            found.append(rule)
    return found


def quoted(found: Sequence[tuple[str, str]]) -> str:
    """Rules as one text, verbatim: a lead-in once before the items it introduces ("you must:
    keep ...; never ...")."""
    parts: list[str] = []
    previous = ""
    for lead_in, text in found:
        if lead_in and lead_in == previous:
            parts[-1] = f"{parts[-1].rstrip('.')}; {text}"
        else:
            parts.append(f"{lead_in} {text}" if lead_in else text)
        previous = lead_in
    return " ".join(parts)


def _openings(section: Section) -> list[tuple[str, str]]:
    """A section's first sentences, list items or table rows (a section may be a table only)."""
    opening = [
        ("", u.text)
        for u in units.units(section.text)
        if u.kind in _OPENING_UNITS and len(content_stems(u.text)) >= MIN_CONTENT_WORDS
    ]
    return opening[:OPENING_SENTENCES]


def derive(artifacts: Sequence[Artifact]) -> tuple[tuple[Criterion, ...], int]:
    """Criteria from the rule-bearing sections of ``artifacts`` (call only when neither declared
    nor checklist criteria exist), and how many such sections the cap left out."""
    read = [(a, s) for a in artifacts for s in a.sections if s.kind in READ_KINDS]
    stated = [(a, s, rules(s)) for a, s in read]
    if not any(found for _, _, found in stated):
        stated = [(a, s, _openings(s)) for a, s in read]
    stated = [(a, s, found) for a, s, found in stated if found]
    ranked = sorted(range(len(stated)), key=lambda i: (-len(stated[i][2]), i))
    kept = sorted(ranked[:MAX_DERIVED])
    weights = Weights.of(s.text for a in artifacts for s in a.sections)
    recurring = Counter(s.heading.casefold() for a in artifacts for s in a.sections)
    criteria: list[Criterion] = []
    names: set[str] = set()
    for i in kept:
        artifact, section, found = stated[i]
        name = _name(artifact, section, recurring, names)
        if not name:
            continue
        names.add(name.casefold())
        shown = quoted(found[:QUOTED_RULES])
        criteria.append(
            Criterion(
                name=name,
                evidence_expected=shown.rstrip(". "),
                confirmed_by=NO_OWNER,
                applies_to=DRAFT_KINDS,
                terms=_terms(weights, name, section, recurring, found),
                requires=asks_for(shown),
                row_id=f"{artifact.topic}#{section.anchor}",
            )
        )
    return tuple(criteria), len(stated) - len(kept)


def _terms(
    weights: Weights,
    name: str,
    section: Section,
    recurring: Counter[str],
    found: Sequence[tuple[str, str]],
) -> tuple[str, ...]:
    """The name's key phrases (a section heading names what its rules are about; a recurring
    heading such as "Overview" names nothing), then the rules' own."""
    generic = (
        set(content_stems(section.heading)) if recurring[section.heading.casefold()] > 1 else set()
    )
    named = weights.key_phrases(name, generic, NAME_TERMS)
    ruled = weights.key_phrases(" ".join(text for _, text in found), set(), MAX_TERMS)
    return tuple(dict.fromkeys((*named, *ruled)))


def _name(artifact: Artifact, section: Section, recurring: Counter[str], taken: set[str]) -> str:
    """The section heading; with the artifact title after it when the heading recurs or is taken."""
    heading = _plain(section.heading)
    qualified = f"{heading} ({_plain(artifact.title)})" if heading else _plain(artifact.title)
    short = qualified if recurring[section.heading.casefold()] > 1 or not heading else heading
    for name in (short, qualified):
        if name.casefold() not in taken:
            return name
    return ""


def _plain(text: str) -> str:
    """A heading or title as a criterion name a finding line can carry: one line, no colon, dash
    or bracket (they end the name where the answer check reads it: ``assistant/review/findings.py``)."""
    text = _NAME_BREAK.sub(" - ", " ".join(text.split()))
    return text.replace("[", "(").replace("]", ")")
