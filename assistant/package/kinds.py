"""Section kinds: what a package section is (guidance, checklist, definition, example, anti-pattern).

A section's kind comes from the package itself (docs/package-format.md): an artifact's front
matter may name it (``section_kinds: {"Heading": kind}``); otherwise the heading convention
decides: every glossary section is a definition, a heading naming anti-patterns or common
mistakes is an anti-pattern section, one naming a checklist is a checklist, one naming an
example is an example, and everything else is guidance. Answers never quote anti-pattern text
as guidance, and weigh kinds by what the question asks.
"""

from __future__ import annotations

import dataclasses
import re
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from assistant.package.artifacts import Section

GUIDANCE = "guidance"
CHECKLIST = "checklist"
DEFINITION = "definition"
EXAMPLE = "example"
ANTI_PATTERN = "anti-pattern"
KINDS = (GUIDANCE, CHECKLIST, DEFINITION, EXAMPLE, ANTI_PATTERN)
GLOSSARY_TOPIC = "glossary"

_HEADING_RULES = (
    (re.compile(r"\banti-?patterns?\b|\bcommon mistakes?\b|\bpitfalls?\b", re.I), ANTI_PATTERN),
    (re.compile(r"\bchecklists?\b", re.I), CHECKLIST),
    (re.compile(r"\bexamples?\b", re.I), EXAMPLE),
)


def kind_from_heading(topic: str, heading: str) -> str:
    """The kind the heading convention gives a section of artifact ``topic``."""
    if topic == GLOSSARY_TOPIC:
        return DEFINITION
    for pattern, kind in _HEADING_RULES:
        if pattern.search(heading):
            return kind
    return GUIDANCE


def assign(
    source_path: str, topic: str, declared: Any, sections: list[Section], problems: list[str]
) -> list[Section]:
    """Each section with its kind; a bad ``section_kinds`` front-matter entry is a problem."""
    overrides: dict[str, str] = {}
    if declared is not None:
        if not isinstance(declared, dict):
            problems.append(f"{source_path}: section_kinds must map section headings to kinds")
            declared = {}
        headings = {s.heading for s in sections}
        for heading, kind in declared.items():
            if heading not in headings:
                problems.append(f"{source_path}: section_kinds names no section {heading!r}")
            elif kind not in KINDS:
                problems.append(
                    f"{source_path}: section_kinds gives {heading!r} the unknown kind {kind!r} "
                    f"(one of {', '.join(KINDS)})"
                )
            else:
                overrides[heading] = kind
    return [
        dataclasses.replace(s, kind=overrides.get(s.heading) or kind_from_heading(topic, s.heading))
        for s in sections
    ]
