"""Train (or, with --check, verify) the criterion evidence model from the labelled training drafts."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from assistant import criterion_evidence, evidence_training

# Retraining on another machine may differ in the last digits (floating-point summation order).
TOLERANCE = 1e-3


class Command(BaseCommand):
    help = (
        "Learn the review's criterion evidence model into "
        "assistant/review_data/evidence_model.json."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="fail if the committed model is stale"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        model, about = evidence_training.train()
        text = model.to_json() + "\n"
        path = criterion_evidence.MODEL_PATH
        if options["check"]:
            committed = path.read_text(encoding="utf-8") if path.exists() else ""
            if not committed or not _same(json.loads(committed), json.loads(text)):
                raise CommandError(
                    f"{path} does not match its training drafts and features. "
                    "Run 'manage.py build_evidence_model' and commit the result."
                )
            self.stdout.write(self.style.SUCCESS(f"Evidence model OK: {path}"))
            return
        path.write_text(text, encoding="utf-8")
        criterion_evidence.reload()
        self.stdout.write(
            self.style.SUCCESS(
                f"Evidence model trained on {about['drafts']} drafts by "
                f"{', '.join(about['authors'])} (threshold {model.threshold}, chosen on drafts "  # type: ignore[arg-type]
                f"each read by a model fitted without their author: balanced "
                f"{about['out_of_author_balanced']}) -> {path}"
            )
        )


def _same(committed: dict[str, Any], trained: dict[str, Any]) -> bool:
    a, b = committed.get("weights", {}), trained["weights"]
    return (
        committed.get("threshold") == trained["threshold"]
        and a.keys() == b.keys()
        and all(abs(a[k] - b[k]) <= TOLERANCE for k in b)
        and abs(committed.get("intercept", 0.0) - trained["intercept"]) <= TOLERANCE
    )
