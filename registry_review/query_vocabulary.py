"""A record's query vocabulary: the ``query_terms`` and ``query_aliases`` that select it for a question."""

from __future__ import annotations

import re
from typing import Any

from core.issues import Issue
from registry_review.record_schema import (
    CONTROL_RE,
    MAX_ALIAS_PATTERN_CHARS,
    MAX_QUERY_ALIASES,
    MAX_QUERY_TERM_CHARS,
    MAX_QUERY_TERMS,
)
from registry_review.records import QueryAlias


def query_terms(raw: dict[str, Any], errors: list[Issue], warnings: list[Issue]) -> tuple[str, ...]:
    never = Issue(
        "query_terms",
        "no_query_terms",
        "query_terms is empty or missing, so this source will never be selected for a question.",
    )
    if "query_terms" not in raw or raw["query_terms"] is None:
        warnings.append(never)
        return ()
    value = raw["query_terms"]
    if not isinstance(value, list):
        errors.append(Issue("query_terms", "type", "query_terms must be a list of short strings."))
        return ()
    if len(value) > MAX_QUERY_TERMS:
        errors.append(
            Issue(
                "query_terms",
                "too_many",
                f"query_terms has {len(value)} entries; the limit is {MAX_QUERY_TERMS}.",
            )
        )
        return ()
    terms: list[str] = []
    for i, term in enumerate(value, 1):
        if not isinstance(term, str):
            errors.append(
                Issue(
                    "query_terms",
                    "type",
                    f"query_terms entry {i} must be a string, not {type(term).__name__}.",
                )
            )
            continue
        flat = " ".join(term.split())
        if not flat:
            errors.append(Issue("query_terms", "blank", f"query_terms entry {i} is empty."))
        elif len(flat) > MAX_QUERY_TERM_CHARS:
            errors.append(
                Issue(
                    "query_terms",
                    "too_long",
                    f"query_terms entry {i} is {len(flat)} characters; the limit is {MAX_QUERY_TERM_CHARS}.",
                )
            )
        elif CONTROL_RE.search(term.replace("\n", " ").replace("\t", " ")):
            errors.append(
                Issue(
                    "query_terms",
                    "control_characters",
                    f"query_terms entry {i} contains control characters.",
                )
            )
        elif flat.lower() not in (t.lower() for t in terms):
            terms.append(flat)
    if not terms and not errors:
        warnings.append(never)
    return tuple(terms)


def query_aliases(raw: dict[str, Any], errors: list[Issue]) -> tuple[QueryAlias, ...]:
    """Optional ``query_aliases``: [{"term": ..., "pattern": ...}], each pattern a regex."""
    value = raw.get("query_aliases")
    if value is None:
        return ()
    shape = "query_aliases must be a list of objects with a string term and a string pattern."
    if not isinstance(value, list):
        errors.append(Issue("query_aliases", "type", shape))
        return ()
    if len(value) > MAX_QUERY_ALIASES:
        errors.append(
            Issue(
                "query_aliases",
                "too_many",
                f"query_aliases has {len(value)} entries; the limit is {MAX_QUERY_ALIASES}.",
            )
        )
        return ()
    aliases: list[QueryAlias] = []
    for i, item in enumerate(value, 1):
        problem = _alias_problem(item)
        if problem:
            errors.append(
                Issue("query_aliases", problem[0], f"query_aliases entry {i} {problem[1]}")
            )
        else:
            aliases.append(QueryAlias(" ".join(item["term"].split()), item["pattern"]))
    return tuple(aliases)


def _alias_problem(item: object) -> tuple[str, str] | None:
    """(code, the end of a sentence) for a malformed alias, or None."""
    if (
        not isinstance(item, dict)
        or set(item) != {"term", "pattern"}
        or not isinstance(item["term"], str)
        or not isinstance(item["pattern"], str)
    ):
        return "type", "must be an object with exactly a string term and a string pattern."
    term, pattern = " ".join(item["term"].split()), item["pattern"]
    if not term or not pattern.strip():
        return "blank", "needs a non-empty term and pattern."
    if len(term) > MAX_QUERY_TERM_CHARS or len(pattern) > MAX_ALIAS_PATTERN_CHARS:
        return "too_long", (
            f"is too long; a term may have {MAX_QUERY_TERM_CHARS} characters and a pattern "
            f"{MAX_ALIAS_PATTERN_CHARS}."
        )
    if CONTROL_RE.search(item["term"]) or CONTROL_RE.search(pattern):
        return "control_characters", "contains control characters."
    try:
        re.compile(pattern, re.I)
    except re.error:
        return "bad_pattern", "has a pattern that is not a valid regular expression."
    return None
