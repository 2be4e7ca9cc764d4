"""A latent semantic space of the package's sections, learnt from the package text alone.

Two sections that use the same words together ("release", "version", "source owner") end up
close even where a question shares few words with the one that answers it. The space is a
truncated SVD of the sections' TF-IDF stem vectors (scikit-learn), fitted with a fixed seed
once per process per context pack: nothing is downloaded and nothing outside the package is
used. ``assistant/retrieval/rank_features.py`` reads one number from it: the cosine between a question
and a section.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from assistant.domain.types import PackageRow
from assistant.retrieval.query import Query
from core.text import content_stems

if TYPE_CHECKING:
    from assistant.retrieval.index import Index

DIMENSIONS = 50
SEED = 0


def _document(text: str) -> str:
    return " ".join(content_stems(text))


@dataclass(frozen=True)
class SectionSpace:
    vectorizer: Any
    svd: Any
    row_vectors: dict[str, Any]
    #: The row ids in fit order and their vectors stacked, for ``nearest``'s one product.
    row_ids: tuple[str, ...] = ()
    matrix: Any = None

    @property
    def idf(self) -> Any:
        return self.vectorizer.idf_

    @classmethod
    def fit(cls, rows: Sequence[PackageRow]) -> SectionSpace:
        from sklearn.decomposition import TruncatedSVD
        from sklearn.feature_extraction.text import TfidfVectorizer
        from sklearn.preprocessing import normalize

        docs = [_document(f"{row.heading} {row.text}") for row in rows]
        vectorizer = TfidfVectorizer(
            token_pattern=r"\S+",  # noqa: S106 - a regex, not a password
            sublinear_tf=True,
            min_df=min(2, len(rows)),
        )
        matrix = vectorizer.fit_transform(docs or [""])
        dimensions = max(1, min(DIMENSIONS, matrix.shape[0] - 1, matrix.shape[1] - 1))
        svd = TruncatedSVD(dimensions, random_state=SEED).fit(matrix)
        vectors = normalize(svd.transform(matrix))
        ids = tuple(row.row_id for row in rows)[: len(vectors)]
        return cls(
            vectorizer,
            svd,
            dict(zip(ids, vectors, strict=True)),
            row_ids=ids,
            matrix=vectors[: len(ids)],
        )

    def question_vector(self, question: str | Query) -> Any:
        """The question's unit vector in the space (TF-IDF as the sections', projected).

        ``question`` is the analysed question, whose content stems are read as they are; the
        unit ranker also places plain text (a unit's) in the space, analysed here."""
        import numpy as np

        vocabulary = self.vectorizer.vocabulary_
        counts: dict[int, int] = {}
        tokens = question.content_stems if isinstance(question, Query) else content_stems(question)
        for token in tokens:
            column = vocabulary.get(token)
            if column is not None:
                counts[column] = counts.get(column, 0) + 1
        if not counts:
            return np.zeros(self.svd.components_.shape[0])
        columns = np.fromiter(counts, dtype=int, count=len(counts))
        weights = (1.0 + np.log(np.fromiter(counts.values(), dtype=float))) * self.idf[columns]
        projected = self.svd.components_[:, columns] @ (weights / np.linalg.norm(weights))
        norm = float(np.linalg.norm(projected))
        return projected / norm if norm else projected

    def nearest(self, question_vector: Any, n: int) -> list[str]:
        """The row ids of the ``n`` sections closest to the question, closest first."""
        import numpy as np

        if not self.row_ids or not np.any(question_vector):
            return []
        scores = self.matrix @ question_vector
        return [self.row_ids[i] for i in np.argsort(-scores, kind="stable")[:n]]

    def similarity(self, question_vector: Any, row: PackageRow) -> float:
        vector = self.row_vectors.get(row.row_id)
        return float(question_vector @ vector) if vector is not None else 0.0


@lru_cache(maxsize=4)
def for_index(index: Index) -> SectionSpace:
    """The space of one loaded index's rows (an index lives as long as its context pack)."""
    return SectionSpace.fit(index.rows)
