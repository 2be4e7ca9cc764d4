"""The JSON answer for every unknown ``/api/`` path and method, in the contract's error shape.

Django's own 404 is an HTML page; an API client (a trailing slash on ``DELETE
/api/session-sources/``, a typo) should get ``{"error": {"code", "message"}}`` like every other
API error. It is a DRF view so that it authenticates like the rest of the API: an anonymous
caller gets the same 401 as on a real endpoint (nothing tells it which paths exist), a signed-in
one a 404. Known API views answer unknown methods with DRF's JSON 405 themselves.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import HttpRequest, HttpResponseBase, HttpResponsePermanentRedirect
from django.urls import Resolver404, resolve
from django.utils.decorators import method_decorator
from django.views.decorators.cache import never_cache
from drf_spectacular.utils import extend_schema
from rest_framework.exceptions import NotFound
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView


def _slash_target(request: HttpRequest) -> str | None:
    """Where CommonMiddleware's APPEND_SLASH would have sent a GET (``/api/schema`` there)."""
    if not settings.APPEND_SLASH or request.method not in ("GET", "HEAD"):
        return None
    if request.path_info.endswith("/"):
        return None
    try:
        match = resolve(request.path_info + "/")
    except Resolver404:
        return None
    if getattr(match.func, "view_class", None) is ApiNotFoundView:
        return None
    return request.get_full_path(force_append_slash=True)


@extend_schema(exclude=True)
@method_decorator(login_not_required, name="dispatch")
@method_decorator(never_cache, name="dispatch")
class ApiNotFoundView(APIView):
    """Every method: 401 for an anonymous caller, else a JSON 404 naming the path and method."""

    def dispatch(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
        target = _slash_target(request)
        if target is not None:
            return HttpResponsePermanentRedirect(target)
        return super().dispatch(request, *args, **kwargs)

    def not_found(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        raise NotFound(f"No API endpoint at {request.path} for {request.method}.")

    get = post = put = patch = delete = options = not_found
