"""Per-user rate limits: DRF's scoped throttles, also applied to the template views that run the pipeline.

The API views declare ``throttle_scope``; the chat page posts to the same pipeline, so it shares
the scope (and the count) through :func:`throttle_posts`. Rates come from
``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (``AICD_CHAT_THROTTLE_RATE``,
``AICD_UPLOAD_THROTTLE_RATE``); counts live in the default cache (Redis when configured).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import wraps

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from aicd.throttling import SharedScopedRateThrottle

View = Callable[..., HttpResponse]


class _Scope:
    """The minimal view object ScopedRateThrottle reads its scope from."""

    def __init__(self, scope: str):
        self.throttle_scope = scope


def throttle_posts(scope: str) -> Callable[[View], View]:
    """Rate-limit POSTs to a template view under a DRF throttle scope; over the limit is a 429 page."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            if request.method == "POST":
                throttle = SharedScopedRateThrottle()
                if not throttle.allow_request(request, _Scope(scope)):  # type: ignore[arg-type]
                    wait = throttle.wait()
                    retry_after = max(1, math.ceil(wait)) if wait is not None else None
                    response = render(
                        request, "throttled.html", {"retry_after": retry_after}, status=429
                    )
                    if retry_after is not None:
                        response["Retry-After"] = str(retry_after)
                    return response
            return view(request, *args, **kwargs)

        return wrapped

    return decorate
