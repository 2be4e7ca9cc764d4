"""The screening artifact: the learnt judgements, built ahead of time and loaded once per process.

``manage.py build_screening_model`` (the learning side) trains the intent classifier, the
answerability weights and the artifact topic classifier (``topics.py``) from the screening corpus
and writes them to ``AICD_MODEL_DIR/screening``, recording in ``AICD_MODEL_DIR/MANIFEST.json``
the schema they were trained for. The worker loads that artifact once per process and never
trains: a missing artifact, or one built for other features than this code computes, raises
``ModelNotReady`` naming the command (``/api/ready`` answers 503; a chat ends as a diagnostic).
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

from django.conf import settings

from assistant.models.store import ModelNotReady
from assistant.screening import answerability
from assistant.screening.features import FEATURE_VERSION
from assistant.screening.model import ModelError, ScreeningModel
from assistant.screening.topics import TOPIC_VERSION, TopicModel

SUBDIRECTORY = "screening"


@dataclass(frozen=True)
class Screening:
    """The intent classifier and the answerability model, built from one corpus."""

    intent: ScreeningModel
    answerability: answerability.AnswerabilityModel
    fingerprint: str
    topics: TopicModel


def schema() -> str:
    """What the serving code reads: feature, answerability and topic definitions."""
    return (
        f"features={FEATURE_VERSION}|answerability={','.join(answerability.FEATURES)}"
        f"|covers=1|topics={TOPIC_VERSION}"
    )


def directory() -> Path:
    return Path(settings.AICD_MODEL_DIR) / SUBDIRECTORY


def read(directory: Path) -> Screening:
    intent = ScreeningModel.load(directory)
    try:
        stored = intent.meta["answerability"]
        if tuple(stored["features"]) != answerability.FEATURES:  # type: ignore[index]
            raise ModelError(f"the answerability weights in {directory} are for other features")
        model = answerability.AnswerabilityModel(
            weights=tuple(float(w) for w in stored["weights"]),  # type: ignore[index]
            threshold=float(stored["threshold"]),  # type: ignore[index]
            covers=float(stored["covers"]),  # type: ignore[index]
        )
        return Screening(intent, model, str(intent.meta["fingerprint"]), TopicModel.load(directory))
    except (KeyError, TypeError, ValueError) as exc:
        raise ModelError(f"the screening artifact in {directory} is incomplete: {exc}") from None


_lock = threading.Lock()
_cached: Screening | None = None


def get_screening() -> Screening:
    """The screening models, loaded once per process; ``ModelNotReady`` when not built."""
    global _cached
    if _cached is not None:
        return _cached
    with _lock:
        if _cached is not None:
            return _cached
        try:
            screening = read(directory())
        except ModelError as exc:
            raise ModelNotReady("screening", f"is not usable ({exc})") from None
        if screening.intent.meta.get("schema") != schema():
            raise ModelNotReady("screening", "was built for other features than this code computes")
        _cached = screening
        return _cached


def swap(screening: Screening | None) -> Screening | None:
    """Serve ``screening`` in this process from now on and return what it replaces (the learning
    side's leave-one-package-out folds serve each fold's models in turn)."""
    global _cached
    with _lock:
        previous, _cached = _cached, screening
        return previous


def reset_cache() -> None:
    global _cached
    with _lock:
        _cached = None
