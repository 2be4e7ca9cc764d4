"""Lift every sign-in lock on a username (all client addresses)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from accounts import lockout

_PER_PROCESS_CACHES = (
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
)


class Command(BaseCommand):
    help = "Lift every sign-in lock on USERNAME, from every client address (needs AICD_REDIS_URL)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.CACHES["default"]["BACKEND"] in _PER_PROCESS_CACHES:
            raise CommandError(
                "Sign-in locks live in the server process's local-memory cache, which this command "
                "cannot reach. Wait for the lock to expire (AICD_LOGIN_LOCKOUT_S) or restart the "
                "server; with AICD_REDIS_URL set, this command lifts locks directly."
            )
        lockout.unlock_username(options["username"])
        self.stdout.write(self.style.SUCCESS(f"Sign-in locks lifted for {options['username']!r}."))
