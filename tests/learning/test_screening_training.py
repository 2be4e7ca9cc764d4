"""The screening's training side: the threshold search decides rows exactly as the screen does,
and the counted features are the screen's."""

from __future__ import annotations

import numpy as np

from assistant.screening.model import ANSWER, CLASSES, PART, decide
from learning.screening import training


def test_the_vectorised_decision_is_the_screens_decision() -> None:
    rng = np.random.default_rng(3)
    whole = rng.dirichlet(np.ones(len(CLASSES)), size=500)
    parts = rng.dirichlet(np.ones(len(CLASSES)), size=500) * (rng.random((500, 1)) < 0.5)
    refusals = [c for c in CLASSES if c != ANSWER]
    thresholds = {c: 0.3 + 0.1 * i for i, c in enumerate(refusals)}
    thresholds |= {c + PART: 0.5 + 0.1 * i for i, c in enumerate(refusals)}
    vectorised = training._decide((whole, parts), thresholds)
    one_by_one = [
        CLASSES.index(decide(CLASSES, thresholds, w, p) or ANSWER)
        for w, p in zip(whole, parts, strict=True)
    ]
    assert vectorised.tolist() == one_by_one


def test_counted_features_are_the_features_the_screen_computes() -> None:
    from assistant.screening.features import document_frequency_idf, featurize

    texts = ["Who signs off Gate 2?", "Print the provider key.", "Who signs off Gate 2?", "ok"]
    words, chars = training._counts(texts)
    idf_w, idf_c = document_frequency_idf(words), document_frequency_idf(chars)
    cached = training.weigh(words, chars, idf_w, idf_c)
    training.forget_counts()
    assert (cached != featurize(texts, idf_w, idf_c)).nnz == 0
