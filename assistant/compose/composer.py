"""The extractive answer composer: the unit that answers the question first, then only units that add.

Used by the deterministic provider for the "Package says" lane. It reads only the package
sources it is sent. Every unit (``assistant/package/units.py``) of every source is scored: by the learnt
unit ranker (``assistant/compose/unit_ranking.py``, the probability that the unit holds a fact the
question asks for) over the named parts of its hand score (``assistant/compose/unit_scoring.py``: the
IDF-weighted question terms it contains, the source's rank, its heading and what the question
asks, ``assistant/retrieval/question_types.py``: who decides -> a unit naming a role; what must / which
items -> the list or table, whole; how long / how many -> a unit with a figure; what is X -> the
sentence defining X), or by the hand score when no ranker is built. The best unit leads, with
the next sentence of its paragraph when it is a sentence (a lead often names the subject and
the next sentence says what it is); a further unit is added only when it scores close to the
lead and brings question terms or facts the answer does not have yet, up to four sources. Then
the rest of the lead's section follows in its own order (every unit of it, matched or not),
while the answer stays within the longer of ``MAX_CHARS`` and the lead section: quoting a section whole carries facts the chosen units miss (on the converted
public packages the units alone carried 0.34-0.55 of the key facts where a whole-section quote
carried 0.41-0.79), so the answer keeps the direct answer first and the section's facts after.
Lists and tables are written as bullet items (``assistant/compose/unit_writing.py``), anti-pattern text only
under "The playbook warns against:", and no sentence is written twice.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from assistant.compose import unit_ranking
from assistant.compose.unit_scoring import MAX_LIST_ITEMS, Scored, UnitScorer
from assistant.compose.unit_writing import render
from assistant.domain.prompt import SourceRef
from assistant.package import kinds as section_kinds
from assistant.package.expansion import Expansion
from assistant.package.units import ITEM, LIST, ROW, SENTENCE, TABLE, units
from assistant.retrieval.query import Query
from assistant.retrieval.question_memory import Votes
from assistant.retrieval.question_types import FIGURE, LISTING, WHO, has_type_signal
from assistant.retrieval.section_space import SectionSpace

MAX_SOURCES = 4
MAX_UNITS = 4
MAX_CHARS = 1600
ADJACENT_WEIGHT = 1.6
SUPPORT_SHARE = 0.25
# On the unit ranker's probability scale: a list question is led by a list or table the model
# gives a tenth of the best unit's probability (cross-author figures were the same from 0.05 to 0.2).
LISTING_LEAD_SHARE = 0.1
# A unit from a source not cited yet may support at a lower share: another section often holds the rest.
OTHER_SOURCE_SHARE = 0.2


@dataclass(frozen=True)
class Composer:
    """Composes the lane for one question; ``idf`` weighs a term (0 for words the package lacks).

    ``question`` is the analysed question (``assistant/retrieval/query.py``), or plain text that
    the unit scorer analyses (the trainers and tests pass text)."""

    question: str | Query
    expansion: Expansion
    idf: Callable[[str], float | None]
    #: The package's latent space, one of the learnt unit ranker's features (None: left out).
    space: SectionSpace | None = None
    #: What the nearest labelled questions say about this one, another of its features.
    votes: Votes | None = None
    _kinds: dict[int, str] = field(default_factory=dict, repr=False, compare=False)

    def compose(self, refs: tuple[SourceRef, ...]) -> str:
        if not refs:
            return ""
        scorer = UnitScorer(self.question, self.expansion, self.idf)
        object.__setattr__(
            self,
            "_kinds",
            {
                i: str(ref.meta.get("section_kind", section_kinds.GUIDANCE))
                for i, ref in enumerate(refs)
            },
        )
        qtype = scorer.qtype
        scored = self._scored(scorer, refs)
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
                    and has_type_signal(candidate.unit, qtype)
                    and not any(has_type_signal(c.unit, qtype) for c in chosen)
                )
            )
            if not adds_fact:
                continue
            chosen.append(candidate)
            covered |= candidate.terms
            if sum(len(_render(c, refs)) for c in chosen) > MAX_CHARS:
                chosen.pop()
                break
        chosen += self._rest_of_section(chosen, refs)
        return "\n\n".join(_render(c, refs) for c in chosen)

    def _rest_of_section(self, chosen: list[Scored], refs: tuple[SourceRef, ...]) -> list[Scored]:
        """The rest of the lead's section, in its own order: after the direct answer, the facts
        a reader of the whole section gets.

        Every unit of the section counts, whether or not it shares a word with the question (a
        sentence that begins "However, there was no difference ..." after the one the question
        matched is the section's answer too). The answer stays within the longer of
        ``MAX_CHARS`` and the lead section itself, so a long section is carried whole rather
        than cut at a fixed length, and an answer is seldom longer than quoting its section.
        """
        used = sum(len(_render(c, refs)) for c in chosen)
        lead = chosen[0]
        rest = [
            Scored(0.0, lead.ref_index, unit, frozenset())
            for unit in units(refs[lead.ref_index].text)
            if unit.kind in (SENTENCE, LIST, TABLE)
        ]
        whole: list[Scored] = []
        for unit in rest:
            if not self._overlaps(unit, whole):
                whole.append(unit)
        # The section quoted whole, as this composer writes it.
        budget = max(MAX_CHARS, sum(len(_render(c, refs)) + 2 for c in whole))
        added: list[Scored] = []
        for candidate in rest:
            if self._overlaps(candidate, chosen + added):
                continue
            size = len(_render(candidate, refs)) + 2
            if used + size > budget:
                break
            added.append(candidate)
            used += size
        return added

    def _scored(self, scorer: UnitScorer, refs: tuple[SourceRef, ...]) -> list[Scored]:
        """Every unit of every source, scored by the learnt unit ranker, else by hand."""
        ranker = unit_ranking.model()
        if ranker is None:
            return [s for i, ref in enumerate(refs) for s in scorer.score_ref(i, ref)]
        return ranker.rescore(unit_ranking.described(scorer, refs, self.space, self.votes))

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


def _render(scored: Scored, refs: tuple[SourceRef, ...]) -> str:
    return render(scored.unit, refs[scored.ref_index])
