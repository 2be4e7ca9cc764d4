"""DRF permission: only holders of ``registry_review.review_registry`` may review registries."""

from __future__ import annotations

from typing import Any

from rest_framework.permissions import BasePermission
from rest_framework.request import Request

from registry_review.models import PERMISSION


class CanReviewRegistry(BasePermission):
    """Grants access to signed-in users holding the review permission (via "Source owners")."""

    message = "Registry review needs the registry_review.review_registry permission."

    def has_permission(self, request: Request, view: Any) -> bool:
        user = request.user
        return bool(user and user.is_authenticated and user.has_perm(PERMISSION))
