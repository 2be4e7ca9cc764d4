"""Who owns a request's session sources: the signed-in user's id, as the store keys them."""

from __future__ import annotations

from django.http import HttpRequest
from rest_framework.request import Request


def owner_of(request: HttpRequest | Request) -> str:
    """The owner key for ``request``'s user (session sources are scoped to one user)."""
    return str(request.user.pk)
