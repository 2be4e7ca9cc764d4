"""Create the development demo reviewer account if it does not exist, and print its login."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

DEMO_USERNAME = "reviewer"
DEMO_PASSWORD = "aicd-demo-reviewer"  # noqa: S105 - a development-only demo login, refused in production


class Command(BaseCommand):
    help = "Create the demo reviewer account (development only) and print its login."

    def handle(self, *args: Any, **options: Any) -> None:
        if settings.PRODUCTION:
            raise CommandError(
                "The demo account is for development only; create real accounts instead."
            )
        users = get_user_model()
        user, created = users.objects.get_or_create(username=DEMO_USERNAME)
        if created:
            user.set_password(DEMO_PASSWORD)
            user.save()
        state = "created" if created else "exists"
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo login ({state}): username '{DEMO_USERNAME}', password '{DEMO_PASSWORD}' "
                f"-> http://127.0.0.1:8000/"
            )
        )
