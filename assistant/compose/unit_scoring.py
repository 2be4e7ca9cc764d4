"""How well each unit of a sent package source answers one question: IDF-weighted terms, then named weights.

A unit's score is the IDF weight of the question terms it holds (a list or table also counts
its section heading's), plus a share of the heading's match; then weighted by its shape (a list
whose lead-in asks what the question asks, an item, an over-long list), by what the question
asks (a deciding role, a figure, the sentence defining the term) and by the section's kind (an
anti-pattern, a definition); last, by the source's retrieval rank.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property

from assistant.domain.prompt import SourceRef
from assistant.package import kinds as section_kinds
from assistant.package.expansion import Expansion
from assistant.package.units import ITEM, LIST, ROW, SENTENCE, TABLE, Unit, unit_text, units
from assistant.retrieval.index import analyze, analyze_stems
from assistant.retrieval.query import Query
from assistant.retrieval.question_types import (
    DEFINITION,
    FIGURE,
    LISTING,
    OTHER,
    WHO,
    has_type_signal,
)
from core.text import content_stems

MAX_LIST_ITEMS = 14
HEADING_SHARE = 0.35
RANK_PRIOR = (1.0, 0.7, 0.55, 0.45, 0.4, 0.35, 0.3, 0.3)

_DEFINES = re.compile(
    r"^(?:an? |the )?(?P<x>[^,.;:]{2,80}?) (?:is|are|means|refers to|describes)\b", re.I
)
_WARN_Q = re.compile(
    r"\b(?:anti-?patterns?|mistakes?|wrong|warn|avoid|pitfalls?|fail(?:ure|s)?|bad)\b", re.I
)


@dataclass(frozen=True)
class Scored:
    score: float
    ref_index: int
    unit: Unit
    terms: frozenset[str]


@dataclass(frozen=True)
class _Section:
    """What a source's heading and place contribute to each of its units' scores."""

    kind: str
    heading_terms: frozenset[str]
    heading_match: float
    prior: float


@dataclass(frozen=True)
class UnitScorer:
    """Scores units against one question; ``idf`` weighs a term (0 for words the package lacks).

    ``question`` is the analysed question (``assistant/retrieval/query.py``) the pipeline built;
    plain text, as the trainers and tests pass it, is analysed once here (``query``)."""

    question: str | Query
    expansion: Expansion
    idf: Callable[[str], float | None]

    @cached_property
    def query(self) -> Query:
        return Query.of(self.question)

    @cached_property
    def qtype(self) -> str:
        return self.query.question_type

    @cached_property
    def _analysed(self) -> list[str]:
        """The question's own index-side tokens (``analyze``), from its stems."""
        return analyze_stems(self.query.stems, self.expansion)

    @cached_property
    def terms(self) -> dict[str, float]:
        """The question's analysed and expanded terms, each with its IDF weight."""
        weights: dict[str, float] = {}
        for term in self._analysed + self.expansion.expand(self.query.stems):
            weight = self.idf(term)
            if weight:
                weights[term] = max(weights.get(term, 0.0), weight)
        return weights

    @cached_property
    def _own_terms(self) -> dict[str, float]:
        """The weighted terms the question itself holds, expansions left out."""
        own = set(self._analysed)
        return {t: w for t, w in self.terms.items() if t in own}

    @cached_property
    def _warn_question(self) -> bool:
        return bool(_WARN_Q.search(self.query.text))

    @cached_property
    def _term_stems(self) -> set[str]:
        return set(self.query.defined_stems) if self.qtype == DEFINITION else set()

    def score_ref(self, index: int, ref: SourceRef) -> list[Scored]:
        """Every unit of ``ref`` that holds a question term, scored; ``index`` is its rank."""
        section = self._section(index, ref)
        out = []
        for unit in units(ref.text):
            terms = self._matched_terms(unit, section)
            overlap = sum(self.terms[t] for t in terms)
            if overlap <= 0:
                continue
            score = overlap + HEADING_SHARE * section.heading_match
            score = self._weigh_shape(unit, score)
            score = self._weigh_question(unit, score, section.kind)
            score = self._weigh_section(score, section.kind)
            out.append(Scored(score * section.prior, index, unit, terms))
        return out

    def described(self, index: int, ref: SourceRef) -> list[tuple[Scored, dict[str, float]]]:
        """Each scored unit of ``ref`` with the named parts of its score, the learnt unit
        ranker's features (``assistant/compose/unit_ranking.py``)."""
        section = self._section(index, ref)
        total = sum(self.terms.values()) or 1.0
        own_total = sum(self._own_terms.values()) or 1.0
        out = []
        for scored in self.score_ref(index, ref):
            unit = scored.unit
            overlap = sum(self.terms[t] for t in scored.terms)
            own = sum(self._own_terms.get(t, 0.0) for t in scored.terms)
            q = self.qtype
            m = _DEFINES.match(unit.text) if unit.kind == SENTENCE else None
            defines = (
                q == DEFINITION
                and bool(self._term_stems)
                and m is not None
                and set(content_stems(m.group("x"))) == self._term_stems
            )
            feats = {
                "overlap_share": overlap / total,
                "own_share": own / own_total,
                "heading_share": section.heading_match / total,
                f"kind_{unit.kind}": 1.0,
                "list_answers": float(
                    unit.kind in (LIST, TABLE) and self._list_weight(unit) == 2.0
                ),
                "list_long": float(unit.kind in (LIST, TABLE) and len(unit.parts) > MAX_LIST_ITEMS),
                "who_role": float(q == WHO and has_type_signal(unit, WHO)),
                "figure_figure": float(q == FIGURE and has_type_signal(unit, FIGURE)),
                "figure_q": float(q == FIGURE),
                "defines_term": float(defines),
                "definition_section": float(section.kind == section_kinds.DEFINITION),
                "definition_q_section": float(
                    q == DEFINITION and section.kind == section_kinds.DEFINITION
                ),
                "listing_whole": float(q == LISTING and unit.kind in (LIST, TABLE)),
                "listing_part": float(q == LISTING and unit.kind in (ITEM, ROW)),
                "anti_pattern": float(
                    section.kind == section_kinds.ANTI_PATTERN and not self._warn_question
                ),
                "checklist_section": float(section.kind == section_kinds.CHECKLIST),
                "prior": section.prior,
                "first_source": float(index == 0),
                "opens_section": float(unit.block == 0 and unit.position == 0),
                "words": min(len(unit_text(unit).split()), 120) / 40.0,
            }
            out.append((scored, feats))
        return out

    def _section(self, index: int, ref: SourceRef) -> _Section:
        heading_terms = frozenset(analyze(ref.title.split(" — ", 1)[-1], self.expansion))
        return _Section(
            kind=str(ref.meta.get("section_kind", section_kinds.GUIDANCE)),
            heading_terms=heading_terms,
            heading_match=sum(w for t, w in self.terms.items() if t in heading_terms),
            prior=RANK_PRIOR[min(index, len(RANK_PRIOR) - 1)],
        )

    def _matched_terms(self, unit: Unit, section: _Section) -> frozenset[str]:
        terms = frozenset(analyze(unit_text(unit), self.expansion)) & frozenset(self.terms)
        if unit.kind in (LIST, TABLE):
            # A section's list or table is about what its heading names.
            terms |= section.heading_terms & frozenset(self.terms)
        return terms

    def _weigh_shape(self, unit: Unit, score: float) -> float:
        """A list or table by whether its lead-in asks what the question asks; items a little less."""
        if unit.kind in (LIST, TABLE):
            score *= self._list_weight(unit)
            if len(unit.parts) > MAX_LIST_ITEMS:
                score *= 0.5
        if (self.qtype == LISTING and unit.kind in (ITEM, ROW)) or (
            unit.kind == ITEM and unit.intro and unit.intro == unit.text
        ):
            score *= 0.9
        return score

    def _list_weight(self, unit: Unit) -> float:
        own = self._own_terms
        intro_terms = frozenset(analyze(unit.intro, self.expansion)) & frozenset(own)
        answers_question = bool(own) and sum(own[t] for t in intro_terms) >= 0.6 * sum(own.values())
        return 2.0 if answers_question else 1.25 if self.qtype == LISTING else 0.6

    def _weigh_question(self, unit: Unit, score: float, kind: str) -> float:
        """A deciding role for who, a figure for how many, the defining sentence for what is X."""
        if self.qtype == WHO and has_type_signal(unit, WHO):
            score *= 1.4
        if self.qtype == FIGURE and has_type_signal(unit, FIGURE):
            score *= 1.4
        if self.qtype == DEFINITION and self._term_stems and unit.kind == SENTENCE:
            m = _DEFINES.match(unit.text)
            if m and set(content_stems(m.group("x"))) == self._term_stems:
                score *= 2.0
            elif kind == section_kinds.DEFINITION:
                score *= 1.2
        return score

    def _weigh_section(self, score: float, kind: str) -> float:
        """Anti-patterns only lead a question about mistakes; definitions mostly a definition question."""
        if kind == section_kinds.ANTI_PATTERN and not self._warn_question:
            score *= 0.6
        if kind == section_kinds.DEFINITION and self.qtype not in (DEFINITION, OTHER):
            score *= 0.85
        return score
