"""Give an account registry-review access: add it to the "Source owners" group."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ApplicationError
from registry_review import source_owners


class Command(BaseCommand):
    help = (
        'Add USERNAME to the "Source owners" group, which holds the registry_review.review_registry '
        "permission (the /registry-review/ page and /api/registry/validate)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            change = source_owners.grant(username=options["username"])
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        if change.changed:
            self.stdout.write(
                self.style.SUCCESS(f"{change.username!r} is now a source owner (registry review).")
            )
        else:
            self.stdout.write(f"{change.username!r} was already a source owner; nothing changed.")
