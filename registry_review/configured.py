"""The registry this server is configured with (AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON)."""

from __future__ import annotations

from django.conf import settings

from registry_review.records import RegistryReport
from registry_review.validation import validate_registry_text


def configured_registry_report() -> RegistryReport:
    """The report for AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON as this server is configured."""
    production = settings.AICD_ENVIRONMENT == "production"
    text = settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON or ""
    return validate_registry_text(text, production=production)
