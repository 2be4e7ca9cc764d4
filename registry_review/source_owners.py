"""Who may review registries: membership of the "Source owners" group, granted and revoked by name.

The group and its one permission (``registry_review.review_registry``) are created by migration
0002. ``manage.py grant_source_owner USER`` and ``revoke_source_owner USER`` call these functions;
the admin's user page does the same by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group

from core.errors import ApplicationError
from registry_review.models import PERMISSION, SOURCE_OWNERS_GROUP


@dataclass(frozen=True)
class Change:
    """What a grant or revocation did, and what still gives the user access afterwards."""

    username: str
    changed: bool
    has_access: bool
    other_grants: tuple[str, ...]


def _user(username: str) -> Any:
    model = get_user_model()
    try:
        return model.objects.get(**{model.USERNAME_FIELD: username})
    except model.DoesNotExist:
        raise ApplicationError(
            "unknown_user",
            f"No account named {username!r}. Create it first (manage.py createsuperuser, or the "
            "admin's Users page).",
            status_code=404,
        ) from None


def _group() -> Group:
    try:
        return Group.objects.get(name=SOURCE_OWNERS_GROUP)
    except Group.DoesNotExist:
        raise ApplicationError(
            "missing_group",
            f'The "{SOURCE_OWNERS_GROUP}" group does not exist; run manage.py migrate first.',
            status_code=500,
        ) from None


def _state(username: str, changed: bool) -> Change:
    user = _user(username)  # fetched again: permissions are cached on the user object
    others: list[str] = []
    if getattr(user, "is_superuser", False):
        others.append("superuser")
    app_label, codename = PERMISSION.split(".")
    direct = user.user_permissions.filter(content_type__app_label=app_label, codename=codename)
    if direct.exists():
        others.append("a permission granted to the user directly")
    groups = user.groups.filter(
        permissions__content_type__app_label=app_label, permissions__codename=codename
    ).exclude(name=SOURCE_OWNERS_GROUP)
    others += [f'group "{name}"' for name in groups.values_list("name", flat=True)]
    return Change(
        username=username,
        changed=changed,
        has_access=user.has_perm(PERMISSION),
        other_grants=tuple(others),
    )


def grant(*, username: str) -> Change:
    """Add the user to "Source owners" (idempotent)."""
    user, group = _user(username), _group()
    member = user.groups.filter(pk=group.pk).exists()
    if not member:
        user.groups.add(group)
    return _state(username, changed=not member)


def revoke(*, username: str) -> Change:
    """Remove the user from "Source owners" (idempotent); report any grant that remains."""
    user, group = _user(username), _group()
    member = user.groups.filter(pk=group.pk).exists()
    if member:
        user.groups.remove(group)
    return _state(username, changed=member)
