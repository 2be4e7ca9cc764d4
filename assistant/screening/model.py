"""The screening model: a built artifact that scores a question's intent class, deterministically.

The artifact (``manage.py build_screening_model``) holds a one-vs-rest logistic regression over
:mod:`assistant.screening.features`, the inverse document frequencies it was trained with, and
one threshold per refusal class chosen on held-out authors. A question is refused with a class
when that class's probability reaches its threshold (the most probable such class wins);
otherwise it passes on to retrieval. The same question always gets the same scores.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

import numpy as np

from assistant.screening.features import FEATURE_VERSION, featurize
from core.files import save_arrays_and_meta

ANSWER = "answer"
WEIGHTS_FILE = "weights.npz"
META_FILE = "model.json"

#: The intent classes the model scores (the corpus categories map onto them).
CLASSES = (
    "answer",
    "unsupported_general_chat",
    "unsupported_approval_request",
    "private_internal_data_request",
)


#: The suffix of a class's threshold for one request of a question scored alone.
PART = "/request"


def decide(
    classes: tuple[str, ...],
    thresholds: dict[str, float],
    probs: np.ndarray,
    parts: np.ndarray | None = None,
) -> str | None:
    """The most probable refusal class whose probability reaches its threshold, on the whole
    question or (``parts``) on one of its requests."""
    best: tuple[float, str] | None = None
    for k, name in enumerate(classes):
        if name == ANSWER:
            continue
        p = float(probs[k])
        whole = p >= thresholds[name]
        part = parts is not None and float(parts[k]) >= thresholds.get(name + PART, 2.0)
        if not (whole or part):
            continue
        p = max(p, float(parts[k])) if parts is not None else p
        if best is None or p > best[0]:
            best = (p, name)
    return best[1] if best else None


class ModelError(RuntimeError):
    """The screening artifact is missing, unreadable or built for other features."""


@dataclass(frozen=True)
class Screen:
    """The screen's verdict: the refusal class (None to pass on) and every class's probability."""

    refusal: str | None
    scores: dict[str, float]
    thresholds: dict[str, float]


@dataclass(frozen=True)
class ScreeningModel:
    classes: tuple[str, ...]
    coef: np.ndarray  # (classes, features), float32
    intercept: np.ndarray  # (classes,)
    idf_words: np.ndarray
    idf_chars: np.ndarray
    thresholds: dict[str, float]
    meta: dict[str, object]

    def probabilities(self, questions: list[str]) -> np.ndarray:
        """Class probabilities, one row per question, columns in ``classes`` order."""
        rows = featurize(questions, self.idf_words, self.idf_chars)
        # One-vs-rest logistic scores, normalised over the classes (as scikit-learn does).
        logits = np.asarray(rows @ self._weights_by_feature) + self.intercept
        odds = 1.0 / (1.0 + np.exp(-np.clip(logits, -50, 50)))
        return odds / odds.sum(axis=1, keepdims=True)

    @cached_property
    def _weights_by_feature(self) -> np.ndarray:
        # (features, classes), contiguous: a sparse row times it reads only the row's features
        # (the transposed view would be copied whole, 8 MiB, on every call).
        return np.ascontiguousarray(self.coef.T)

    def decide_row(self, probs: np.ndarray, parts: np.ndarray | None = None) -> str | None:
        """The refusal class for one question's probabilities (None to pass on). ``parts``:
        each class's highest probability over the question's requests, compared with the
        class's request threshold (``<class>/request``), when it has one."""
        return decide(self.classes, self.thresholds, probs, parts)

    def screen(self, question: str) -> Screen:
        probs = self.probabilities([question])[0]
        scores = {name: round(float(p), 4) for name, p in zip(self.classes, probs, strict=True)}
        return Screen(self.decide_row(probs), scores, dict(self.thresholds))

    # ------------------------------------------------------------------ the artifact on disk
    def save(self, directory: Path) -> None:
        """Write the artifact atomically: a reader sees the old model or the new one."""
        save_arrays_and_meta(
            directory,
            arrays_file=WEIGHTS_FILE,
            arrays={
                "coef": self.coef.astype(np.float32),
                "intercept": self.intercept.astype(np.float32),
                "idf_words": self.idf_words,
                "idf_chars": self.idf_chars,
            },
            meta_file=META_FILE,
            meta=dict(self.meta, classes=list(self.classes), thresholds=self.thresholds),
            indent=2,
        )

    @classmethod
    def load(cls, directory: Path) -> ScreeningModel:
        try:
            meta = json.loads((directory / META_FILE).read_text(encoding="utf-8"))
            with np.load(directory / WEIGHTS_FILE) as weights:
                arrays = {k: weights[k] for k in ("coef", "intercept", "idf_words", "idf_chars")}
        except (OSError, ValueError, KeyError) as exc:
            raise ModelError(f"no usable screening model in {directory}: {exc}") from None
        if (
            meta.get("feature_version") != FEATURE_VERSION
            or tuple(meta.get("classes", ())) != CLASSES
        ):
            raise ModelError(f"the screening model in {directory} was built for other features")
        return cls(
            classes=CLASSES,
            coef=arrays["coef"],
            intercept=arrays["intercept"],
            idf_words=arrays["idf_words"],
            idf_chars=arrays["idf_chars"],
            thresholds={k: float(v) for k, v in meta["thresholds"].items()},
            meta=meta,
        )
