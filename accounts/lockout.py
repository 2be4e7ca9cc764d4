"""Brute-force protection for sign-in: failures counted per username and client address in the cache.

After ``AICD_LOGIN_FAILURE_LIMIT`` failures for one username from one address within
``AICD_LOGIN_LOCKOUT_S`` seconds, that pair is locked for ``AICD_LOGIN_LOCKOUT_S`` seconds, even
with the right password. A successful sign-in clears the pair's count; an operator can clear every
lock on a username with ``manage.py unlock_login USERNAME``. State lives in the default cache, so
it is shared by every worker when ``AICD_REDIS_URL`` is set. Keys hold hashes, never the username.
"""

from __future__ import annotations

import hashlib
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest

_PREFIX = "aicd:login"
logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class LockState:
    """Whether a username/address pair may try to sign in, and for how long it may not."""

    locked: bool
    retry_after_s: int = 0


def client_address(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or the entry the outermost trusted proxy appended.

    With ``AICD_TRUSTED_PROXY_COUNT = n`` the n-th address from the right of X-Forwarded-For is the
    one the first trusted proxy saw; entries further left are client-supplied and ignored.
    """
    proxies = settings.AICD_TRUSTED_PROXY_COUNT
    if proxies > 0:
        forwarded = [a.strip() for a in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",")]
        forwarded = [a for a in forwarded if a]
        if len(forwarded) >= proxies:
            return forwarded[-proxies]
    return str(request.META.get("REMOTE_ADDR", "") or "unknown")


def _digest(value: str) -> str:
    return hashlib.sha256(value.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def _normalise(username: str) -> str:
    return username.strip().casefold()


def _generation(user_hash: str) -> int:
    return int(cache.get(f"{_PREFIX}:gen:{user_hash}", 0))


def _keys(username: str, address: str) -> tuple[str, str]:
    user_hash = _digest(_normalise(username))
    base = f"{_PREFIX}:{user_hash}:{_generation(user_hash)}:{_digest(address)}"
    return f"{base}:failures", f"{base}:locked"


def state(username: str, address: str) -> LockState:
    """The lock state of this username from this address."""
    _, locked_key = _keys(username, address)
    until = cache.get(locked_key)
    if until is None:
        return LockState(False)
    remaining = float(until) - time.time()
    if remaining <= 0:
        return LockState(False)
    return LockState(True, max(1, math.ceil(remaining)))


def record_failure(username: str, address: str) -> LockState:
    """Count one failed sign-in; lock the pair when the count reaches the limit."""
    failures_key, locked_key = _keys(username, address)
    window = settings.AICD_LOGIN_LOCKOUT_S
    if cache.add(failures_key, 1, timeout=window):
        count = 1
    else:
        try:
            count = cache.incr(failures_key)
        except ValueError:  # expired between add and incr
            cache.add(failures_key, 1, timeout=window)
            count = 1
        cache.touch(failures_key, timeout=window)
    if count >= settings.AICD_LOGIN_FAILURE_LIMIT:
        cache.set(locked_key, time.time() + window, timeout=window)
        # The username appears only as its hash (sha256 of the case-folded name, first 12 hex).
        logger.warning(
            "sign-in locked for %ss: user=%s address=%s failures=%d",
            window,
            _digest(_normalise(username))[:12],
            address,
            count,
        )
        return LockState(True, window)
    return LockState(False)


def reset(username: str, address: str) -> None:
    """Forget this pair's failures and lock (after a successful sign-in)."""
    cache.delete_many(list(_keys(username, address)))


def unlock_username(username: str) -> None:
    """Lift every lock on ``username`` from every address (an operator's reset)."""
    gen_key = f"{_PREFIX}:gen:{_digest(_normalise(username))}"
    cache.add(gen_key, 0, timeout=None)
    cache.incr(gen_key)


def _username_from(credentials: dict[str, Any]) -> str | None:
    from django.contrib.auth import get_user_model

    value = credentials.get(get_user_model().USERNAME_FIELD, credentials.get("username"))
    return value if isinstance(value, str) and value else None


def on_login_failed(
    sender: Any, credentials: dict[str, Any], request: HttpRequest | None = None, **kwargs: Any
) -> None:
    """``user_login_failed`` receiver: count the failure unless the pair is already locked."""
    username = _username_from(credentials)
    if request is None or username is None:
        return
    address = client_address(request)
    if not state(username, address).locked:
        record_failure(username, address)


def on_logged_in(sender: Any, request: HttpRequest | None, user: Any, **kwargs: Any) -> None:
    """``user_logged_in`` receiver: a successful sign-in clears this pair's failures."""
    if request is not None:
        reset(user.get_username(), client_address(request))
