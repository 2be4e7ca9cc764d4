"""Typed readers for environment variables that fail loudly on a bad value."""

from __future__ import annotations

import os

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def get_str(name: str, default: str = "") -> str:
    """Return the variable's value stripped of surrounding whitespace, or ``default``."""
    return os.environ.get(name, default).strip()


def get_bool(name: str, default: bool = False) -> bool:
    """Parse a boolean variable; anything but a clear yes/no raises ImproperlyConfigured."""
    raw = os.environ.get(name)
    if raw is None:
        return default
    value = raw.strip().lower()
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean (true/false), got {raw!r}.")


def get_float(name: str, default: float | None = None, *, minimum: float = 0.0) -> float | None:
    """Parse a non-negative float variable, or return ``default`` when unset or empty."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a number, got {raw!r}.") from None
    if value < minimum or value != value or value in (float("inf"), float("-inf")):
        raise ImproperlyConfigured(f"{name} must be a finite number >= {minimum}, got {raw!r}.")
    return value


def get_fraction(name: str, default: float) -> float:
    """Parse a number between 0 and 1 inclusive, or return ``default`` when unset or empty."""
    value = get_float(name, default)
    if value is None or value > 1.0:
        raise ImproperlyConfigured(f"{name} must be a number between 0 and 1, got {value!r}.")
    return value


def get_int(name: str, default: int, *, minimum: int = 0) -> int:
    """Parse an integer variable with a lower bound."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be an integer, got {raw!r}.") from None
    if value < minimum:
        raise ImproperlyConfigured(f"{name} must be >= {minimum}, got {value}.")
    return value


def get_choice(name: str, choices: tuple[str, ...], default: str) -> str:
    """Parse a variable restricted to ``choices``."""
    value = get_str(name, default) or default
    if value not in choices:
        allowed = ", ".join(choices)
        raise ImproperlyConfigured(f"{name} must be one of: {allowed}; got {value!r}.")
    return value


def get_int_list(name: str, default: tuple[int, ...] = ()) -> tuple[int, ...]:
    """Parse a comma-separated list of non-negative integers."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return default
    try:
        values = tuple(int(part) for part in raw.split(",") if part.strip())
    except ValueError:
        raise ImproperlyConfigured(
            f"{name} must be comma-separated integers, got {raw!r}."
        ) from None
    if any(v < 1 or v > 65535 for v in values):
        raise ImproperlyConfigured(
            f"{name} must list port numbers between 1 and 65535, got {raw!r}."
        )
    return values


_RATE_PERIODS = {"s", "sec", "second", "m", "min", "minute", "h", "hour", "d", "day"}


def get_rate(name: str, default: str) -> str:
    """Parse a DRF throttle rate such as ``60/min``; a malformed rate raises ImproperlyConfigured."""
    value = get_str(name, default) or default
    count, _, period = value.partition("/")
    if not (count.isdigit() and int(count) > 0 and period in _RATE_PERIODS):
        raise ImproperlyConfigured(
            f"{name} must look like 60/min (a positive count per s, min, hour or day), got {value!r}."
        )
    return value
