"""Training the screening model and measuring it on authors it never saw.

``fit`` learns the weights from some authors; ``choose_thresholds`` sets each refusal class's
threshold on out-of-fold probabilities (every training author scored by a model that did not see
them), so thresholds are chosen on data, not by hand. The cross-author evaluation
(:mod:`learning.screening.evaluation`) uses the same functions with each author held out.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np
import scipy.sparse as sp
from sklearn.linear_model import SGDClassifier

from assistant.screening import screen
from assistant.screening.features import (
    FEATURE_VERSION,
    N_CHAR_FEATURES,
    N_WORD_FEATURES,
    counts,
    document_frequency_idf,
    weigh,
)
from assistant.screening.model import ANSWER, CLASSES, PART, ScreeningModel
from learning.screening import corpus
from learning.screening.corpus import Example

# One-vs-rest logistic regression trained by stochastic gradient descent: as accurate across
# authors as lbfgs on this corpus, and about fifteen times faster to train (so cross-author
# evaluation fits in the test suite). A fixed seed and epoch count make training repeatable.
REGULARISATION_ALPHA = 1e-5
EPOCHS = 30
SEED = 0
THRESHOLD_GRID = tuple(round(x, 3) for x in np.arange(0.20, 0.86, 0.025))
#: The classes a single request decides for the whole question: an approval or a private-data
#: request is refused wherever it stands. Off-topic is the whole question's property: a greeting
#: or an aside ("hi, sorry my english is not so good.") beside a fair request is not general chat.
REQUEST_CLASSES = ("unsupported_approval_request", "private_internal_data_request")
#: A request alone has less context than the question, so its grid starts higher; it stops at
#: 0.9, the part threshold the screen used before it was learnt (the highest that refused at
#: most 0.5% more of the corpus's answerable questions), so that a request is never ignored.
PART_GRID = tuple(round(x, 3) for x in np.arange(0.60, 0.91, 0.025))
# The screen must not turn answerable questions away: the thresholds maximise the mean of the
# per-class correct rates among settings that keep at least this share of answerable questions.
MIN_ANSWER_RATE = 0.98


def fit(examples: Sequence[Example], *, alpha: float = REGULARISATION_ALPHA) -> ScreeningModel:
    """Weights learnt from ``examples``, with neutral thresholds (0.5) until they are chosen."""
    words, chars = _counts([e.question for e in examples])
    idf_words, idf_chars = document_frequency_idf(words), document_frequency_idf(chars)
    rows = weigh(words, chars, idf_words, idf_chars)
    labels = np.array([CLASSES.index(e.label) for e in examples])
    classifier = SGDClassifier(
        loss="log_loss",
        alpha=alpha,
        class_weight="balanced",
        max_iter=EPOCHS,
        tol=None,
        random_state=SEED,
    )
    classifier.fit(rows, labels)
    return ScreeningModel(
        classes=CLASSES,
        coef=classifier.coef_.astype(np.float32),
        intercept=classifier.intercept_.astype(np.float32),
        idf_words=idf_words,
        idf_chars=idf_chars,
        thresholds={name: 0.5 for name in CLASSES if name != ANSWER},
        meta={"feature_version": FEATURE_VERSION, "regularisation_alpha": alpha},
    )


#: Raw n-gram counts per text (word indices and counts, char indices and counts). Cross-author
#: and leave-one-package-out evaluation fit a model per fold, each on most of the same texts;
#: counting a text's n-grams is much of a fit's time, so each text is counted once per process.
_COUNTED: dict[str, tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = {}


def _counts(texts: Sequence[str]) -> tuple[sp.csr_matrix, sp.csr_matrix]:
    missing = [t for t in dict.fromkeys(texts) if t not in _COUNTED]
    if missing:
        words, chars = counts(missing)
        for i, text in enumerate(missing):
            w, c = slice(words.indptr[i], words.indptr[i + 1]), slice(*chars.indptr[i : i + 2])
            _COUNTED[text] = (
                words.indices[w],
                words.data[w].astype(np.float32),
                chars.indices[c],
                chars.data[c].astype(np.float32),
            )
    rows = [_COUNTED[t] for t in texts]
    return (
        _matrix([r[0] for r in rows], [r[1] for r in rows], N_WORD_FEATURES),
        _matrix([r[2] for r in rows], [r[3] for r in rows], N_CHAR_FEATURES),
    )


def _matrix(indices: list[np.ndarray], data: list[np.ndarray], width: int) -> sp.csr_matrix:
    indptr = np.concatenate([[0], np.cumsum([len(i) for i in indices])])
    return sp.csr_matrix(
        (np.concatenate(data), np.concatenate(indices), indptr), shape=(len(indices), width)
    )


def forget_counts() -> None:
    """Drop the cached n-gram counts (after a build or an evaluation)."""
    _COUNTED.clear()


def out_of_fold(
    examples: Sequence[Example], *, alpha: float = REGULARISATION_ALPHA
) -> tuple[np.ndarray, np.ndarray]:
    """Probabilities for every example from a model trained without its author, as the screen
    reads them: on the whole question, and the highest over each of its requests."""
    probs = np.zeros((len(examples), len(CLASSES)))
    parts = np.zeros((len(examples), len(CLASSES)))
    authors = sorted({e.author for e in examples})
    for author in authors:
        train = [e for e in examples if e.author != author]
        held = [i for i, e in enumerate(examples) if e.author == author]
        model = fit(train, alpha=alpha)
        probs[held], parts[held] = screen.request_probabilities(
            model, [examples[i].question for i in held]
        )
    return probs, parts


Scores = tuple[np.ndarray, np.ndarray]
"""Whole-question probabilities and each class's highest over the question's requests."""


def decide_rows(probs: Scores, thresholds: dict[str, float]) -> np.ndarray:
    """The class index each row is decided as (what ``assistant.screening.model.decide``
    decides for one question), for every row at once."""
    return _decide(probs, thresholds)


def _decide(probs: Scores, thresholds: dict[str, float]) -> np.ndarray:
    """The class index each row is decided as, exactly as :func:`assistant.screening.model.decide` decides one row
    (vectorised: the threshold search decides every row a few thousand times)."""
    whole, parts = probs
    score = np.maximum(whole, parts)
    best = np.full(len(whole), CLASSES.index(ANSWER))
    best_score = np.full(len(whole), -1.0)
    for k, name in enumerate(CLASSES):
        if name == ANSWER:
            continue
        hit = (whole[:, k] >= thresholds[name]) | (parts[:, k] >= thresholds.get(name + PART, 2.0))
        better = hit & (score[:, k] > best_score)
        best = np.where(better, k, best)
        best_score = np.where(better, score[:, k], best_score)
    return best


def _objective(labels: np.ndarray, decided: np.ndarray) -> tuple[bool, float]:
    rates = {k: float(np.mean(decided[labels == k] == k)) for k in np.unique(labels)}
    answer = CLASSES.index(ANSWER)
    return rates.get(answer, 1.0) >= MIN_ANSWER_RATE, float(np.mean(list(rates.values())))


def choose_thresholds(examples: Sequence[Example], probs: Scores) -> dict[str, float]:
    """Per-class thresholds, for the whole question and for one of its requests, by coordinate
    ascent over a grid, on out-of-fold probabilities."""
    labels = np.array([CLASSES.index(e.label) for e in examples])
    refusals = [name for name in CLASSES if name != ANSWER]
    thresholds = {name: 0.5 for name in refusals} | {name + PART: 0.9 for name in REQUEST_CLASSES}
    best = _objective(labels, _decide(probs, thresholds))
    for _ in range(3):
        for name in thresholds:
            grid = PART_GRID if name.endswith(PART) else THRESHOLD_GRID
            for value in grid:
                trial = dict(thresholds, **{name: value})
                score = _objective(labels, _decide(probs, trial))
                if score > best:
                    best, thresholds = score, trial
    return thresholds


def threshold_fit(examples: Sequence[Example], probs: Scores) -> dict[str, float]:
    """Thresholds chosen on the questions asked without an upload.

    The questions asked with the asker's draft selected (``with_upload``) are left out of the
    choice, as the shipped thresholds were chosen; they are still learnt from by ``fit``.
    """
    keep = [i for i, e in enumerate(examples) if not e.with_upload]
    return choose_thresholds([examples[i] for i in keep], (probs[0][keep], probs[1][keep]))


def train(
    examples: Sequence[Example],
    *,
    alpha: float = REGULARISATION_ALPHA,
    scores: Scores | None = None,
) -> ScreeningModel:
    """The shipped model: thresholds from out-of-fold scores (``scores``, when the caller has
    computed them with :func:`out_of_fold`), weights from every example."""
    if scores is None:
        scores = out_of_fold(examples, alpha=alpha)
    thresholds = threshold_fit(examples, scores)
    model = fit(examples, alpha=alpha)
    forget_counts()
    meta = dict(
        model.meta,
        corpus=corpus.fingerprint(),
        examples=len(examples),
        authors=dict(sorted(Counter(e.author for e in examples).items())),
    )
    return ScreeningModel(
        classes=model.classes,
        coef=model.coef,
        intercept=model.intercept,
        idf_words=model.idf_words,
        idf_chars=model.idf_chars,
        thresholds=thresholds,
        meta=meta,
    )
