"""Which kind of draft an upload is: a PRD, a proof-of-concept proposal or an architecture proposal.

The kind decides which declared criteria a review walks, so it is read where a team states it:

1. the question, when it names a kind ("Review this architecture proposal");
2. the upload's title block: its first few short lines (a running page header may come before the
   title), where any name of a kind counts, the first line naming one deciding and the earliest
   name in that line winning ("Proof of concept proposal: ..." is a POC even when the opening
   then credits a "Security Architecture" reviewer);
3. the opening, where only the fuller names count, earliest first;
4. else a proof-of-concept proposal, the package's most common gate draft.

A file's name is not read: names are often a template's or a convention's, not the draft's.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from uploads.types import SessionSource

DEFAULT_KIND = "poc_proposal"
#: Names a team gives each kind in a title or heading.
TITLE_NAMES = {
    "architecture_proposal": re.compile(
        r"\barchitecture\b|\bsolution design\b|\bdesign proposal\b|\btechnical design\b", re.I
    ),
    "poc_proposal": re.compile(r"\bproof[- ]of[- ]concept\b|\bpoc\b", re.I),
    "prd": re.compile(r"\bprd\b|\bproduct requirements?\b|\brequirements document\b", re.I),
}
#: The fuller names that identify a kind in running text, where a bare word may name something else.
TEXT_NAMES = {
    "architecture_proposal": re.compile(
        r"\barchitecture\b|\bsolution design\b|\bdesign proposal\b", re.I
    ),
    "poc_proposal": re.compile(
        r"\bproof[- ]of[- ]concept proposal\b|\bpoc proposal\b|\bproposal for a proof of concept\b",
        re.I,
    ),
    "prd": re.compile(r"\bprd\b|\bproduct requirements?\b|\brequirements document\b", re.I),
}
TITLE_LINES = 4
TITLE_LINE_CHARS = 160
OPENING_CHARS = 600


def _earliest(text: str, names: dict[str, re.Pattern[str]]) -> str:
    """The kind whose name occurs first in ``text``, or "" when none does."""
    found = [(m.start(), kind) for kind, p in names.items() if (m := p.search(text))]
    return min(found)[1] if found else ""


def _title_lines(text: str) -> list[str]:
    lines = [line.strip().lstrip("#").strip() for line in text.splitlines() if line.strip()]
    return [line for line in lines[:TITLE_LINES] if len(line) <= TITLE_LINE_CHARS]


def _first_named(lines: Iterable[str], names: dict[str, re.Pattern[str]]) -> str:
    return next((kind for line in lines if (kind := _earliest(line, names))), "")


def draft_kind(question: str, sources: Sequence[SessionSource]) -> str:
    """The draft kind the question names, else the one the uploads' titles or openings name."""
    if kind := _earliest(question, TEXT_NAMES):
        return kind
    for source in sources:
        if kind := _first_named(_title_lines(source.text), TITLE_NAMES):
            return kind
    for source in sources:
        if kind := _earliest(source.text[:OPENING_CHARS], TEXT_NAMES):
            return kind
    return DEFAULT_KIND
