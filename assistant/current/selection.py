"""Which registry sources a package-supported question selects: its query terms and aliases.

Called only by the current-context adapter, which the pipeline calls only after approved package
support exists. A source is selected when the question names one of its terms; asking for current
context is never by itself a reason to select a source. A record's ``query_aliases`` (registry
data, validated by registry_review) add phrasings its terms do not spell out; the shipped template
gives them to the NIST AI RMF record only.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from registry_review.records import SourceRecord

MAX_SELECTED = 3


@dataclass(frozen=True)
class Selection:
    """A selected source and the terms of the question that selected it."""

    record: SourceRecord
    matched: tuple[str, ...]


@lru_cache(maxsize=256)
def _alias_pattern(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I)


def _term_pattern(term: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in term.split()]
    return re.compile(r"(?<![\w])" + r"[\s\-]+".join(words) + r"(?![\w])", re.I)


def matched_terms(question: str, record: SourceRecord) -> tuple[str, ...]:
    """The record's query terms, then the terms of its aliases, that the question names."""
    flat = " ".join(question.split())
    found = [t for t in record.query_terms if _term_pattern(t).search(flat)]
    found += [a.term for a in record.query_aliases if _alias_pattern(a.pattern).search(flat)]
    return tuple(dict.fromkeys(found))


def select_sources(
    question: str, records: tuple[SourceRecord, ...], *, limit: int = MAX_SELECTED
) -> tuple[Selection, ...]:
    """Up to ``limit`` matching sources, most matched terms first, registry order on ties."""
    scored = []
    for position, record in enumerate(records):
        terms = matched_terms(question, record)
        if terms:
            scored.append((-len(terms), position, Selection(record, terms)))
    scored.sort(key=lambda item: (item[0], item[1]))
    return tuple(item[2] for item in scored[:limit])
