"""The package's sections in the word-embedding space (``assistant/models/word_embedding.py``).

Each section is embedded twice, once per process per context pack: its whole text (with its
heading) and what it is about (its artifact title and heading). A question's cosine to each is
two features of the section ranker (``assistant/retrieval/rank_features.py``), and the sections
closest to the question are candidates besides BM25's, so a question in other words than the
package's still reaches the section that answers it. Nothing here is fitted: the space is the
embedding's, the same for every package.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

import numpy as np

from assistant.models import word_embedding
from assistant.retrieval.query import Query

if TYPE_CHECKING:
    from assistant.retrieval.index import Index


@dataclass(frozen=True, eq=False)
class SectionEmbeddings:
    row_ids: tuple[str, ...]
    #: One unit vector per section's text, in ``row_ids`` order.
    texts: np.ndarray
    #: One unit vector per section's title and heading, in ``row_ids`` order.
    abouts: np.ndarray

    def position(self, row_id: str) -> int | None:
        return _positions(self).get(row_id)

    def nearest(self, question_vector: np.ndarray, n: int) -> list[str]:
        """The row ids of the ``n`` sections whose text lies closest to the question."""
        if not self.row_ids or not np.any(question_vector):
            return []
        scores = self.texts @ question_vector
        return [self.row_ids[i] for i in np.argsort(-scores, kind="stable")[:n]]


@lru_cache(maxsize=8)
def _positions(embeddings: SectionEmbeddings) -> dict[str, int]:
    return {row_id: i for i, row_id in enumerate(embeddings.row_ids)}


def question_vector(question: str | Query) -> np.ndarray:
    """The question's embedding (``Query.embedding``: embedded once however many read it);
    plain text, as the tests pass it, is analysed here."""
    return Query.of(question).embedding


@lru_cache(maxsize=4)
def for_index(index: Index) -> SectionEmbeddings:
    """The embeddings of one loaded index's rows (an index lives as long as its context pack)."""
    rows = index.rows
    return SectionEmbeddings(
        row_ids=tuple(row.row_id for row in rows),
        texts=word_embedding.embed([f"{row.heading}. {row.text}" for row in rows]),
        abouts=word_embedding.embed([f"{row.title}: {row.heading}" for row in rows]),
    )
