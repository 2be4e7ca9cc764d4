"""The registry this server is configured with (AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON)."""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings

from registry_review.records import RegistryReport
from registry_review.validation import validate_registry_text


def configured_registry_report() -> RegistryReport:
    """The report for AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON as this server is configured.

    The registry is parsed and validated once per process for each configured text (the report
    is immutable), not on every current-context run.
    """
    return _report(
        settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON or "",
        production=settings.AICD_ENVIRONMENT == "production",
        allowed_ports=frozenset(settings.AICD_CURRENT_CONTEXT_ALLOWED_PORTS or ()),
    )


@lru_cache(maxsize=8)
def _report(text: str, *, production: bool, allowed_ports: frozenset[int]) -> RegistryReport:
    return validate_registry_text(text, production=production, allowed_ports=allowed_ports)
