"""Fixtures for the provider end-to-end tests: a scripted loopback gateway, configured with a canary
API key that (autouse) appears in no captured log record."""

from __future__ import annotations

import logging
import secrets

import pytest
from django.test import override_settings

from tests.assistant.providers import gateway as gw

API_KEY = "sk-aicd-canary-" + secrets.token_hex(12)
MODEL = "gw-model-1"


@pytest.fixture(autouse=True)
def key_never_logged(caplog):
    """Capture every log record at DEBUG (httpx and httpcore included); the key is in none."""
    caplog.set_level(logging.DEBUG)
    yield
    for record in caplog.records:
        text = record.getMessage() + repr(record.args) + (record.exc_text or "")
        assert API_KEY not in text, f"API key leaked into log record {record.name}"
    assert API_KEY not in caplog.text


@pytest.fixture
def gateway():
    server = gw.LoopbackGateway().start()
    yield server
    server.stop()


@pytest.fixture
def configured(gateway):
    with override_settings(
        AICD_PROVIDER="openai_compatible",
        AICD_PROVIDER_BASE_URL=gateway.url,
        AICD_PROVIDER_MODEL=MODEL,
        AICD_PROVIDER_API_KEY=API_KEY,
        AICD_PROVIDER_TIMEOUT_S=5.0,
    ):
        yield gateway
