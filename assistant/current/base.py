"""The current-context adapter extension point; `disabled` is an implementation, not an `if`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from assistant.domain.types import PackageRow
from core.implementations import Implementations

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


_ADAPTERS: Implementations[BaseCurrentContextAdapter] = Implementations(
    "AICD_CURRENT_CONTEXT_ADAPTER", ADAPTERS, reset_prefix="AICD_CURRENT_CONTEXT"
)


def get_adapter() -> BaseCurrentContextAdapter:
    """The configured adapter, built once per process from the validated settings.

    An unknown AICD_CURRENT_CONTEXT_ADAPTER is an ImproperlyConfigured naming the setting (and
    the system check ``current.E001``). A changed AICD_CURRENT_CONTEXT_* setting builds it anew.
    """
    return _ADAPTERS.current()


#: The readable error for an AICD_CURRENT_CONTEXT_ADAPTER that names no adapter, or None.
unknown_adapter_message = _ADAPTERS.unknown_message
