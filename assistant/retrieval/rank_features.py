"""Features of a (question, package section) pair, for the learned section ranker.

Every feature is a property of the pair that holds for any package, not a word of this one:
how much of the question the first-stage BM25 score, the heading, what the section is about
(its artifact title and heading), one unit of the section or the whole section covers
(IDF-weighted); how close the two lie in the package's own latent space
(``assistant/retrieval/section_space.py``) and in a general word embedding, for the section's
text and for its title and heading (``assistant/retrieval/section_embeddings.py``); how likely
the question is about the section's artifact (``assistant/screening/topics.py``, learnt from
the screening corpus); how strongly the nearest labelled questions vote for it
(``assistant/retrieval/question_memory.py``); whether the question names the heading or asks
for the term the section defines; what kind of section it is (guidance, checklist, definition, example, anti-pattern) crossed with what the question asks for (a role,
a figure, a list, a definition, a reason, a method); and whether the section holds what that
kind of question wants (a sentence naming a role that decides, a figure, a list or table).
``assistant/retrieval/ranking.py`` weighs them with the model ``learning/training/ranker.py`` learns.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from assistant.domain.types import PackageRow
from assistant.package import kinds as section_kinds
from assistant.package.units import ITEM, LIST, ROW, SENTENCE, TABLE, units
from assistant.retrieval import question_memory, question_types
from assistant.retrieval.index import Index
from assistant.retrieval.query import Query
from core.text import content_stems

QTYPES = (
    question_types.DEFINITION,
    question_types.WHO,
    question_types.FIGURE,
    question_types.LISTING,
    question_types.WHY,
    question_types.HOW,
)
CROSSED_KINDS = (
    section_kinds.CHECKLIST,
    section_kinds.DEFINITION,
    section_kinds.EXAMPLE,
    section_kinds.ANTI_PATTERN,
)
SIGNALS = ("role_decision", "figure", "listing", "defines_term")

FEATURES: tuple[str, ...] = (
    "first_stage_share",
    "first_stage_reciprocal_rank",
    "first_stage_absent",
    "heading_named_share",
    "heading_question_share",
    "heading_fully_named",
    "defines_question_term",
    "about_question_share",
    "best_unit_share",
    "section_question_share",
    "bigram_share",
    "first_section_of_artifact",
    "glossary",
    "log_length",
    "warning_question_anti_pattern",
    "section_space_similarity",
    "embedding_similarity",
    "embedding_about_similarity",
    "heading_fully_named*kind:definition",
    "heading_fully_named*definition_question",
    "listing_question*log_list_items",
    "artifact_topic_probability",
    "log_artifact_topic_probability",
    "neighbour_vote",
    "neighbour_voted",
    "neighbour_vote*nearest_similarity",
    *(f"kind:{k}" for k in CROSSED_KINDS),
    *(f"qtype:{q}*kind:{k}" for q in QTYPES for k in CROSSED_KINDS),
    *(f"qtype:{q}*signal:{s}" for q in QTYPES for s in SIGNALS),
)

_WARN_Q = re.compile(
    r"\b(?:anti-?patterns?|mistakes?|wrong|warn|avoid|pitfalls?|fail\w*|bad|blockers?)\b", re.I
)


@dataclass(frozen=True)
class QuestionTerms:
    """A question analysed once per search against the package index."""

    own: frozenset[str]
    expanded: frozenset[str]
    idf: dict[str, float]
    weight: float
    bigrams: frozenset[tuple[str, str]]
    qtype: str
    term: frozenset[str]
    warn: bool
    #: What the nearest labelled questions say (``assistant/retrieval/question_memory.py``).
    votes: question_memory.Votes = question_memory.NO_VOTES


def analyse(
    index: Index, question: str | Query, spelled: Sequence[str] | None = None
) -> QuestionTerms:
    """What the ranker weighs of the question against ``index``'s package.

    ``question`` is the analysed question (plain text is analysed here, for the tests and the
    learning side); ``spelled`` its stems as the package spells them, when ``Index.search``
    has corrected them already (``SearchResult.spelled``)."""
    query = Query.of(question)
    seq = list(spelled) if spelled is not None else list(index.spelled(query))
    # The corrected stems read as words again: a stem may stem further, as training saw it.
    ordered = content_stems(" ".join(seq))
    own = frozenset(ordered)
    expanded = set(own)
    for tokens in index.expansion.expansions_by_word(seq).values():
        expanded |= {t for t in tokens if not t.startswith("ph_")}
    idf = {t: index.idf(t) or 0.0 for t in expanded}
    return QuestionTerms(
        own=own,
        expanded=frozenset(expanded),
        idf=idf,
        weight=sum(idf[t] for t in own) or 1.0,
        bigrams=frozenset(zip(ordered, ordered[1:], strict=False)),
        qtype=query.question_type,
        term=query.defined_stems,
        warn=bool(_WARN_Q.search(query.text)),
        votes=question_memory.for_index(index).votes(query),
    )


@dataclass(frozen=True)
class SectionProfile:
    """What a section holds, analysed once per process (package text only)."""

    stems: frozenset[str]
    heading: frozenset[str]
    title: frozenset[str]
    bigrams: frozenset[tuple[str, str]]
    unit_stems: tuple[frozenset[str], ...]
    defined_subjects: tuple[frozenset[str], ...]
    length: int
    role_decision: bool
    figure: bool
    listing: bool
    list_items: int


_DEFINES = re.compile(
    r"^(?:an? |the )?(?P<x>[^,.;:]{2,80}?) (?:is|are|means|refers to|describes)\b", re.I
)


@lru_cache(maxsize=8192)
def profile(heading: str, title: str, text: str) -> SectionProfile:
    ordered = content_stems(text)
    all_units = units(text)
    unit_stems = tuple(
        frozenset(content_stems(" ".join((u.intro, u.text)) if u.kind == ITEM else u.text))
        for u in all_units
        if u.kind not in (LIST, TABLE)
    )
    defined = tuple(
        frozenset(content_stems(m.group("x")))
        for u in all_units
        if u.kind == SENTENCE and (m := _DEFINES.match(u.text))
    )
    sentences = [u.text for u in all_units if u.kind in (SENTENCE, ITEM, ROW)]
    return SectionProfile(
        stems=frozenset(ordered) | frozenset(content_stems(heading)),
        heading=frozenset(content_stems(heading)),
        title=frozenset(content_stems(title)),
        bigrams=frozenset(zip(ordered, ordered[1:], strict=False)),
        unit_stems=unit_stems,
        defined_subjects=defined,
        length=len(ordered),
        role_decision=any(
            question_types.ROLE.search(s) and question_types.DECISION.search(s) for s in sentences
        ),
        figure=any(question_types.FIGURES.search(s) for s in sentences),
        listing=any(u.kind in (LIST, TABLE) for u in all_units),
        list_items=max((len(u.parts) for u in all_units if u.kind in (LIST, TABLE)), default=0),
    )


def _share(terms: frozenset[str], q: QuestionTerms, *, among: frozenset[str]) -> float:
    return sum(q.idf.get(t, 0.0) for t in terms & among) / q.weight


@dataclass(frozen=True)
class Closeness:
    """Cosines of the question to the section: in the package's latent space, and in the word
    embedding to the section's text and to its title and heading."""

    space: float
    text: float
    about: float


