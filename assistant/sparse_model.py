"""A logistic regression kept as named weights: the shape of the review's evidence model and the
composer's unit ranker, both trained with scikit-learn and shipped as committed JSON, and the
``--check`` every model-building command runs against its committed file."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.management.base import CommandError

# Retraining on another machine may differ in the last digits (floating-point summation order).
TOLERANCE = 1e-3


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
