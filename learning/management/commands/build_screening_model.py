"""Build (or, with --check, verify) the screening artifact from the labelled corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from assistant.screening import artifact
from assistant.screening.model import ModelError
from learning.screening import artifact as building
from learning.screening.corpus import CorpusError


class Command(BaseCommand):
    help = "Train the intent classifier, answerability weights and topics into AICD_MODEL_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="fail if the built artifact is missing or stale"
        )
        parser.add_argument(
            "--out", type=Path, default=None, help="another directory than AICD_MODEL_DIR/screening"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        root = options["out"] or artifact.directory()
        if options["check"]:
            try:
                built = artifact.read(root)
            except ModelError as exc:
                raise CommandError(f"{exc}. Run 'manage.py build_screening_model'.") from None
            if built.fingerprint != building.fingerprint():
                raise CommandError(
                    f"The screening model in {root} is stale (built from {built.fingerprint}, the "
                    f"corpus and package now give {building.fingerprint()}). Run 'manage.py "
                    "build_screening_model'."
                )
            self.stdout.write(self.style.SUCCESS(f"Screening model OK: {root}"))
            return
        try:
            screening = building.build()
        except CorpusError as exc:
            raise CommandError(f"The screening corpus is broken: {exc}") from None
        out = building.write(screening, options["out"])
        artifact.reset_cache()
        meta = screening.intent.meta
        self.stdout.write(
            self.style.SUCCESS(
                f"Screening model built from {meta['examples']} questions by "
                f"{len(meta['authors'])} authors (thresholds "  # type: ignore[arg-type]
                + ", ".join(f"{k} {v:.2f}" for k, v in screening.intent.thresholds.items())
                + f"; answerability threshold {screening.answerability.threshold:.3f}) -> {out}"
            )
        )
