"""Leave-one-package-out: each package held out in turn, its models trained without it.

For a held-out package, every learnt part that read labelled questions is fitted without that
package's questions and served while its questions are asked:

- the intent classifier (``learning.screening.training.fit``) on every other package's questions,
  its per-class thresholds chosen on probabilities each training *package* got from a model
  fitted without it (packages, not authors, as the folds: the question is how a new package
  fares);
- the answerability weights and threshold on the other packages' questions, each measured
  against its own package;
- the artifact topic classifier only knows the sample's artifacts: when the sample is held out
  it is replaced by one that knows no topic;
- the section ranker, which learns from every package's questions (``learning.training.ranker``),
  is refitted without the held-out package's questions; the labelled-question memory (the
  sample's questions) is hidden throughout, so no fold hears the sample's askers.

The unit ranker and the criterion evidence model were trained on the sample package's data only,
so the sample's row reads them in-package; docs/evaluation.md says so.
"""

from __future__ import annotations

import contextlib
import dataclasses
from collections.abc import Iterator, Sequence

import numpy as np

from assistant.retrieval import question_memory, ranking
from assistant.screening import artifact, screen
from assistant.screening.artifact import Screening
from assistant.screening.model import CLASSES
from assistant.screening.topics import TopicModel
from learning.evaluation import answers, lopo
from learning.evaluation.packages import SAMPLE, PackageSet
from learning.screening import answerability as answerability_training
from learning.screening import corpus, training
from learning.screening.corpus import Example
from learning.training import ranker as ranker_training

NO_TOPICS = TopicModel(
    topics=("(none)", "(none either)"),
    word_vocabulary={},
    char_vocabulary={},
    idf=np.zeros(0),
    coef=np.zeros((2, 0)),
    intercept=np.zeros(2),
)


def _out_of_package(examples: Sequence[Example]) -> training.Scores:
    """Probabilities for every example from an intent model fitted without its package, as the
    screen reads them (whole question, and the highest over its requests)."""
    probs = np.zeros((len(examples), len(CLASSES)))
    parts = np.zeros((len(examples), len(CLASSES)))
    for package in sorted({e.package for e in examples}):
        held = [i for i, e in enumerate(examples) if e.package == package]
        model = training.fit([e for e in examples if e.package != package])
        probs[held], parts[held] = screen.request_probabilities(
            model, [examples[i].question for i in held]
        )
    return probs, parts


def fold_screening(
    held_out: str,
    examples: Sequence[Example],
    measured: Sequence[answerability_training.Measured],
    shipped: Screening,
) -> Screening:
    """The screening models of the fold that holds ``held_out`` out."""
    train = [e for e in examples if e.package != held_out]
    thresholds = training.threshold_fit(train, _out_of_package(train))
    intent = dataclasses.replace(training.fit(train), thresholds=thresholds)
    answerability = answerability_training.train(
        [m for m in measured if m.example.package != held_out]
    )
    topics = NO_TOPICS if held_out == SAMPLE else shipped.topics
    return Screening(intent, answerability, f"fold-without-{held_out}", topics)


def fold_rankers(packages: Sequence[PackageSet]) -> dict[str, ranking.RankerModel]:
    """Each package's section ranker, fitted on every other package's labelled questions
    (searched once; only the fit is repeated)."""
    examples = ranker_training.by_package([p for p in packages if p.slug != SAMPLE])
    return {
        p.slug: ranker_training.fit(ranker_training.without(examples, p.slug)) for p in packages
    }


@contextlib.contextmanager
def serving_fold(screening: Screening, ranker: ranking.RankerModel | None) -> Iterator[None]:
    saved = artifact.swap(screening)
    try:
        with contextlib.ExitStack() as stack:
            if ranker is not None:
                stack.enter_context(ranking.reading_with(ranker))
            yield
    finally:
        artifact.swap(saved)


def leave_one_package_out(packages: Sequence[PackageSet]) -> list[lopo.PackageFigures]:
    """Each package's figures, measured with models that never saw it."""
    examples = corpus.load_all()
    measured = answerability_training.measure(examples, answerability_training.packs(examples))
    shipped = artifact.get_screening()
    sample_authors = frozenset(e.author for e in examples if e.package == SAMPLE) | frozenset(
        q.author for p in packages if p.slug == SAMPLE for q in p.questions
    )
    sample_authors |= frozenset(
        q.author for path in ranker_training.training_sets() for q in answers.load(path)
    )
    with question_memory.excluding(sample_authors):
        rankers = fold_rankers(packages)
    results = []
    for package in packages:
        screening = fold_screening(package.slug, examples, measured, shipped)
        ranker = rankers[package.slug]
        with serving_fold(screening, ranker), question_memory.excluding(sample_authors):
            results.append(lopo.evaluate(package))
    return results
