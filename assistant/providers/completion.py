"""Reading a Chat Completions reply: the answer text, the model and token usage, or a named failure."""

from __future__ import annotations

import json
import re

from assistant.providers.base import ProviderError, ProviderResponse

MALFORMED_RESPONSE = "malformed_response"
EMPTY_CHOICES = "empty_choices"
EMPTY_CONTENT = "empty_content"
MODEL_REFUSAL = "model_refusal"
TRUNCATED = "truncated"

_MODEL_NAME_RE = re.compile(r"[\w.:/@+-]{1,128}")
_THINK_RE = re.compile(r"\A\s*<think>.*?</think>\s*", re.S | re.I)


def parse_completion(raw: bytes, *, configured_model: str) -> ProviderResponse:
    """The answer text, model and token usage of a Chat Completions body, or a ProviderError."""
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise ProviderError(
            MALFORMED_RESPONSE, "The provider's reply was not valid JSON."
        ) from None
    if not isinstance(data, dict):
        raise ProviderError(MALFORMED_RESPONSE, "The provider's reply was not a chat completion.")
    choices = data.get("choices")
    if choices is None and "error" in data:
        raise ProviderError(
            MALFORMED_RESPONSE, "The provider replied with an error instead of an answer."
        )
    if not isinstance(choices, list) or not choices:
        raise ProviderError(EMPTY_CHOICES, "The provider's reply contained no answer choices.")
    choice = choices[0]
    message = choice.get("message") if isinstance(choice, dict) else None
    if not isinstance(message, dict):
        raise ProviderError(MALFORMED_RESPONSE, "The provider's reply was not a chat completion.")
    finish = choice.get("finish_reason")
    if finish == "content_filter":
        raise ProviderError(MODEL_REFUSAL, "The model declined to answer (content filter).")
    refusal = message.get("refusal")
    if isinstance(refusal, str) and refusal.strip():
        raise ProviderError(MODEL_REFUSAL, "The model declined to answer (refusal).")
    text = _THINK_RE.sub("", _content_text(message.get("content")))
    if finish == "length":
        raise ProviderError(TRUNCATED, "The answer was cut off at the model's token limit.")
    if not text.strip():
        raise ProviderError(EMPTY_CONTENT, "The provider's answer was empty.")
    usage = data.get("usage")
    usage = usage if isinstance(usage, dict) else {}
    model = data.get("model")
    return ProviderResponse(
        text=text.strip(),
        model=model
        if isinstance(model, str) and _MODEL_NAME_RE.fullmatch(model)
        else configured_model,
        prompt_tokens=_count(usage.get("prompt_tokens")),
        completion_tokens=_count(usage.get("completion_tokens")),
    )


def _content_text(content: object) -> str:
    """``content`` as a string, or the text parts of a list of content parts, joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        texts = [
            part["text"]
            for part in content
            if isinstance(part, dict)
            and part.get("type") in ("text", "output_text")
            and isinstance(part.get("text"), str)
        ]
        return "".join(texts)
    return ""


def _count(value: object) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else None
