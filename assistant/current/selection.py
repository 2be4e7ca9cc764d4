"""Which registry sources a package-supported question selects: query terms, plus NIST's alias map.

Called only by the current-context adapter, which the pipeline calls only after approved package
support exists. A source is selected when the question names one of its terms; asking for current
context is never by itself a reason to select a source.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from registry_review.records import SourceRecord

MAX_SELECTED = 3
NIST_SOURCE_ID = "nist-ai-rmf-public-framework-candidate"

# Source-id-scoped aliases (seed: "Package + Current NIST routing fix V01"). They apply to the one
# NIST record only, and only add phrasings people naturally use for it.
NIST_ALIASES: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("NIST", re.compile(r"\bnist\b", re.I)),
    ("NIST principles", re.compile(r"\bnist(?:'s)?\s+principles?\b", re.I)),
    ("NIST AI RMF", re.compile(r"\bnist\s+ai\s*[- ]?\s*rmf\b", re.I)),
    ("AI RMF", re.compile(r"\bai\s*[- ]?\s*rmf\b", re.I)),
    ("AI Risk Management Framework", re.compile(r"\bai\s+risk[- ]management\s+framework\b", re.I)),
    (
        "risk management framework expectations",
        re.compile(
            r"\b(?:risk[- ]management|(?:ai\s+)?governance)\s+frameworks?\b.{0,80}?"
            r"\b(?:expect\w*|require\w*|recommend\w*|say|says|principles?|call\s+for|guidance)\b"
            r"|\b(?:expect\w*|require\w*|recommend\w*|principles?)\b.{0,80}?"
            r"\b(?:risk[- ]management|(?:ai\s+)?governance)\s+frameworks?\b",
            re.I,
        ),
    ),
)


@dataclass(frozen=True)
class Selection:
    """A selected source and the terms of the question that selected it."""

    record: SourceRecord
    matched: tuple[str, ...]


def _term_pattern(term: str) -> re.Pattern[str]:
    words = [re.escape(w) for w in term.split()]
    return re.compile(r"(?<![\w])" + r"[\s\-]+".join(words) + r"(?![\w])", re.I)


def matched_terms(question: str, record: SourceRecord) -> tuple[str, ...]:
    """The registry terms (and, for the NIST record, aliases) that the question names."""
    flat = " ".join(question.split())
    found = [t for t in record.query_terms if _term_pattern(t).search(flat)]
    if record.id == NIST_SOURCE_ID:
        found += [name for name, pattern in NIST_ALIASES if pattern.search(flat)]
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
