"""Which package artifact a question is about: a topic classifier learnt from the screening corpus.

The screening corpus labels every answerable and borderline question with the artifact that
answers it (3,500 questions by eight authors). A multinomial logistic regression over TF-IDF word
uni-/bigrams and character n-grams inside word boundaries (scikit-learn, lbfgs, deterministic)
learns that mapping, so "swap the underlying LLM" can point at governance even where it shares
few words with the section that answers. The section ranker (``assistant/retrieval/ranking.py``) reads the
probability of a candidate's artifact as one feature. It is built with the screening model
(``manage.py build_screening_model``) into ``AICD_SCREENING_MODEL_DIR/topics``; a package whose
artifacts the corpus does not name gets probability 0 for every section, which changes no
ranking.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer

from assistant.screening.model import ModelError
from assistant.screening.normalize import plain
from core.files import save_arrays_and_meta

TOPIC_VERSION = 1
REGULARISATION_C = 10.0
MIN_DF = 2
WEIGHTS_FILE = "topics.npz"
META_FILE = "topics.json"
_WORD = {"analyzer": "word", "ngram_range": (1, 2)}
_CHAR = {"analyzer": "char_wb", "ngram_range": (2, 5)}


@lru_cache(maxsize=1)
def _analyzers() -> tuple[Callable[[str], list[str]], Callable[[str], list[str]]]:
    """The word and character n-gram analysers (scikit-learn's, without its per-call checks)."""
    return (
        CountVectorizer(lowercase=False, **_WORD).build_analyzer(),
        CountVectorizer(lowercase=False, **_CHAR).build_analyzer(),
    )


@dataclass(frozen=True)
class TopicModel:
    topics: tuple[str, ...]
    word_vocabulary: dict[str, int]
    char_vocabulary: dict[str, int]
    idf: np.ndarray  # word columns, then character columns
    coef: np.ndarray  # (topics, columns)
    intercept: np.ndarray

    def probabilities(self, question: str) -> dict[str, float]:
        """The probability of each artifact topic for ``question``."""
        columns, values = self._features(question)
        logits = self.coef[:, columns] @ values + self.intercept
        odds = np.exp(logits - logits.max())
        probs = odds / odds.sum()
        return dict(zip(self.topics, (float(p) for p in probs), strict=True))

    def _features(self, question: str) -> tuple[np.ndarray, np.ndarray]:
        """The question's TF-IDF row as (columns, values): sub-linear counts of the known word and
        character n-grams times their IDF, L2-normalised (what TfidfVectorizer computes)."""
        text = plain(question).lower()
        counts: Counter[int] = Counter()
        for analyse, vocabulary, offset in (
            (_analyzers()[0], self.word_vocabulary, 0),
            (_analyzers()[1], self.char_vocabulary, len(self.word_vocabulary)),
        ):
            for gram in analyse(text):
                column = vocabulary.get(gram)
                if column is not None:
                    counts[offset + column] += 1
        if not counts:
            return np.zeros(0, dtype=int), np.zeros(0)
        columns = np.fromiter(counts, dtype=int, count=len(counts))
        values = (1.0 + np.log(np.fromiter(counts.values(), dtype=float))) * self.idf[columns]
        return columns, values / np.linalg.norm(values)

    def _rows(self, questions: Sequence[str]) -> sp.csr_matrix:
        """The TF-IDF rows of many questions (training)."""
        width = len(self.word_vocabulary) + len(self.char_vocabulary)
        rows = [self._features(q) for q in questions]
        return sp.csr_matrix(
            (
                np.concatenate([v for _, v in rows]),
                np.concatenate([c for c, _ in rows]),
                np.cumsum([0] + [len(c) for c, _ in rows]),
            ),
            shape=(len(questions), width),
        )

    def save(self, directory: Path) -> None:
        """Write atomically next to the screening model."""
        save_arrays_and_meta(
            directory,
            arrays_file=WEIGHTS_FILE,
            arrays={
                "idf": self.idf.astype(np.float32),
                "coef": self.coef.astype(np.float32),
                "intercept": self.intercept.astype(np.float32),
            },
            meta_file=META_FILE,
            meta={
                "version": TOPIC_VERSION,
                "topics": list(self.topics),
                "word_vocabulary": self.word_vocabulary,
                "char_vocabulary": self.char_vocabulary,
            },
        )

    @classmethod
    def load(cls, directory: Path) -> TopicModel:
        try:
            meta = json.loads((directory / META_FILE).read_text(encoding="utf-8"))
            with np.load(directory / WEIGHTS_FILE) as arrays:
                idf, coef, intercept = arrays["idf"], arrays["coef"], arrays["intercept"]
            if meta.get("version") != TOPIC_VERSION:
                raise ValueError("built by another version")
            return cls(
                topics=tuple(meta["topics"]),
                word_vocabulary={str(k): int(v) for k, v in meta["word_vocabulary"].items()},
                char_vocabulary={str(k): int(v) for k, v in meta["char_vocabulary"].items()},
                idf=idf.astype(np.float64),
                coef=coef.astype(np.float64),
                intercept=intercept.astype(np.float64),
            )
        except (OSError, ValueError, KeyError, TypeError) as exc:
            raise ModelError(f"no usable topic model in {directory}: {exc}") from None
