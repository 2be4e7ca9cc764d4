"""Build (or, with --check, verify) the screening artifact from the labelled corpus."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from assistant.screening import artifact
from assistant.screening.corpus import CorpusError
from assistant.screening.model import ModelError


class Command(BaseCommand):
    help = "Train the intent classifier and answerability weights into AICD_SCREENING_MODEL_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="fail if the built artifact is missing or stale"
        )
        parser.add_argument(
            "--out", type=Path, default=None, help="override AICD_SCREENING_MODEL_DIR"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        out = options["out"] or Path(settings.AICD_SCREENING_MODEL_DIR)
        if options["check"]:
            try:
                built = artifact.read(out)
            except ModelError as exc:
                raise CommandError(f"{exc}. Run 'manage.py build_screening_model'.") from None
            if built.fingerprint != artifact.fingerprint():
                raise CommandError(
                    f"The screening model in {out} is stale (built from {built.fingerprint}, the "
                    f"corpus and package now give {artifact.fingerprint()}). Run 'manage.py "
                    "build_screening_model'."
                )
            self.stdout.write(self.style.SUCCESS(f"Screening model OK: {out}"))
            return
        try:
            screening = artifact.build()
        except CorpusError as exc:
            raise CommandError(f"The screening corpus is broken: {exc}") from None
        artifact.write(screening, out)
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
