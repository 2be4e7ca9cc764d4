"""Scoped rate throttling that is atomic in Redis: one round trip, exact across workers and machines.

The API views declare ``throttle_scope``; the template views that share an API's count (the chat
page's POST, the upload panel's forms) use ``throttle_posts`` or ``over_limit`` with the same
scope. Rates come from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` (``AICD_CHAT_THROTTLE_RATE``,
``AICD_UPLOAD_THROTTLE_RATE``); counts live in the default cache (Redis when configured).
"""

from __future__ import annotations

import math
import uuid
from collections.abc import Callable
from functools import wraps

from django.core.cache import caches
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from rest_framework.request import Request
from rest_framework.throttling import ScopedRateThrottle
from rest_framework.views import APIView

from core.cache import RedisCache

# The sliding log of DRF's SimpleRateThrottle, done inside Redis: drop entries older than the
# window, refuse at the limit, else record this request. Time is Redis's clock, so workers on
# several machines agree. Returns {allowed, count, oldest entry, now}; floats as strings.
SLIDING_LOG = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now - window)
local count = redis.call('ZCARD', KEYS[1])
if count >= tonumber(ARGV[2]) then
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 0, 'WITHSCORES')
  return {0, count, oldest[2] or tostring(now), tostring(now)}
end
redis.call('ZADD', KEYS[1], now, ARGV[3])
redis.call('EXPIRE', KEYS[1], window)
return {1, count + 1, '0', tostring(now)}
"""


class SharedScopedRateThrottle(ScopedRateThrottle):
    """DRF's ``ScopedRateThrottle`` (same scopes, rates, keys and Retry-After), shared safely.

    DRF's throttle reads the request history and writes it back in two cache commands, so two
    workers serving one user at the same moment can both pass and one count is lost. With the
    Redis cache this class runs the check and the count as one Lua script instead: one round
    trip, no lost counts. With any other cache (local memory: one process) it is DRF's throttle.
    """

    cache_format = "throttle_log_%(scope)s_%(ident)s"

    def allow_request(self, request: Request, view: APIView) -> bool:
        backend = caches["default"]
        if not isinstance(backend, RedisCache):
            return super().allow_request(request, view)
        self.scope = getattr(view, self.scope_attr, None)
        if not self.scope:
            return True
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        if self.rate is None:
            return True
        self.key = self.get_cache_key(request, view)
        if self.key is None:
            return True
        allowed, count, oldest, now = backend.script(SLIDING_LOG)(
            keys=[backend.make_key(self.key)],
            args=[self.duration, self.num_requests, uuid.uuid4().hex],
        )
        self._count, self._oldest, self.now = int(count), float(oldest), float(now)
        return bool(allowed)

    def wait(self) -> float | None:
        if not hasattr(self, "_count"):
            return super().wait()
        # DRF's formula, from the count and the oldest entry instead of the history list.
        if self.duration is None or self.num_requests is None:
            return None
        remaining = self.duration - (self.now - self._oldest) if self._count else self.duration
        available = self.num_requests - self._count + 1
        if available <= 0:
            return None
        return remaining / float(available)


View = Callable[..., HttpResponse]


class _Scope:
    """The minimal view object ScopedRateThrottle reads its scope from, for a template view."""

    def __init__(self, scope: str):
        self.throttle_scope = scope


def over_limit(request: HttpRequest, scope: str) -> tuple[bool, float | None]:
    """Whether a template view's request is over ``scope``'s rate (the API's count) and the wait."""
    throttle = SharedScopedRateThrottle()
    if throttle.allow_request(request, _Scope(scope)):  # type: ignore[arg-type]
        return False, None
    return True, throttle.wait()


def throttle_posts(scope: str) -> Callable[[View], View]:
    """Rate-limit POSTs to a template view under a DRF throttle scope; over the limit is a 429 page."""

    def decorate(view: View) -> View:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
            if request.method == "POST":
                refused, wait = over_limit(request, scope)
                if refused:
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
