"""Pages that need a built model or context pack answer 503 in the site frame when it is missing."""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render

from core.errors import NOT_READY_MESSAGE, NotReady, error_body

logger = logging.getLogger(__name__)


class NotReadyMiddleware:
    """Turns ``NotReady`` raised by any view into a 503: JSON under ``/api/``, else a page."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not isinstance(exception, NotReady):
            return None
        logger.error("Not ready: %s", exception)
        if request.path.startswith("/api/"):
            return JsonResponse(error_body("not_ready", NOT_READY_MESSAGE), status=503)
        return render(request, "503.html", status=503)
