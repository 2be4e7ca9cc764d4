"""A logistic regression kept as named weights: the shape of the review's evidence model and the
composer's unit ranker, both trained with scikit-learn and shipped as committed JSON, and the
``--check`` every model-building command runs against its committed file."""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Generic, TypeVar

from django.core.management.base import CommandError

from assistant.models.store import ModelNotReady, record

# Retraining on another machine may differ in the last digits (floating-point summation order).
TOLERANCE = 1e-3
#: Named weights: a feature the model never saw weighs nothing, so any feature set can be read.
SCHEMA = "sparse-logistic-1"


@dataclass(frozen=True)
class SparseLogistic:
    """Weights by feature name; a feature the model never saw weighs nothing."""

    weights: dict[str, float]
    intercept: float
    about: dict[str, Any] = field(default_factory=dict)

    def probability(self, features: dict[str, float]) -> float:
        z = self.intercept + sum(self.weights.get(k, 0.0) * v for k, v in features.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def fields_json(self) -> dict[str, Any]:
        """What a subclass adds to the file besides weights, intercept and about."""
        return {}

    def to_json(self) -> str:
        return json.dumps(
            {
                "about": self.about,
                "intercept": round(self.intercept, 6),
                "weights": {k: round(v, 6) for k, v in sorted(self.weights.items())},
                **self.fields_json(),
            },
            indent=1,
            sort_keys=True,
        )

    @staticmethod
    def parts(text: str) -> tuple[dict[str, float], float, dict[str, Any], dict[str, Any]]:
        """Weights, intercept, about and the whole document of a model file."""
        data = json.loads(text)
        weights = {str(k): float(v) for k, v in data["weights"].items()}
        return weights, float(data["intercept"]), dict(data.get("about", {})), data


M = TypeVar("M", bound=SparseLogistic)


class Shipped(Generic[M]):
    """A committed model file, read once per process, with a scoped stand-in for the evaluation's
    out-of-author reads. ``path`` is looked up on each first read, so a test may point it elsewhere."""

    def __init__(self, name: str, path: Callable[[], Path], load: Callable[[str], M]) -> None:
        self.name = name
        self._path = path
        self._load = load
        self._cached: tuple[M | None] | None = None
        self._stand_ins: list[M | None] = []

    def get(self) -> M | None:
        """The stand-in in force, else the shipped model; ``ModelNotReady`` when none is built."""
        if self._stand_ins:
            return self._stand_ins[-1]
        if self._cached is None:
            path = self._path()
            if not path.exists():
                raise ModelNotReady(self.name, f"is not built ({path.name} is missing)")
            self._cached = (self._load(path.read_text(encoding="utf-8")),)
        return self._cached[0]

    def reload(self) -> None:
        """Read the file again on next use (after a build command wrote it)."""
        self._cached = None

    def publish(self, text: str, command: str, *, check: bool, data: str = "") -> Path:
        """With ``check``, raise unless the committed file matches ``text`` (a fresh training
        run); otherwise write ``text`` as the shipped model, record it in the model manifest
        (``data``: the fingerprint of what trained it) and read it anew. Returns the path."""
        path = self._path()
        if check:
            check_committed(path, text, command)
        else:
            path.write_text(text, encoding="utf-8")
            record(self.name, [path.name], schema=SCHEMA, data=data, root=path.parent)
            self.reload()
        return path

    @contextmanager
    def reading_with(self, stand_in: M | None) -> Iterator[None]:
        self._stand_ins.append(stand_in)
        try:
            yield
        finally:
            self._stand_ins.pop()


def same_model(committed: dict[str, Any], trained: dict[str, Any]) -> bool:
    """Whether a committed model file matches a fresh training run, to the last digits' noise."""
    a, b = committed.get("weights", {}), trained["weights"]
    rest = {k: v for k, v in trained.items() if k not in ("weights", "intercept", "about")}
    return (
        a.keys() == b.keys()
        and all(abs(a[k] - b[k]) <= TOLERANCE for k in b)
        and abs(committed.get("intercept", 0.0) - trained["intercept"]) <= TOLERANCE
        and all(committed.get(k) == v for k, v in rest.items())
    )


def check_committed(
    path: Path, text: str, command: str, same: Callable[..., bool] = same_model
) -> None:
    """Raise ``CommandError`` unless the committed model file at ``path`` matches ``text``, the
    model a fresh training run just produced (``manage.py <command> --check``)."""
    committed = path.read_text(encoding="utf-8") if path.exists() else ""
    if not committed or not same(json.loads(committed), json.loads(text)):
        raise CommandError(
            f"{path} does not match its training data and features. "
            f"Run 'manage.py {command}' and commit the result."
        )
