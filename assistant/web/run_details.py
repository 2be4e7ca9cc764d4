"""A run's telemetry as the rows a reviewer reads behind "Run details"."""

from __future__ import annotations

import re
from typing import Any

from assistant.domain.modes import MODE_DISPLAY_NAMES, Mode

# "(AICD_SOME_SETTING)" or "(AICD_SOME_SETTING=value)" in an operator-facing detail string.
_SETTING_NAME = re.compile(r"\s*\(AICD_[A-Z0-9_]+(?:=[^)]*)?\)")


def without_setting_names(text: str) -> str:
    """Operator detail as a reviewer reads it: the API's text with setting names taken out."""
    return _SETTING_NAME.sub("", text)


BEHAVIOR_WORDS: dict[str, str] = {
    "package_only": "Answered from the approved package only",
    "retrieval_skipped": "Current/public retrieval not used",
    "current_retrieval": "Current/public retrieval attempted",
    "provider_called": "Answer provider called",
    "provider_skipped": "Answer provider not called",
    "deterministic_refusal": "Refused by the screening step, before any provider call",
}

LATENCY_WORDS = {
    "total": "Total",
    "screening": "Screening",
    "retrieval": "Package search",
    "current_retrieval": "Current/public retrieval",
    "provider": "Answer provider",
}

TOKEN_WORDS = {
    "package_context_tokens": "Package sources",
    "uploaded_session_source_tokens": "Uploaded sources",
    "current_public_source_tokens": "Current/public sources",
    "user_prompt_tokens": "Question",
    "system_instruction_tokens": "Instructions",
    "completion_tokens": "Answer",
    "total_tokens": "Total",
}


def _pairs(values: dict[str, Any] | None, words: dict[str, str], unit: str) -> list[str]:
    out = []
    for key, value in (values or {}).items():
        if value in (0, 0.0, None) and key != "total":
            continue
        out.append(f"{words.get(key, key.replace('_', ' ').capitalize())}: {value}{unit}")
    return out


def _screening(body: dict[str, Any]) -> str:
    screening = body["telemetry"].get("screening") or {}
    decided = str(screening.get("decided_by", ""))
    refusal = body.get("refusal")
    outcome = "refused the question" if refusal else "let the question through"
    if decided.startswith("rule:"):
        how = f"A fixed rule ({decided.removeprefix('rule:').replace('_', ' ')})"
    elif decided:
        how = "The screening model"
    else:
        return ""
    coverage = screening.get("coverage_check")
    text = f"{how} {outcome}."
    if coverage == "applied":
        text += " The package's coverage of the question was checked."
    elif coverage:
        text += " The package's review criteria answer a review of the selected drafts."
    return text


def run_details(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The run's telemetry as (label, text) rows a reviewer can read; shown behind "Run details"."""
    t = body["telemetry"]
    rows: list[tuple[str, str]] = [("Run reference", body["run_id"])]
    rows.append(("Mode", MODE_DISPLAY_NAMES[Mode(body["mode"])]))
    screening = _screening(body)
    if screening:
        rows.append(("Screening decision", screening))
    rows.append(("What happened", "; ".join(BEHAVIOR_WORDS.get(b, b) for b in t["behaviors"])))
    current = body["current_context"]
    rows.append(("Current/public context", without_setting_names(current["detail"])))
    rows.append(("Answer provider", f"{t['provider']} / {t['model']}"))
    rows.append(("Tokens", ", ".join(_pairs(t.get("tokens"), TOKEN_WORDS, "")) or "none"))
    cost = t.get("estimated_cost")
    if cost:
        rows.append(("Estimated cost", ", ".join(_pairs(cost, {}, ""))))
    else:
        rows.append(("Estimated cost", "Not estimated: no token prices are configured."))
    counts = t.get("citation_class_counts") or {}
    rows.append(("Citations", ", ".join(f"{k}s: {v}" for k, v in counts.items() if v) or "none"))
    rows.append(("Time taken", ", ".join(_pairs(t.get("latency_ms"), LATENCY_WORDS, " ms"))))
    rows.append(
        (
            "Kept after this page",
            "Only in this session's history, until you clear it or sign out; never in the "
            "database or logs (durable logging is not enabled).",
        )
    )
    return rows
