"""The screening artifact: the learnt judgements, built ahead of time and loaded once per process.

``manage.py build_screening_model`` trains the intent classifier, the answerability weights and
the artifact topic classifier (``topics.py``)
from the corpus in ``assistant/screening/data/`` and writes them to ``AICD_SCREENING_MODEL_DIR``
(default ``var/screening``). The app loads that artifact once per process and never trains at
start-up. A missing or stale artifact (its fingerprint differs from the corpus, the sample
package and the feature definitions) is rebuilt in memory on first use with a warning naming the
command, so a corpus edit never screens with an outdated model; ``--check`` fails on it.
"""

from __future__ import annotations

import hashlib
import logging
import threading
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from assistant import answerability
from assistant.package import package_version
from assistant.screening import answerability_training, corpus, topics, training
from assistant.screening.features import FEATURE_VERSION
from assistant.screening.model import ModelError, ScreeningModel
from assistant.screening.topics import TOPIC_VERSION, TopicModel

logger = logging.getLogger(__name__)

# Bump when training changes in a way the inputs do not show (a new hyperparameter, say).
TRAINING_VERSION = 2


@dataclass(frozen=True)
class Screening:
    """The intent classifier and the answerability model, built from one corpus."""

    intent: ScreeningModel
    answerability: answerability.AnswerabilityModel
    fingerprint: str
    topics: TopicModel


def fingerprint() -> str:
    """What the artifact is built from: corpus, sample package, feature and training versions."""
    parts = (
        corpus.fingerprint(),
        package_version(answerability_training.SAMPLE_PACKAGE_DIR),
        f"features={FEATURE_VERSION}",
        f"answerability={','.join(answerability.FEATURES)}",
        f"training={TRAINING_VERSION}",
        f"topics={TOPIC_VERSION}",
    )
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def build() -> Screening:
    """Train both models from the corpus (deterministic: fixed seeds and data order)."""
    examples = corpus.load()
    pack = answerability_training.sample_pack()
    intent = training.train(examples)
    measured = answerability_training.measure(examples, pack)
    return Screening(
        intent, answerability_training.train(measured), fingerprint(), topics.train(examples)
    )


def write(screening: Screening, directory: Path) -> None:
    meta = dict(
        screening.intent.meta,
        fingerprint=screening.fingerprint,
        answerability={
            "features": list(answerability.FEATURES),
            "weights": list(screening.answerability.weights),
            "threshold": screening.answerability.threshold,
        },
    )
    ScreeningModel(
        classes=screening.intent.classes,
        coef=screening.intent.coef,
        intercept=screening.intent.intercept,
        idf_words=screening.intent.idf_words,
        idf_chars=screening.intent.idf_chars,
        thresholds=screening.intent.thresholds,
        meta=meta,
    ).save(directory)
    screening.topics.save(directory)


def read(directory: Path) -> Screening:
    intent = ScreeningModel.load(directory)
    try:
        stored = intent.meta["answerability"]
        if tuple(stored["features"]) != answerability.FEATURES:  # type: ignore[index]
            raise ModelError(f"the answerability weights in {directory} are for other features")
        model = answerability.AnswerabilityModel(
            weights=tuple(float(w) for w in stored["weights"]),  # type: ignore[index]
            threshold=float(stored["threshold"]),  # type: ignore[index]
        )
        return Screening(intent, model, str(intent.meta["fingerprint"]), TopicModel.load(directory))
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"the screening artifact in {directory} is incomplete: {exc}") from None


_lock = threading.Lock()
_cached: Screening | None = None


def get_screening() -> Screening:
    """The current screening models, loaded once per process (built in memory if stale)."""
    global _cached
    if _cached is not None:
        return _cached
    with _lock:
        if _cached is not None:
            return _cached
        directory = Path(settings.AICD_SCREENING_MODEL_DIR)
        screening: Screening | None = None
        try:
            screening = read(directory)
            if screening.fingerprint != fingerprint():
                logger.warning(
                    "The screening model in %s is stale; training it in memory. Run 'manage.py "
                    "build_screening_model' to refresh it.",
                    directory,
                )
                screening = None
        except ModelError:
            logger.warning(
                "No usable screening model in %s; training it in memory. Run 'manage.py "
                "build_screening_model' to build it ahead of time.",
                directory,
            )
        _cached = screening or build()
        return _cached


def reset_cache() -> None:
    global _cached
    with _lock:
        _cached = None
