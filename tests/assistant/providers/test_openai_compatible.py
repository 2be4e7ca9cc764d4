"""The openai_compatible provider's pure parts: endpoint rule, configuration, parsing, backoff."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.test import override_settings

from assistant.providers import gateway_config
from assistant.providers import openai_compatible as oc
from assistant.providers.base import ProviderError, get_provider


@pytest.mark.parametrize(
    ("base_url", "endpoint"),
    [
        ("http://127.0.0.1:8000", "http://127.0.0.1:8000/v1/chat/completions"),
        ("http://127.0.0.1:8000/", "http://127.0.0.1:8000/v1/chat/completions"),
        ("http://127.0.0.1:8000/v1", "http://127.0.0.1:8000/v1/chat/completions"),
        ("http://127.0.0.1:8000/v1/", "http://127.0.0.1:8000/v1/chat/completions"),
        ("https://gw.example/llm/openai", "https://gw.example/llm/openai/chat/completions"),
        ("https://gw.example/llm/openai/v1//", "https://gw.example/llm/openai/v1/chat/completions"),
        ("https://gw.example/v1/chat/completions", "https://gw.example/v1/chat/completions"),
        ("http://[::1]:11434/v1", "http://[::1]:11434/v1/chat/completions"),
    ],
)
def test_endpoint_rule(base_url: str, endpoint: str) -> None:
    assert gateway_config.chat_completions_url(base_url) == endpoint


@pytest.mark.parametrize(
    "base_url",
    [
        "gw.example/v1",
        "ftp://gw.example/v1",
        "file:///etc/passwd",
        "https://user:hunter2-secret@gw.example/v1",
        "https://gw.example/v1?api_key=hunter2-secret",
        "https://gw.example/v1?",
        "https://gw.example/v1#frag",
        "https://gw.example\\@evil.example/v1",
        "https://gw.example/v 1",
        "https://gw.example:99999/v1",
        "https:///v1",
    ],
)
def test_bad_base_urls_are_refused_without_echoing_them(base_url: str) -> None:
    with pytest.raises(ProviderError) as caught:
        gateway_config.chat_completions_url(base_url)
    assert caught.value.code == "not_configured"
    assert "hunter2" not in caught.value.message and "evil" not in caught.value.message


def test_config_repr_never_shows_the_key() -> None:
    config = gateway_config.GatewayConfig(
        "http://h/v1/chat/completions", "m", "sk-very-secret", 5.0, 0.0, None
    )
    assert "sk-very-secret" not in repr(config)


@override_settings(
    AICD_PROVIDER="openai_compatible",
    AICD_PROVIDER_BASE_URL="http://127.0.0.1:9/v1",
    AICD_PROVIDER_MODEL="m",
    AICD_PROVIDER_API_KEY="",
    AICD_PROVIDER_TEMPERATURE=0.3,
    AICD_PROVIDER_MAX_TOKENS=800,
)
def test_optional_parameters_and_keyless_servers() -> None:
    config = gateway_config.load_config()
    assert config.api_key == "" and config.temperature == 0.3 and config.max_tokens == 800
    assert isinstance(get_provider(), oc.OpenAICompatibleProvider)


@override_settings(
    AICD_PROVIDER_BASE_URL="http://h", AICD_PROVIDER_MODEL="m", AICD_PROVIDER_TEMPERATURE=3.0
)
def test_out_of_range_temperature_is_a_configuration_error() -> None:
    with pytest.raises(ProviderError, match="AICD_PROVIDER_TEMPERATURE"):
        gateway_config.load_config()


def _body(**message: object) -> bytes:
    return json.dumps(
        {
            "model": "served-model",
            "choices": [{"message": {"role": "assistant", **message}, "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 7, "total_tokens": 17},
        }
    ).encode()


def test_parse_takes_usage_and_model_from_the_response() -> None:
    response = oc.parse_completion(
        _body(content="Package says\nA [P1]."), configured_model="configured"
    )
    assert response.text == "Package says\nA [P1]."
    assert (response.model, response.prompt_tokens, response.completion_tokens) == (
        "served-model",
        10,
        7,
    )


@pytest.mark.parametrize(
    "usage",
    [{"completion_tokens": True}, {"completion_tokens": -1}, {"completion_tokens": "7"}, None],
)
def test_parse_ignores_unusable_usage(usage: object) -> None:
    data = json.loads(_body(content="x"))
    data["usage"] = usage
    response = oc.parse_completion(json.dumps(data).encode(), configured_model="c")
    assert response.completion_tokens is None


def test_parse_does_not_trust_an_odd_model_name() -> None:
    data = json.loads(_body(content="x"))
    data["model"] = "<script>alert(1)</script>"
    assert (
        oc.parse_completion(json.dumps(data).encode(), configured_model="configured").model
        == "configured"
    )


def test_parse_strips_only_a_leading_think_block() -> None:
    text = "<think>plan [P9]</think>\nPackage says\nA [P1]. <think>kept</think>"
    response = oc.parse_completion(_body(content=text), configured_model="c")
    assert response.text == "Package says\nA [P1]. <think>kept</think>"


def test_parse_rejects_deeply_nested_json_as_malformed() -> None:
    with pytest.raises(ProviderError) as caught:
        oc.parse_completion(b"[" * 100_000 + b"]" * 100_000, configured_model="c")
    assert caught.value.code == "malformed_response"


@pytest.mark.parametrize(
    ("value", "expected"),
    [("3", 3.0), (" 0 ", 0.0), ("soon", None), ("", None), (None, None), ("-1", None)],
)
def test_retry_after_seconds(value: str | None, expected: float | None) -> None:
    assert oc._retry_after(value) == expected


def test_retry_after_http_date() -> None:
    when = format_datetime(datetime.now(UTC) + timedelta(seconds=30), usegmt=True)
    assert 25 <= (oc._retry_after(when) or 0) <= 30


def test_backoff_grows_with_jitter_and_honours_retry_after() -> None:
    provider = oc.OpenAICompatibleProvider()
    for attempt, ceiling in ((1, 0.5), (2, 1.0), (3, 2.0), (10, oc.BACKOFF_CAP_S)):
        delays = {provider._backoff(attempt, None) for _ in range(50)}
        assert all(ceiling / 2 <= d <= ceiling for d in delays)
        assert len(delays) > 1, "no jitter"
    assert provider._backoff(1, 5.0) == 5.0


def test_cookie_jar_keeps_nothing() -> None:
    import httpx

    jar = oc._refuse_all_cookies()
    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx.Response(200, headers={"Set-Cookie": "a=b; Path=/"}, request=request)
    cookies = httpx.Cookies(jar)
    cookies.extract_cookies(response)
    assert len(jar) == 0


@override_settings(
    AICD_PROVIDER_BASE_URL="http://127.0.0.1:9",
    AICD_PROVIDER_MODEL="m",
    AICD_PROVIDER_TIMEOUT_S=2.0,
)
def test_an_unexpected_error_is_reported_by_type_only(monkeypatch, caplog) -> None:
    from assistant.domain import lanes
    from assistant.domain.modes import Mode
    from assistant.domain.prompt import ProviderRequest, SourceRef

    def broken(self, *args):
        raise RuntimeError("internal detail sk-leaky-detail")

    monkeypatch.setattr(oc.OpenAICompatibleProvider, "_exchange", broken)
    request = ProviderRequest(
        mode=Mode.PACKAGE_ONLY,
        question="q",
        lane_order=("Package says",),
        package_refs=(SourceRef("P1", lanes.PACKAGE_CITATION, "t", "x"),),
    )
    with pytest.raises(ProviderError) as caught:
        oc.OpenAICompatibleProvider().complete(request)
    assert caught.value.code == "provider_failed"
    assert "sk-leaky" not in caught.value.message and "sk-leaky" not in caplog.text
    assert "RuntimeError" in caplog.text


@override_settings(
    AICD_PROVIDER="openai_compatible",
    AICD_PROVIDER_BASE_URL="http://127.0.0.1:9/v1",
    AICD_PROVIDER_MODEL="m",
)
def test_the_provider_is_built_once_and_rebuilt_when_a_setting_changes(monkeypatch) -> None:
    calls = []
    real = gateway_config.load_config
    monkeypatch.setattr(oc, "load_config", lambda: calls.append(1) or real())
    with override_settings(AICD_PROVIDER_MODEL="first"):
        first = get_provider()
        assert get_provider() is first and len(calls) == 1
    with override_settings(AICD_PROVIDER_MODEL="second"):
        assert get_provider() is not first and len(calls) == 2


@override_settings(AICD_PROVIDER="nope")
def test_an_unknown_provider_names_the_setting() -> None:
    with pytest.raises(ImproperlyConfigured, match="AICD_PROVIDER must be one of"):
        get_provider()
