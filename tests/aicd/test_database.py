"""The accounts database: migrations complete and reversible, on SQLite and on PostgreSQL.

`make test` runs this module twice: on SQLite in memory, then with AICD_TEST_DATABASE_URL naming
the throwaway PostgreSQL that scripts/with-test-services starts.
"""

from __future__ import annotations

import os
from io import StringIO

import dj_database_url
import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import call_command
from django.db import connection


def test_the_run_uses_the_database_it_was_given() -> None:
    url = os.environ.get("AICD_TEST_DATABASE_URL", "")
    expected = dj_database_url.parse(url)["ENGINE"] if url else "django.db.backends.sqlite3"
    assert connection.settings_dict["ENGINE"] == expected


@pytest.mark.django_db
def test_no_model_change_lacks_a_migration() -> None:
    out = StringIO()
    call_command("makemigrations", "--check", "--dry-run", stdout=out)
    assert "No changes detected" in out.getvalue()


@pytest.mark.django_db(transaction=True)
def test_the_source_owner_migration_reverses_and_reapplies() -> None:
    def owners_hold_the_permission() -> bool:
        return Permission.objects.filter(
            group__name="Source owners",
            content_type__app_label="registry_review",
            codename="review_registry",
        ).exists()

    assert owners_hold_the_permission()
    call_command("migrate", "registry_review", "0001", verbosity=0)
    assert Group.objects.filter(name="Source owners").exists()  # the group stays, empty
    assert not owners_hold_the_permission()
    call_command("migrate", "registry_review", verbosity=0)
    assert owners_hold_the_permission()


@pytest.mark.django_db
def test_users_tokens_and_groups_round_trip(django_user_model) -> None:
    from rest_framework.authtoken.models import Token

    user = django_user_model.objects.create_user("zoë", password="correct-horse-battery")
    user.groups.add(Group.objects.get(name="Source owners"))
    token = Token.objects.create(user=user)
    again = django_user_model.objects.get(username="zoë")
    assert again.check_password("correct-horse-battery")
    assert again.has_perm("registry_review.review_registry")
    assert Token.objects.get(key=token.key).user == again
