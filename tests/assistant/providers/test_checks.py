"""`manage.py check` reports provider gaps early and, under --deploy, clear-text keys."""

from __future__ import annotations

from django.core.checks import run_checks
from django.test import override_settings

GOOD = {
    "AICD_PROVIDER": "openai_compatible",
    "AICD_PROVIDER_BASE_URL": "https://gw.example/v1",
    "AICD_PROVIDER_MODEL": "m",
    "AICD_PROVIDER_API_KEY": "sk-check-canary",
}


def _ids(**overrides: object) -> dict[str, str]:
    with override_settings(**{**GOOD, **overrides}):
        return {
            m.id: m.msg
            for m in run_checks(include_deployment_checks=True)
            if m.id and m.id.startswith("provider.")
        }


def test_complete_https_configuration_is_clean() -> None:
    assert _ids(PRODUCTION=True) == {}


def test_deterministic_provider_needs_nothing() -> None:
    assert (
        _ids(AICD_PROVIDER="deterministic", AICD_PROVIDER_BASE_URL="", AICD_PROVIDER_MODEL="") == {}
    )


def test_missing_model_is_a_named_warning() -> None:
    assert _ids(AICD_PROVIDER_MODEL="") == {
        "provider.W001": "AICD_PROVIDER_MODEL is not set; the openai_compatible provider needs a model name."
    }


def test_bad_url_warning_does_not_echo_the_url() -> None:
    messages = _ids(AICD_PROVIDER_BASE_URL="https://u:sk-in-url@gw.example/v1")
    assert "provider.W001" in messages and "sk-in-url" not in messages["provider.W001"]


def test_plain_http_key_to_another_host_warns_in_production_only() -> None:
    assert "provider.W002" in _ids(
        PRODUCTION=True, AICD_PROVIDER_BASE_URL="http://gw.internal:4000"
    )
    assert "provider.W002" not in _ids(
        PRODUCTION=False, AICD_PROVIDER_BASE_URL="http://gw.internal:4000"
    )
    assert "provider.W002" not in _ids(
        PRODUCTION=True, AICD_PROVIDER_BASE_URL="http://127.0.0.1:8000/v1"
    )
    assert "provider.W002" not in _ids(
        PRODUCTION=True, AICD_PROVIDER_BASE_URL="http://gw.internal:4000", AICD_PROVIDER_API_KEY=""
    )


def test_an_unknown_provider_or_adapter_is_an_error_naming_the_setting() -> None:
    with override_settings(AICD_PROVIDER="gpt", AICD_CURRENT_CONTEXT_ADAPTER="web"):
        messages = {m.id: m.msg for m in run_checks() if m.id}
    assert messages["provider.E001"] == (
        "AICD_PROVIDER must be one of: deterministic, openai_compatible; got 'gpt'."
    )
    assert messages["current.E001"] == (
        "AICD_CURRENT_CONTEXT_ADAPTER must be one of: disabled, allowlisted_public_fetch; "
        "got 'web'."
    )
