"""Take registry-review access away: remove an account from the "Source owners" group."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ApplicationError
from registry_review import source_owners


class Command(BaseCommand):
    help = (
        'Remove USERNAME from the "Source owners" group; says so if the account keeps registry '
        "review another way (superuser, a direct permission, another group)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            change = source_owners.revoke(username=options["username"])
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        if change.changed:
            self.stdout.write(
                self.style.SUCCESS(f"{change.username!r} is no longer a source owner.")
            )
        else:
            self.stdout.write(f"{change.username!r} was not a source owner; nothing changed.")
        if change.has_access:
            self.stderr.write(
                self.style.WARNING(
                    f"{change.username!r} still has registry review through "
                    f"{', '.join(change.other_grants) or 'another grant'}."
                )
            )
