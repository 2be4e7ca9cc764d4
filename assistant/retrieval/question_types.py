"""What a question asks for (a definition, a role, a figure, a list, a reason, a method) and the unit signals that answer it."""

from __future__ import annotations

import re

from assistant.package.units import Unit, unit_text

DEFINITION, WHO, FIGURE, LISTING, WHY, HOW, OTHER = (
    "definition",
    "who",
    "figure",
    "listing",
    "why",
    "how",
    "other",
)

_DEFINITION_Q = re.compile(
    r"^\s*(?:so\s+)?(?:what(?:'s| is| are)\s+(?:a |an |the )?(?P<x>[^?,]{2,60}?)\s*\??$"
    r"|define\s+(?P<y>[^?]+)|what does\s+(?P<z>.+?)\s+mean\b|what do you mean by\s+(?P<w>[^?]+)"
    r"|what is meant by\s+(?P<v>[^?]+))",
    re.I,
)
_WHO_Q = re.compile(
    r"\bwho\b|\bwhose\b|\bwhich (?:role|owner|person|people|team|function)s?\b", re.I
)
_FIGURE_Q = re.compile(
    r"\bhow (?:long|many|much|often|soon|far|frequently|quickly)\b|\bwhat (?:percentage|share|"
    r"threshold|number|proportion|rate|ratio|limit|minimum|maximum|budget|deadline)\b|\bwithin how\b"
    r"|\bwhat (?:time|timeframe|period)\b|\bby when\b|\bhow big\b",
    re.I,
)
_LISTING_Q = re.compile(
    r"\bwhat(?: \w+)? (?:must|should|does|do|has|have|needs?)\b.*\b(?:include|contain|check|cover|state|"
    r"list|record|say|show|name|hold|have|answer|confirm|need|ask|capture|describe|document)\b"
    r"|\bwhat (?:are|were) the\b|\bwhich (?:items|things|questions|criteria|elements|fields|checks"
    r"|steps|conditions|sign-offs|signoffs|reasons|metrics|triggers)\b|\bchecklist\b|\blist\b"
    r"|\bwhat (?:goes|belongs) in(?:to)?\b|\bwhat makes\b|\bwhat (?:evidence|items|questions|criteria|steps|metrics)\b",
    re.I,
)
ROLE = re.compile(
    r"\b(?:owner|officer|reviewer|board|counsel|holder|function|sponsor|lead|author|team|"
    r"committee|approver)s?\b",
    re.I,
)
DECISION = re.compile(
    r"\b(?:decides?|decided|approves?|signs?|holds?|accountable|accepts?|owns?)\b", re.I
)
FIGURES = re.compile(
    r"\b\d[\d,.]*\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|forty|fifty|sixty|ninety|hundred|half|quarter|daily|weekly|monthly|quarterly|"
    r"annually|yearly)\b",
    re.I,
)


def question_type(question: str) -> str:
    """What the question asks for: a definition, a role, a figure, a list, a reason, a method."""
    q = question.strip()
    if _FIGURE_Q.search(q):
        return FIGURE
    if _WHO_Q.search(q):
        return WHO
    if re.match(r"^\s*why\b", q, re.I):
        return WHY
    if _LISTING_Q.search(q):
        return LISTING
    if _DEFINITION_Q.match(q):
        return DEFINITION
    if re.match(r"^\s*how\b", q, re.I):
        return HOW
    return OTHER


def defined_term(question: str) -> str | None:
    """The X of "What is X?", "Define X", "What does X mean?"."""
    m = _DEFINITION_Q.match(question.strip())
    if not m:
        return None
    term = next((g for g in m.groups() if g), None)
    if not term:
        return None
    term = re.sub(r"^[\"'“]|[\"'”]$", "", term.strip()).strip()
    return term or None


def has_type_signal(unit: Unit, qtype: str) -> bool:
    """Whether a unit carries what a who or how-many question asks for: a deciding role, a figure."""
    text = unit_text(unit)
    if qtype == WHO:
        return bool(ROLE.search(text) and DECISION.search(text))
    if qtype == FIGURE:
        return bool(FIGURES.search(text))
    return False