def vector(
    q: QuestionTerms,
    row: PackageRow,
    *,
    first_stage: float,
    first_stage_top: float,
    first_stage_rank: int | None,
    first_of_artifact: bool,
    closeness: Closeness,
    topic_probability: float,
) -> list[float]:
    """The feature vector of one candidate section, in ``FEATURES`` order."""
    p = profile(row.heading, row.title, row.text)
    neighbour_vote = q.votes.section(row.source_path, row.heading)
    heading_weight = sum(q.idf.get(t, 0.0) or 0.0 for t in p.heading) or 0.0
    named = p.heading & q.expanded
    heading_idf = {t: q.idf.get(t, 0.0) for t in p.heading}
    named_share = (
        sum(heading_idf[t] for t in named) / sum(heading_idf.values())
        if sum(heading_idf.values())
        else 0.0
    )
    defines = bool(q.term) and (
        p.heading in (q.term, q.term & q.expanded) or any(s == q.term for s in p.defined_subjects)
    )
    best_unit = max((_share(u, q, among=q.own) for u in p.unit_stems), default=0.0)
    kind = row.kind
    fully_named = len(p.heading) > 1 and p.heading <= q.expanded
    signals = {
        "role_decision": p.role_decision,
        "figure": p.figure,
        "listing": p.listing,
        "defines_term": defines,
    }
    values: list[float] = [
        first_stage / first_stage_top if first_stage_top > 0 else 0.0,
        1.0 / (1 + first_stage_rank) if first_stage_rank is not None else 0.0,
        1.0 if first_stage_rank is None else 0.0,
        named_share if len(p.heading) > 0 else 0.0,
        min(1.0, sum(heading_idf[t] for t in named) / q.weight) if heading_weight else 0.0,
        1.0 if fully_named else 0.0,
        1.0 if defines else 0.0,
        _share(p.title | p.heading, q, among=q.own),
        best_unit,
        _share(p.stems, q, among=q.own),
        len(q.bigrams & p.bigrams) / len(q.bigrams) if q.bigrams else 0.0,
        1.0 if first_of_artifact else 0.0,
        1.0 if row.topic == section_kinds.GLOSSARY_TOPIC else 0.0,
        math.log1p(p.length) / 6.0,
        1.0 if q.warn and kind == section_kinds.ANTI_PATTERN else 0.0,
        closeness.space,
        closeness.text,
        closeness.about,
        1.0 if fully_named and kind == section_kinds.DEFINITION else 0.0,
        1.0 if fully_named and q.qtype == question_types.DEFINITION else 0.0,
        math.log1p(p.list_items) / 3.0 if q.qtype == question_types.LISTING else 0.0,
        topic_probability,
        math.log(topic_probability + 1e-3) / 7.0,
        neighbour_vote,
        1.0 if neighbour_vote > 0 else 0.0,
        neighbour_vote * q.votes.nearest,
    ]
    values += [1.0 if kind == k else 0.0 for k in CROSSED_KINDS]
    values += [1.0 if q.qtype == qt and kind == k else 0.0 for qt in QTYPES for k in CROSSED_KINDS]
    values += [1.0 if q.qtype == qt and signals[s] else 0.0 for qt in QTYPES for s in SIGNALS]
    return values
