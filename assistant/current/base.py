"""The current-context adapter extension point; `disabled` is an implementation, not an `if`."""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

from django.conf import settings
from django.utils.module_loading import import_string

from assistant.types import PackageRow

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
    cls = import_string(ADAPTERS[settings.AICD_CURRENT_CONTEXT_ADAPTER])
    return cls()
