"""The authentication backend: Django's model backend behind the sign-in lockout."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.backends import ModelBackend
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest

from accounts import lockout


class LockoutModelBackend(ModelBackend):
    """Refuses any password check for a locked username/address pair, before hashing anything.

    Every caller of ``authenticate()`` with a request goes through it: the sign-in page, the admin
    site's sign-in page and any later password-based entry point.
    """

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> Any:
        name = username if username is not None else kwargs.get(self._username_field())
        if request is not None and isinstance(name, str):
            if lockout.state(name, lockout.client_address(request)).locked:
                raise PermissionDenied("sign-in locked")
        return super().authenticate(request, username=username, password=password, **kwargs)

    @staticmethod
    def _username_field() -> str:
        from django.contrib.auth import get_user_model

        return str(get_user_model().USERNAME_FIELD)
