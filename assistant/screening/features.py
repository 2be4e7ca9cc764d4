"""The screening model's features: hashed word and character n-grams of the plain question.

Word uni- and bigrams carry what is asked ("sign off", "api key"); character n-grams inside word
boundaries carry spellings the corpus never saw (a vendor's key name, a typo, a new verb form).
Both are hashed (no vocabulary to store or drift), weighted by sub-linear term frequency and the
inverse document frequency learnt at training time, and each block is L2-normalised. Training and run time call the same
:func:`featurize`, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import HashingVectorizer
from sklearn.preprocessing import normalize

from assistant.screening.normalize import plain

FEATURE_VERSION = 1
N_WORD_FEATURES = 2**18
N_CHAR_FEATURES = 2**18

_WORDS = HashingVectorizer(
    analyzer="word",
    ngram_range=(1, 2),
    token_pattern=r"(?u)\b\w[\w'-]*\b",  # noqa: S106 - a regex, not a password
    n_features=N_WORD_FEATURES,
    alternate_sign=False,
    norm=None,
    lowercase=False,
)
_CHARS = HashingVectorizer(
    analyzer="char_wb",
    ngram_range=(2, 5),
    n_features=N_CHAR_FEATURES,
    alternate_sign=False,
    norm=None,
    lowercase=False,
)


def counts(questions: Sequence[str]) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    """Raw hashed n-gram counts of the plain spelling of each question."""
    texts = [plain(q) for q in questions]
    return _WORDS.transform(texts).tocsr(), _CHARS.transform(texts).tocsr()


def document_frequency_idf(matrix: sp.csr_matrix) -> np.ndarray:
    """Smoothed inverse document frequency per column (as scikit-learn's ``smooth_idf``)."""
    n_docs = matrix.shape[0]
    df = np.bincount(matrix.indices, minlength=matrix.shape[1])
    return (np.log((1 + n_docs) / (1 + df)) + 1.0).astype(np.float32)


def _weigh(matrix: sp.csr_matrix, idf: np.ndarray) -> sp.csr_matrix:
    weighted = matrix.astype(np.float32)
    weighted.data = np.log1p(weighted.data) * idf[weighted.indices]
    return normalize(weighted, norm="l2", copy=False)


def featurize(
    questions: Sequence[str], idf_words: np.ndarray, idf_chars: np.ndarray
) -> sp.csr_matrix:
    """The model's input rows for ``questions``."""
    return weigh(*counts(questions), idf_words, idf_chars)


def weigh(
    words: sp.csr_matrix, chars: sp.csr_matrix, idf_words: np.ndarray, idf_chars: np.ndarray
) -> sp.csr_matrix:
    """The model's input rows from the raw counts of :func:`counts`."""
    return sp.hstack([_weigh(words, idf_words), _weigh(chars, idf_chars)], format="csr")
