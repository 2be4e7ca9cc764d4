"""The extractive answer composer: the unit that answers the question first, then only units that add.

Used by the deterministic provider for the "Package says" lane. It reads only the package
sources it is sent. Every unit (``assistant/units.py``) of every source is scored by the
IDF-weighted question terms it contains, the source's rank, its heading and what the question
asks (``question_type``): who decides -> a unit naming a role; what must / which items -> the
list or table, whole; how long / how many -> a unit with a figure; what is X -> the sentence
defining X. The best unit leads, with the next sentence of its paragraph when it is a sentence
(a lead often names the subject and the next sentence says what it is); a further unit is added only when it scores close to the lead
and brings question terms or facts the answer does not have yet, up to four sources. Lists and
tables are written as bullet items, anti-pattern text only under "The playbook warns against:",
and no sentence is written twice.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from assistant import lanes, section_kinds
from assistant.expansion import Expansion
from assistant.prompt import SourceRef
from assistant.retrieval import analyze
from assistant.units import ITEM, LIST, ROW, SENTENCE, TABLE, Unit, clean_end, units
from core.text import content_stems, stems

DEFINITION, WHO, FIGURE, LISTING, WHY, HOW, OTHER = (
    "definition",
    "who",
    "figure",
    "listing",
    "why",
    "how",
    "other",
)
WARNS_AGAINST = lanes.WARNS_AGAINST
MAX_SOURCES = 4
MAX_UNITS = 4
MAX_CHARS = 1600
MAX_LIST_ITEMS = 14
ADJACENT_WEIGHT = 1.6
SUPPORT_SHARE = 0.25
LISTING_LEAD_SHARE = 0.2
# A unit from a source not cited yet may support at a lower share: another section often holds the rest.
OTHER_SOURCE_SHARE = 0.2
RANK_PRIOR = (1.0, 0.7, 0.55, 0.45, 0.4, 0.35, 0.3, 0.3)

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
_ROLE = re.compile(
    r"\b(?:owner|officer|reviewer|board|counsel|holder|function|sponsor|lead|author|team|"
    r"committee|approver)s?\b",
    re.I,
)
_DECISION = re.compile(
    r"\b(?:decides?|decided|approves?|signs?|holds?|accountable|accepts?|owns?)\b", re.I
)
_FIGURE = re.compile(
    r"\b\d[\d,.]*\b|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|"
    r"twenty|thirty|forty|fifty|sixty|ninety|hundred|half|quarter|daily|weekly|monthly|quarterly|"
    r"annually|yearly)\b",
    re.I,
)
_DEFINES = re.compile(
    r"^(?:an? |the )?(?P<x>[^,.;:]{2,80}?) (?:is|are|means|refers to|describes)\b", re.I
)
_WARN_Q = re.compile(
    r"\b(?:anti-?patterns?|mistakes?|wrong|warn|avoid|pitfalls?|fail(?:ure|s)?|bad)\b", re.I
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


@dataclass(frozen=True)
class Scored:
    score: float
    ref_index: int
    unit: Unit
    terms: frozenset[str]


@dataclass(frozen=True)
class Composer:
    """Scores units against one question; ``idf`` weighs a term (0 for words the package lacks)."""

    question: str
    expansion: Expansion
    idf: Callable[[str], float | None]
    _kinds: dict[int, str] = field(default_factory=dict, repr=False, compare=False)

    def compose(self, refs: tuple[SourceRef, ...]) -> str:
        if not refs:
            return ""
        object.__setattr__(
            self,
            "_kinds",
            {
                i: str(ref.meta.get("section_kind", section_kinds.GUIDANCE))
                for i, ref in enumerate(refs)
            },
        )
        qtype = question_type(self.question)
        q_terms = self._question_terms()
        scored = [s for i, ref in enumerate(refs) for s in self._score_ref(i, ref, q_terms, qtype)]
        if not scored:
            return ""
        scored.sort(key=lambda s: (-s.score, s.ref_index, s.unit.position))
        first = scored[0]
        if qtype == LISTING and first.unit.kind not in (LIST, TABLE):
            # A question asking for a list is led by a whole list or table that scores near the
            # best unit, rather than by a sentence about it.
            first = next(
                (
                    s
                    for s in scored
                    if s.unit.kind in (LIST, TABLE)
                    and len(s.unit.parts) <= MAX_LIST_ITEMS
                    and s.score >= LISTING_LEAD_SHARE * first.score
                ),
                first,
            )
        lead = self._widen(first, scored, qtype)
        chosen = [lead]
        covered = set(lead.terms)
        follow = self._continuation(lead, refs)
        if follow is not None:
            chosen.append(follow)
            covered |= follow.terms
        for candidate in scored[1:]:
            if len(chosen) >= MAX_UNITS:
                break
            follows = any(
                c.ref_index == candidate.ref_index
                and c.unit.block == candidate.unit.block
                and candidate.unit.position == c.unit.position + 1
                for c in chosen
            )
            new_source = all(c.ref_index != candidate.ref_index for c in chosen)
            share = OTHER_SOURCE_SHARE if new_source else SUPPORT_SHARE
            if candidate.score * (ADJACENT_WEIGHT if follows else 1.0) < lead.score * share:
                continue
            if self._overlaps(candidate, chosen):
                continue
            if len({c.ref_index for c in chosen} | {candidate.ref_index}) > MAX_SOURCES:
                continue
            new_terms = candidate.terms - covered
            # A close unit from a section not quoted yet adds that section's evidence.
            adds_fact = (
                bool(new_terms)
                or new_source
                or (
                    qtype in (FIGURE, WHO)
                    and self._has_type_signal(candidate.unit, qtype)
                    and not any(self._has_type_signal(c.unit, qtype) for c in chosen)
                )
            )
            if not adds_fact:
                continue
            chosen.append(candidate)
            covered |= candidate.terms
            if sum(len(self._render(c, refs)) for c in chosen) > MAX_CHARS:
                chosen.pop()
                break
        return "\n\n".join(self._render(c, refs) for c in chosen)

    # scoring ---------------------------------------------------------------------------------

    def _question_terms(self) -> dict[str, float]:
        weights: dict[str, float] = {}
        for term in analyze(self.question, self.expansion) + self.expansion.expand(
            stems(self.question)
        ):
            weight = self.idf(term)
            if weight:
                weights[term] = max(weights.get(term, 0.0), weight)
        return weights

    def _score_ref(  # noqa: C901 - one scoring pass over a ref's units; each branch a named weight
        self, index: int, ref: SourceRef, q_terms: dict[str, float], qtype: str
    ) -> list[Scored]:
        kind = str(ref.meta.get("section_kind", section_kinds.GUIDANCE))
        heading = ref.title.split(" — ", 1)[-1]
        heading_terms = set(analyze(heading, self.expansion))
        heading_match = sum(w for t, w in q_terms.items() if t in heading_terms)
        prior = RANK_PRIOR[min(index, len(RANK_PRIOR) - 1)]
        warn_q = bool(_WARN_Q.search(self.question))
        own_terms = set(analyze(self.question, self.expansion))
        term = defined_term(self.question) if qtype == DEFINITION else None
        term_stems = set(content_stems(term)) if term else set()
        out = []
        for unit in units(ref.text):
            text = _unit_text(unit)
            terms = frozenset(analyze(text, self.expansion)) & frozenset(q_terms)
            if unit.kind in (LIST, TABLE):
                # A section's list or table is about what its heading names.
                terms |= frozenset(heading_terms) & frozenset(q_terms)
            overlap = sum(q_terms[t] for t in terms)
            if overlap <= 0:
                continue
            score = overlap + 0.35 * heading_match
            if unit.kind in (LIST, TABLE):
                own = {t: w for t, w in q_terms.items() if t in own_terms}
                intro_terms = frozenset(analyze(unit.intro, self.expansion)) & frozenset(own)
                answers_question = bool(own) and sum(own[t] for t in intro_terms) >= 0.6 * sum(
                    own.values()
                )
                score *= 2.0 if answers_question else 1.25 if qtype == LISTING else 0.6
                if len(unit.parts) > MAX_LIST_ITEMS:
                    score *= 0.5
            if (qtype == LISTING and unit.kind in (ITEM, ROW)) or (
                unit.kind == ITEM and unit.intro and unit.intro == unit.text
            ):
                score *= 0.9
            if qtype == WHO and self._has_type_signal(unit, WHO):
                score *= 1.4
            if qtype == FIGURE and self._has_type_signal(unit, FIGURE):
                score *= 1.4
            if qtype == DEFINITION and term_stems and unit.kind == SENTENCE:
                m = _DEFINES.match(unit.text)
                if m and set(content_stems(m.group("x"))) == term_stems:
                    score *= 2.0
                elif kind == section_kinds.DEFINITION:
                    score *= 1.2
            if kind == section_kinds.ANTI_PATTERN and not warn_q:
                score *= 0.6
            if kind == section_kinds.DEFINITION and qtype not in (DEFINITION, OTHER):
                score *= 0.85
            out.append(Scored(score * prior, index, unit, terms))
        return out

    @staticmethod
    def _has_type_signal(unit: Unit, qtype: str) -> bool:
        text = _unit_text(unit)
        if qtype == WHO:
            return bool(_ROLE.search(text) and _DECISION.search(text))
        if qtype == FIGURE:
            return bool(_FIGURE.search(text))
        return False

    def _widen(self, lead: Scored, scored: list[Scored], qtype: str) -> Scored:
        """A listing question led by one item or row gets the whole list; so does a lead-in."""
        unit = lead.unit
        whole = next(
            (
                s
                for s in scored
                if s.ref_index == lead.ref_index
                and s.unit.block == unit.block
                and s.unit.kind in (LIST, TABLE)
            ),
            None,
        )
        if whole is None and qtype == LISTING:
            # A listing question led by a sentence of a checklist (or of a row whose list scores
            # close to it) is answered by that list or table, whole.
            checklist = self._kinds.get(lead.ref_index) == section_kinds.CHECKLIST
            lists = [
                s
                for s in scored
                if s.ref_index == lead.ref_index
                and s.unit.kind in (LIST, TABLE)
                and len(s.unit.parts) <= MAX_LIST_ITEMS
                and (checklist or s.score >= 0.5 * lead.score)
            ]
            if lists:
                return Scored(
                    lead.score, lead.ref_index, lists[0].unit, lead.terms | lists[0].terms
                )
            return lead
        if whole is None or len(whole.unit.parts) > MAX_LIST_ITEMS:
            return lead
        if (qtype == LISTING and unit.kind in (ITEM, ROW)) or (
            unit.kind == ITEM and unit.intro and unit.intro == unit.text
        ):
            return Scored(lead.score, lead.ref_index, whole.unit, lead.terms | whole.terms)
        return lead

    def _continuation(self, lead: Scored, refs: tuple[SourceRef, ...]) -> Scored | None:
        """The sentence after a sentence lead, in the same paragraph: a lead sentence often
        names the subject ("Exit criteria say when the proof of concept is finished.") and the
        next one carries what it says."""
        if lead.unit.kind != SENTENCE:
            return None
        for unit in units(refs[lead.ref_index].text):
            if (
                unit.kind == SENTENCE
                and unit.block == lead.unit.block
                and unit.position == lead.unit.position + 1
            ):
                return Scored(lead.score * 0.5, lead.ref_index, unit, frozenset())
        return None

    @staticmethod
    def _overlaps(candidate: Scored, chosen: list[Scored]) -> bool:
        mine = set(candidate.unit.sentences)
        for c in chosen:
            if c.ref_index != candidate.ref_index:
                if mine & set(c.unit.sentences):
                    return True
                continue
            if c.unit.block == candidate.unit.block and (
                c.unit.kind in (LIST, TABLE) or candidate.unit.kind in (LIST, TABLE)
            ):
                return True
            if mine & set(c.unit.sentences):
                return True
        return False

    # writing ---------------------------------------------------------------------------------

    @staticmethod
    def _render(scored: Scored, refs: tuple[SourceRef, ...]) -> str:
        ref = refs[scored.ref_index]
        cid = f"[{ref.citation_id}]"
        unit = scored.unit
        warn = str(ref.meta.get("section_kind", "")) == section_kinds.ANTI_PATTERN
        if unit.kind in (LIST, TABLE):
            intro = unit.intro if unit.intro and not warn else (WARNS_AGAINST if warn else "")
            items = "\n".join(f"- {part} {cid}" for part in unit.parts)
            return f"{intro} {cid}\n\n{items}" if intro else items
        text = (
            clean_end(unit.text)
            if unit.kind != SENTENCE or not unit.text.endswith(":")
            else unit.text
        )
        if text.endswith(":"):
            text = clean_end(text)
        if warn:
            return f"{WARNS_AGAINST} {text} {cid}"
        return f"{text} {cid}"


def _unit_text(unit: Unit) -> str:
    if unit.kind in (LIST, TABLE):
        return " ".join(((unit.intro,) if unit.intro else ()) + unit.parts)
    return unit.text
