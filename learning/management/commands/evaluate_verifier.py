"""Run the claim verifier's benchmark (claims built from the package) and print its figures."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from assistant.retrieval.context_pack import get_context_pack
from learning.evaluation import verifier_cases, verifier_report


class Command(BaseCommand):
    help = (
        "Score the claim verifier on supported and unsupported claims built from the package rows."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check",
            action="store_true",
            help="exit non-zero if the held-out half misses a target",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        pack = get_context_pack()
        text, figures = verifier_report.report(
            pack.rows,
            pack.index.expansion,
            pack.index.doc_freq,
            package_version=pack.package_version,
        )
        self.stdout.write(text)
        if options["check"] and not figures[verifier_cases.HELD_OUT].meets_targets():
            raise CommandError("The claim verifier misses a target on the held-out half.")
