"""Leave-one-package-out: each package held out in turn, its models trained without it.

For a held-out package, every learnt part that read labelled questions is fitted without that
package's questions and served while its questions are asked:

- the intent classifier on every other package's questions, by the shipped model's own
  procedure (``learning.screening.training.train``: thresholds chosen on out-of-author
  probabilities, weights from every training question), so the fold measures what shipping
  does. (Until 2026-12-04 they were chosen on out-of-*package* probabilities; the sample holds most
  of the questions, so its probabilities came from a model that had seen a tenth of the data,
  every threshold went to the bottom of the grid, 0.2, and the held-out packages' in-scope
  questions were refused as general chat, approval and private data.);
- the answerability weights and threshold on the other packages' questions, each measured
  against its own package, and ``covers`` (from which the package overrules a general-chat
  reading) on the fold's own out-of-fold decisions;
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
from assistant.retrieval.context_pack import ContextPack
from assistant.screening import artifact
from assistant.screening.artifact import Screening
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


def fold_screening(
    held_out: str,
    examples: Sequence[Example],
    measured: Sequence[answerability_training.Measured],
    shipped: Screening,
    packs: dict[str, ContextPack],
) -> Screening:
    """The screening models of the fold that holds ``held_out`` out."""
    train = [e for e in examples if e.package != held_out]
    scores = training.out_of_fold(train)
    thresholds = training.threshold_fit(train, scores)
    intent = dataclasses.replace(training.fit(train), thresholds=thresholds)
    answerability = answerability_training.choose_covers(
        answerability_training.train([m for m in measured if m.example.package != held_out]),
        train,
        scores,
        thresholds,
        packs,
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
    packs = answerability_training.packs(examples)
    measured = answerability_training.measure(examples, packs)
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
        screening = fold_screening(package.slug, examples, measured, shipped, packs)
        ranker = rankers[package.slug]
        with serving_fold(screening, ranker), question_memory.excluding(sample_authors):
            results.append(lopo.evaluate(package))
    return results
