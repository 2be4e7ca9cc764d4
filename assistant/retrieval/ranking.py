"""Learned re-ranking of retrieval hits: which package section answers the question.

BM25 (``assistant/retrieval/index.py``) finds the candidate sections by shared words; it cannot tell
the section that answers "Who decides the production go-live?" from one that mentions the same
words. This module re-orders the candidates (BM25's leading rows, any section whose heading
the question names, and the sections nearest the question in meaning) by a linear model over
the pair features of ``assistant/retrieval/rank_features.py``, learnt by ``manage.py
build_ranker`` (``learning/training/ranker.py``) from labelled questions about the sample and
every converted public package, each package weighing the same, into ``models/ranker.json``.
A score is
the candidate's share of a softmax over the candidates, so "close to the best" is a ratio. It
never removes a hit and never refuses.
"""

from __future__ import annotations

import contextlib
import contextvars
import dataclasses
import json
import math
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from assistant.domain.types import PackageRow
from assistant.models.store import ModelNotReady
from assistant.package import kinds as section_kinds
from assistant.retrieval import question_memory, rank_features, section_embeddings, section_space
from assistant.retrieval.index import Hit, Index, SearchResult
from assistant.retrieval.query import Query
from assistant.screening.artifact import get_screening
from core.text import content_stems

DEPTH = 24
# Sections taken from the package's latent space besides BM25's, for questions in other words.
SEMANTIC_CANDIDATES = 8
# Sections closest to the question in the general word embedding
# (assistant/retrieval/section_embeddings.py).
EMBEDDING_CANDIDATES = 8
# Sections the nearest labelled questions voted for, besides both (assistant/retrieval/question_memory.py).
REMEMBERED_CANDIDATES = 5
MODEL_PATH = Path(settings.AICD_MODEL_DIR) / "ranker.json"


class StaleRankerError(ModelNotReady):
    """The committed ranker was trained on a different feature list than the code computes."""


@dataclass(frozen=True)
class RankerModel:
    features: tuple[str, ...]
    weights: tuple[float, ...]

    def score(self, vector: list[float]) -> float:
        return sum(w * x for w, x in zip(self.weights, vector, strict=True))

    def to_json(self, **about: object) -> str:
        return json.dumps(
            {
                **about,
                "features": list(self.features),
                "weights": [round(w, 6) for w in self.weights],
            },
            indent=1,
        )


_stand_in: contextvars.ContextVar[RankerModel | None] = contextvars.ContextVar(
    "ranker_stand_in", default=None
)


def current() -> RankerModel:
    """The ranker answers are ranked with: the shipped one, or an evaluation's stand-in."""
    return _stand_in.get() or model()


@contextlib.contextmanager
def reading_with(stand_in: RankerModel) -> Iterator[None]:
    """Within the block, rank with ``stand_in`` (the learning side's leave-one-package-out folds)."""
    token = _stand_in.set(stand_in)
    try:
        yield
    finally:
        _stand_in.reset(token)


def schema() -> str:
    """What a ranker file must have been trained on: this code's feature list."""
    return ",".join(rank_features.FEATURES)


@lru_cache(maxsize=1)
def model() -> RankerModel:
    if not MODEL_PATH.exists():
        raise ModelNotReady("ranker", f"is not built ({MODEL_PATH.name} is missing)")
    raw = json.loads(MODEL_PATH.read_text(encoding="utf-8"))
    features = tuple(raw["features"])
    if features != rank_features.FEATURES:
        raise StaleRankerError("ranker", "was trained on other features than this code computes")
    return RankerModel(features, tuple(float(w) for w in raw["weights"]))


@dataclass(frozen=True)
class Candidate:
    hit: Hit
    vector: list[float]


@lru_cache(maxsize=8)
def _first_rows(index: Index) -> frozenset[str]:
    """The row id of each artifact's first section."""
    first: dict[str, str] = {}
    for row in index.rows:
        first.setdefault(row.source_path, row.row_id)
    return frozenset(first.values())


def candidates(
    index: Index,
    question: str | Query,
    result: SearchResult,
    q: rank_features.QuestionTerms | None = None,
) -> list[Candidate]:
    """BM25's leading rows, the rows the question names by heading, the sections of the artifact
    the question is most likely about (the topic classifier), the sections closest to it in
    the package's latent space and in the general word embedding, and those the nearest labelled
    questions were answered from, with their features. The last three reach a section a question asks about in other words than
    the package's ("who's on the hook" for an owner).

    ``question`` is the analysed question (``assistant/retrieval/query.py``; plain text, as the
    tests and the trainer pass it, is analysed here); ``q`` is it analysed against ``index``
    (``rank_features.analyse``), when the caller has it already."""
    query = Query.of(question)
    q = q or rank_features.analyse(index, query, result.spelled or None)
    space = section_space.for_index(index)
    q_vector = space.question_vector(query)
    embedded = section_embeddings.for_index(index)
    q_embedding = section_embeddings.question_vector(query)
    # The intent screen's topic classifier reads the text as asked, in its own spelling.
    topic_of = get_screening().topics.probabilities(query.text)
    first = _first_rows(index)
    top = result.top_score or 1.0
    pool: dict[str, tuple[Hit, int | None]] = {
        hit.row.row_id: (hit, rank) for rank, hit in enumerate(result.hits)
    }
    for row in (
        *_headed_rows(index, q.own, q.term),
        *_topic_rows(index, topic_of),
        *(_rows_by_id(index)[i] for i in space.nearest(q_vector, SEMANTIC_CANDIDATES)),
        *(_rows_by_id(index)[i] for i in embedded.nearest(q_embedding, EMBEDDING_CANDIDATES)),
        *_remembered_rows(index, q.votes),
    ):
        pool.setdefault(row.row_id, (Hit(row=row, score=0.0, matched_terms=()), None))
    text_similarity = embedded.texts @ q_embedding
    about_similarity = embedded.abouts @ q_embedding

    def closeness(row: PackageRow) -> rank_features.Closeness:
        i = embedded.position(row.row_id)
        space_cosine = space.similarity(q_vector, row)
        if i is None:
            return rank_features.Closeness(space_cosine, 0.0, 0.0)
        return rank_features.Closeness(
            space_cosine, float(text_similarity[i]), float(about_similarity[i])
        )

    return [
        Candidate(
            hit,
            rank_features.vector(
                q,
                hit.row,
                first_stage=hit.score,
                first_stage_top=top,
                first_stage_rank=rank,
                first_of_artifact=hit.row.row_id in first,
                closeness=closeness(hit.row),
                topic_probability=topic_of.get(hit.row.topic, 0.0),
            ),
        )
        for hit, rank in pool.values()
    ]


