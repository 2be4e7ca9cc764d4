"""`manage.py grant_source_owner USER` / `revoke_source_owner USER`: registry-review access by name."""

from __future__ import annotations

from io import StringIO

import pytest
from django.contrib.auth.models import Group, Permission
from django.core.management import CommandError, call_command
from django.test import Client

PAGE = "/registry-review/"


def _run(command: str, username: str) -> tuple[str, str]:
    out, err = StringIO(), StringIO()
    call_command(command, username, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def _page_status(user) -> int:
    client = Client()
    client.force_login(user)
    return client.get(PAGE).status_code


@pytest.mark.django_db
def test_grant_then_revoke_opens_and_closes_the_review_page(reviewer) -> None:
    assert _page_status(reviewer) == 403
    out, _ = _run("grant_source_owner", "rita")
    assert "'rita' is now a source owner" in out
    assert reviewer.groups.filter(name="Source owners").exists()
    assert _page_status(reviewer) == 200
    out, err = _run("revoke_source_owner", "rita")
    assert "'rita' is no longer a source owner" in out and err == ""
    assert _page_status(reviewer) == 403


@pytest.mark.django_db
def test_both_are_idempotent(reviewer) -> None:
    _run("grant_source_owner", "rita")
    assert "already a source owner; nothing changed" in _run("grant_source_owner", "rita")[0]
    assert reviewer.groups.filter(name="Source owners").count() == 1
    _run("revoke_source_owner", "rita")
    assert "was not a source owner; nothing changed" in _run("revoke_source_owner", "rita")[0]


@pytest.mark.django_db
def test_an_unknown_user_is_a_clear_error() -> None:
    for command in ("grant_source_owner", "revoke_source_owner"):
        with pytest.raises(CommandError, match="No account named 'nobody'"):
            _run(command, "nobody")


@pytest.mark.django_db
def test_revoke_says_when_access_remains_another_way(reviewer, django_user_model) -> None:
    permission = Permission.objects.get(
        content_type__app_label="registry_review", codename="review_registry"
    )
    auditors = Group.objects.create(name="Auditors")
    auditors.permissions.add(permission)
    reviewer.groups.add(auditors)
    _run("grant_source_owner", "rita")
    _, err = _run("revoke_source_owner", "rita")
    assert 'still has registry review through group "Auditors"' in err
    admin = django_user_model.objects.create_superuser("ada", password="correct-horse-battery")
    _, err = _run("revoke_source_owner", admin.username)
    assert "still has registry review through superuser" in err


@pytest.mark.django_db
def test_without_the_migrated_group_the_error_names_migrate(reviewer) -> None:
    Group.objects.filter(name="Source owners").delete()
    with pytest.raises(CommandError, match="run manage.py migrate"):
        _run("grant_source_owner", "rita")
