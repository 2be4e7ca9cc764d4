"""Training the artifact topic classifier (``assistant/screening/topics.py``) on the screening corpus."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.linear_model import LogisticRegression

from assistant.screening.normalize import plain
from assistant.screening.topics import _CHAR, _WORD, MIN_DF, REGULARISATION_C, TopicModel
from learning.screening.corpus import Example


def train(examples: Sequence[Example]) -> TopicModel:
    """Fit the classifier on every example that names its artifact topic."""
    labelled = [e for e in examples if e.topic]
    if len({e.topic for e in labelled}) < 2:
        raise ValueError("the corpus names fewer than two artifact topics")
    texts = [plain(e.question).lower() for e in labelled]
    word = TfidfVectorizer(sublinear_tf=True, min_df=MIN_DF, **_WORD).fit(texts)
    char = TfidfVectorizer(sublinear_tf=True, min_df=MIN_DF, **_CHAR).fit(texts)
    topics = tuple(sorted({e.topic for e in labelled}))
    word_vocabulary = {str(k): int(v) for k, v in word.vocabulary_.items()}
    char_vocabulary = {str(k): int(v) for k, v in char.vocabulary_.items()}
    shell = TopicModel(
        topics=topics,
        word_vocabulary=word_vocabulary,
        char_vocabulary=char_vocabulary,
        idf=np.concatenate([word.idf_, char.idf_]),
        coef=np.zeros((len(topics), 0)),
        intercept=np.zeros(len(topics)),
    )
    classifier = LogisticRegression(C=REGULARISATION_C, max_iter=3000)
    classifier.fit(
        shell._rows([e.question for e in labelled]), [topics.index(e.topic) for e in labelled]
    )
    coef, intercept = classifier.coef_, classifier.intercept_
    if len(topics) == 2:
        # scikit-learn keeps one row for two classes (the second's log-odds): as a softmax, the
        # first class scores 0.
        coef = np.vstack([np.zeros_like(coef), coef])
        intercept = np.concatenate([[0.0], intercept])
    return TopicModel(
        topics=topics,
        word_vocabulary=word_vocabulary,
        char_vocabulary=char_vocabulary,
        idf=shell.idf,
        coef=coef,
        intercept=intercept,
    )
