"""Question-aware re-ranking of retrieval hits: heading and definition matches, section kinds.

BM25 (``assistant/retrieval.py``) ranks rows by shared words. A reader looking for "the
decision record" wants the section headed "Decision records" first, and "What is a source
owner?" wants the section that defines a source owner. This module re-orders the leading
hits: a row whose heading the question names (every content word of the heading is in the
question, after typo correction and glossary expansion) gains in proportion to how much of the
question its heading covers; a definition question naming a heading exactly puts that row
first and counts as package support; anti-pattern sections give way to guidance unless the
question asks about failures. It never removes a hit and never refuses.
"""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache

from assistant import composer, section_kinds
from assistant.retrieval import Hit, Index, SearchResult
from assistant.types import PackageRow
from assistant.units import units
from core.text import content_stems, stems

DEPTH = 24
HEADING_BONUS = 0.6
UNIT_BONUS = 0.8
DEFINITION_BONUS = 1.6
ANTI_PATTERN_WEIGHT = 0.8
# "What must ... check / include" wants the checklist, whole, more than a definition.
CHECKLIST_WEIGHT = 1.4
LISTING_DEFINITION_WEIGHT = 0.8
GENERIC_HEADINGS = frozenset({"purpose and scope"})
_WARN_Q = re.compile(
    r"\b(?:anti-?patterns?|mistakes?|wrong|warn|avoid|pitfalls?|fail\w*|bad|blockers?)\b", re.I
)


@lru_cache(maxsize=4096)
def _heading_stems(heading: str) -> frozenset[str]:
    return frozenset(content_stems(heading))


def _weight(index: Index, terms: frozenset[str] | set[str]) -> float:
    return sum(index.idf(t) or 0.0 for t in terms)


def _question_stems(index: Index, question: str) -> set[str]:
    seq = [index.correct(s) for s in stems(question)]
    base = set(content_stems(" ".join(seq)))
    for tokens in index.expansion.expansions_by_word(seq).values():
        base |= {t for t in tokens if not t.startswith("ph_")}
    return base


def search(index: Index, question: str, *, k: int) -> SearchResult:
    """``index.search`` re-ranked for the question; the first ``k`` hits."""
    result = index.search(question, k=DEPTH)
    if not result.hits:
        return result
    q_stems = _question_stems(index, question)
    q_weight = _weight(index, set(content_stems(question))) or 1.0
    top = result.top_score or 1.0
    term = composer.defined_term(question)
    term_stems = frozenset(content_stems(term)) if term else frozenset()
    warn_q = bool(_WARN_Q.search(question))
    listing = composer.question_type(question) == composer.LISTING

    q_idf = {t: index.idf(t) or 0.0 for t in set(content_stems(question))}
    own = set(content_stems(" ".join(index.correct(w) for w in stems(question))))
    by_id = {h.row.row_id: h for h in result.hits}
    for row in _headed_rows(index, frozenset(own), term_stems):
        by_id.setdefault(row.row_id, Hit(row=row, score=0.0, matched_terms=()))
    defined = False
    scored: list[tuple[float, int, Hit]] = []
    for order, hit in enumerate(by_id.values()):
        score = hit.score
        heading = _heading_stems(hit.row.heading)
        glossary = hit.row.kind == section_kinds.DEFINITION
        if term_stems and heading and heading in (term_stems, term_stems & q_stems):
            score += top * DEFINITION_BONUS * (1.0 if glossary else 0.8)
            defined = True
        elif (
            len(heading) > 1
            and heading <= own
            and not glossary
            and hit.row.heading.lower() not in GENERIC_HEADINGS
        ):
            score += top * HEADING_BONUS * min(1.0, _weight(index, heading) / q_weight)
        score += top * UNIT_BONUS * _best_unit_share(index, hit.row.text, q_idf)
        if listing and hit.row.kind == section_kinds.CHECKLIST:
            score *= CHECKLIST_WEIGHT
        elif listing and hit.row.kind == section_kinds.DEFINITION:
            score *= LISTING_DEFINITION_WEIGHT
        if hit.row.kind == section_kinds.ANTI_PATTERN and not warn_q:
            score *= ANTI_PATTERN_WEIGHT
        scored.append((score, order, dataclasses.replace(hit, score=score)))
    scored.sort(key=lambda s: (-s[0], s[1]))
    hits = tuple(h for _, _, h in scored[:k])
    return dataclasses.replace(
        result,
        hits=hits,
        top_score=hits[0].score,
        supported=result.supported or defined,
    )


def _best_unit_share(index: Index, text: str, q_idf: dict[str, float]) -> float:
    """The largest IDF share of the question's words that one unit of the row holds together."""
    total = sum(q_idf.values()) or 1.0
    best = 0.0
    for unit_stems in _unit_stems(text):
        best = max(best, sum(w for t, w in q_idf.items() if t in unit_stems))
    return best / total


@lru_cache(maxsize=4096)
def _unit_stems(text: str) -> tuple[frozenset[str], ...]:
    return tuple(
        frozenset(content_stems(" ".join((u.intro, u.text)) if u.kind == "item" else u.text))
        for u in units(text)
        if u.kind not in ("list", "table")
    )


def _headed_rows(index: Index, own: frozenset[str], term: frozenset[str]) -> list[PackageRow]:
    """Rows the question names by heading: the defined term, or a heading of two words or more."""
    out = []
    for row in index.rows:
        heading = _heading_stems(row.heading)
        if not heading or row.heading.lower() in GENERIC_HEADINGS:
            continue
        if heading == term or (
            len(heading) > 1 and heading <= own and row.kind != section_kinds.DEFINITION
        ):
            out.append(row)
    return out
