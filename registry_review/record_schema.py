"""The registry record's schema: its fields, their limits, the trust labels, and safe snippets."""

from __future__ import annotations

import re

from core.netguard import MAX_URL_CHARS
from core.text import clip

MAX_QUERY_TERMS = 25
MAX_QUERY_TERM_CHARS = 80
MAX_QUERY_ALIASES = 12
MAX_ALIAS_PATTERN_CHARS = 400

TRUST_LABELS = (
    "authoritative",
    "vendor/self-published",
    "community",
    "news",
    "standards",
    "documentation",
    "unknown",
)
REQUIRED_FIELDS = (
    "id",
    "title",
    "url",
    "allowed_origin",
    "allowed_path_prefix",
    "source_type",
    "trust_label",
    "freshness_label",
    "claim_boundary",
)
OPTIONAL_FIELDS = ("query_terms", "query_aliases")
FIELD_MAX_CHARS = {
    "id": 80,
    "title": 200,
    "url": MAX_URL_CHARS,
    "allowed_origin": 300,
    "allowed_path_prefix": 500,
    "source_type": 80,
    "trust_label": 40,
    "freshness_label": 200,
    "claim_boundary": 1000,
}

ID_RE = re.compile(r"^[a-z0-9](?:[a-z0-9._-]{0,78}[a-z0-9])?$")
CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def short(text: str, limit: int = 80) -> str:
    """A submitted value as a message may quote it: control characters blanked, clipped."""
    return clip(CONTROL_RE.sub(" ", text), limit)