def search(index: Index, question: str | Query, *, k: int) -> SearchResult:
    """``index.search`` re-ranked for the question; the first ``k`` hits, scored 0-1.

    ``question`` is the analysed question the pipeline built at its door; plain text (the
    tests', the evaluation's) is analysed here, once, and the same value read by every stage."""
    query = Query.of(question)
    result = index.search(query, k=DEPTH)
    if not result.hits:
        return result
    ranker = current()
    q = rank_features.analyse(index, query, result.spelled)
    pool = candidates(index, query, result, q)
    raw = [ranker.score(c.vector) for c in pool]
    best = max(raw)
    total = sum(math.exp(s - best) for s in raw)
    scored = sorted(
        (
            (math.exp(s - best) / total, order, c.hit)
            for order, (s, c) in enumerate(zip(raw, pool, strict=True))
        ),
        key=lambda item: (-item[0], item[1]),
    )
    hits = tuple(dataclasses.replace(hit, score=share) for share, _, hit in scored[:k])
    # ``top_score`` stays BM25's: the answerability judge (assistant/screening/answerability.py) weighs it.
    return dataclasses.replace(result, hits=hits)


def _remembered_rows(index: Index, votes: question_memory.Votes) -> list[PackageRow]:
    """The package rows the nearest labelled questions voted for most, best first."""
    by_key = _rows_by_key(index)
    ranked = sorted(votes.sections.items(), key=lambda kv: (-kv[1], kv[0]))
    rows = [by_key[key] for key, _ in ranked if key in by_key]
    return rows[:REMEMBERED_CANDIDATES]


@lru_cache(maxsize=8)
def _rows_by_key(index: Index) -> dict[tuple[str, str], PackageRow]:
    return {(row.source_path, row.heading): row for row in index.rows}


def _topic_rows(index: Index, topic_of: dict[str, float]) -> tuple[PackageRow, ...]:
    """Every section of the artifact the question is most likely about."""
    if not topic_of:
        return ()
    topic = max(topic_of, key=lambda t: (topic_of[t], t))
    return _rows_of_topic(index).get(topic, ())


@lru_cache(maxsize=8)
def _rows_by_id(index: Index) -> dict[str, PackageRow]:
    return {row.row_id: row for row in index.rows}


@lru_cache(maxsize=8)
def _rows_of_topic(index: Index) -> dict[str, tuple[PackageRow, ...]]:
    grouped: dict[str, list[PackageRow]] = {}
    for row in index.rows:
        grouped.setdefault(row.topic, []).append(row)
    return {topic: tuple(rows) for topic, rows in grouped.items()}


@dataclass(frozen=True)
class _Headings:
    """Each row's heading stems, looked up by the whole set and by one of its stems, so that the
    rows a question names by heading are found from the question's stems rather than by testing
    every row of the package (a package ten times the sample has ten times the rows to test)."""

    stems: tuple[frozenset[str], ...]
    by_heading: dict[frozenset[str], tuple[int, ...]]
    by_stem: dict[str, tuple[int, ...]]


@lru_cache(maxsize=8)
def _headings(index: Index) -> _Headings:
    stems = tuple(frozenset(content_stems(row.heading)) for row in index.rows)
    by_heading: dict[frozenset[str], list[int]] = {}
    by_stem: dict[str, list[int]] = {}
    for position, (row, heading) in enumerate(zip(index.rows, stems, strict=True)):
        if heading:
            by_heading.setdefault(heading, []).append(position)
        if len(heading) > 1 and row.kind != section_kinds.DEFINITION:
            # A heading within the question's stems holds its least stem too: one key is enough.
            by_stem.setdefault(min(heading), []).append(position)
    return _Headings(
        stems,
        {k: tuple(v) for k, v in by_heading.items()},
        {k: tuple(v) for k, v in by_stem.items()},
    )


def _headed_rows(index: Index, own: frozenset[str], term: frozenset[str]) -> list[PackageRow]:
    """Rows the question names by heading: the defined term, or a heading of two words or more
    (not a definition's) all of whose stems the question has; in the package's order."""
    headings = _headings(index)
    found = set(headings.by_heading.get(term, ()))
    for stem in own:
        found.update(p for p in headings.by_stem.get(stem, ()) if headings.stems[p] <= own)
    return [index.rows[p] for p in sorted(found)]
