"""Train (or, with --check, verify) the criterion evidence model from the labelled training drafts."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from assistant.review import criterion_evidence
from learning import corpora
from learning.training import evidence as evidence_training


class Command(BaseCommand):
    help = "Learn the review's criterion evidence model into AICD_MODEL_DIR/evidence_model.json."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="fail if the committed model is stale"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        model, about = evidence_training.train()
        text = model.to_json() + "\n"
        path = criterion_evidence.SHIPPED.publish(
            text,
            "build_evidence_model",
            check=options["check"],
            data=corpora.fingerprint(evidence_training.training_draft_dirs()),
        )
        if options["check"]:
            self.stdout.write(self.style.SUCCESS(f"Evidence model OK: {path}"))
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Evidence model trained on {about['drafts']} drafts by "
                f"{', '.join(about['authors'])} (threshold {model.threshold}, chosen on drafts "  # type: ignore[arg-type]
                f"each read by a model fitted without their author: balanced "
                f"{about['out_of_author_balanced']}) -> {path}"
            )
        )
