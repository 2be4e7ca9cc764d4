"""The current-context adapter extension point; `disabled` is an implementation, not an `if`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.utils.module_loading import import_string

from assistant.types import PackageRow

#: AICD_CURRENT_CONTEXT_ADAPTER name -> import string: the one list of adapters.
ADAPTERS = {
    "disabled": "assistant.current.base.DisabledAdapter",
    "allowlisted_public_fetch": "assistant.current.allowlisted.AllowlistedPublicFetchAdapter",
}

# Adapter states, as reported in `current_context.state`.
DISABLED = "disabled"
UNCONFIGURED = "unconfigured"
NOT_RETRIEVED = "not_retrieved"
FAIL_CLOSED = "fail_closed"
RETRIEVED = "retrieved"
SKIPPED = "skipped"


@dataclass(frozen=True)
class CurrentRef:
    """One retrieved current/public source, normalised with every metadata field the seed requires."""

    source_id: str
    title: str
    url: str
    source_type: str
    trust_label: str
    freshness_label: str
    claim_boundary: str
    retrieved_at: str
    snippet: str


@dataclass(frozen=True)
class CurrentContextResult:
    state: str
    detail: str
    refs: tuple[CurrentRef, ...] = ()
    attempted: bool = False


class BaseCurrentContextAdapter(ABC):
    """Fetches current/public context server-side, only after approved package support exists."""

    name: str = "base"

    @abstractmethod
    def retrieve(
        self, *, question: str, package_rows: tuple[PackageRow, ...]
    ) -> CurrentContextResult:
        """Return refs (at most 3) or a non-retrieved state with a reason; never raise."""


class DisabledAdapter(BaseCurrentContextAdapter):
    """The default: no current/public source is ever retrieved."""

    name = "disabled"

    def retrieve(
        self, *, question: str, package_rows: tuple[PackageRow, ...]
    ) -> CurrentContextResult:
        return CurrentContextResult(
            state=DISABLED,
            detail=(
                "Current/public retrieval is disabled on this server "
                "(AICD_CURRENT_CONTEXT_ADAPTER=disabled). Package-only guidance is shown."
            ),
        )


def get_adapter() -> BaseCurrentContextAdapter:
    """The configured adapter, built once per process from the validated settings.

    An unknown AICD_CURRENT_CONTEXT_ADAPTER is an ImproperlyConfigured naming the setting (and
    the system check ``current.E001``).
    """
    name = settings.AICD_CURRENT_CONTEXT_ADAPTER
    return _build_adapter(name, ADAPTERS.get(name, ""))


def unknown_adapter_message(name: object) -> str | None:
    """The readable error for an AICD_CURRENT_CONTEXT_ADAPTER that names no adapter, or None."""
    if name in ADAPTERS:
        return None
    return f"AICD_CURRENT_CONTEXT_ADAPTER must be one of: {', '.join(ADAPTERS)}; got {name!r}."


@cache
def _build_adapter(name: str, path: str) -> BaseCurrentContextAdapter:
    problem = unknown_adapter_message(name)
    if problem:
        raise ImproperlyConfigured(problem)
    instance: BaseCurrentContextAdapter = import_string(path)()
    return instance


@receiver(setting_changed)
def _reset_adapter(*, setting: str, **kwargs: Any) -> None:
    """Tests that override an AICD_CURRENT_CONTEXT_* setting get an adapter built anew."""
    if setting.startswith("AICD_CURRENT_CONTEXT"):
        _build_adapter.cache_clear()
