"""Output rails: what never leaves the answer path, whatever the question screen decided.

Independent of the input screen (``assistant.pipeline.policy``): these look only at what a provider wrote
and at the sources it was sent.

- ``scrub``: the configured API key replaced in any provider-derived string (answer text, model
  name, error messages) before it is logged, rendered or returned.
- ``secret_kinds``: text shaped like a secret (the configured key, common key formats of
  gateways and clouds, bearer/basic credentials, PEM private keys, JWTs, long high-entropy
  tokens). An answer carrying one is withheld unless the text is the user's own (quoted from an
  upload, ``assistant.verify.verification``), when it is masked; citation text has them redacted.
- ``approval_grants``: wording that grants, confirms or implies an approval ("approved",
  "signed off", "cleared", "compliant", "go ahead", "no further sign-off", "green light", "yes to
  go-live" ...), unless negated ("not approved", "approves nothing"). A claim carrying one is shown
  only when it is a verbatim quote of a source that was sent.
- ``plain_text``: lane and citation text made inert for any client: Markdown links and images,
  raw HTML, ``javascript:``-style URLs and bidi/zero-width control characters removed.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Sequence

REDACTED = "[redacted]"
CONFIGURED_KEY = "configured api key"

# ------------------------------------------------------------------------------------ secrets
_SECRET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("private key", re.compile(r"-----BEGIN (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----")),
    ("api key", re.compile(r"\bsk-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_]{16,}")),
    ("aws access key", re.compile(r"\b(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA)[0-9A-Z]{16}\b")),
    ("google api key", re.compile(r"\bAIza[0-9A-Za-z_\-]{35}")),
    ("github token", re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{30,})")),
    ("slack token", re.compile(r"\bxox[abposr]-[A-Za-z0-9-]{10,}")),
    ("jwt", re.compile(r"\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}")),
    ("credential header", re.compile(r"\b(?:Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{12,}", re.I)),
    (
        "credential assignment",
        re.compile(
            r"\b(?:api[_-]?key|secret|password|passwd|token|authorization)\s*[:=]\s*['\"]?[^\s'\"]{8,}",
            re.I,
        ),
    ),
)
_LONG_TOKEN = re.compile(r"[A-Za-z0-9+/_=-]{32,}")
# Bits per character above which a 32+ character token with upper, lower and digits is a key.
# Hex digests (at most 4.0) and words joined by hyphens stay below it.
HIGH_ENTROPY_BITS = 4.2


def scrub(text: str, key: str) -> str:
    """``text`` with every occurrence of the configured ``key`` replaced."""
    if not key or key not in text:
        return text
    return text.replace(key, REDACTED)


def _entropy(token: str) -> float:
    counts = Counter(token)
    return -sum(n / len(token) * math.log2(n / len(token)) for n in counts.values())


def _high_entropy(token: str) -> bool:
    classes = (
        any(c.islower() for c in token)
        + any(c.isupper() for c in token)
        + any(c.isdigit() for c in token)
    )
    return classes == 3 and _entropy(token) >= HIGH_ENTROPY_BITS


def secret_spans(text: str, key: str = "") -> list[tuple[str, int, int]]:
    """Every secret-shaped span of ``text``: (kind, start, end)."""
    spans: list[tuple[str, int, int]] = []
    if key:
        spans += [(CONFIGURED_KEY, m.start(), m.end()) for m in re.finditer(re.escape(key), text)]
    for kind, pattern in _SECRET_PATTERNS:
        spans += [(kind, m.start(), m.end()) for m in pattern.finditer(text)]
    spans += [
        ("high-entropy token", m.start(), m.end())
        for m in _LONG_TOKEN.finditer(text)
        if _high_entropy(m.group(0))
    ]
    return spans


def secret_kinds(text: str, key: str = "") -> list[str]:
    """The kinds of secret-shaped text in ``text``, in a stable order, without the text."""
    return sorted({kind for kind, _, _ in secret_spans(text, key)})


def redact_secrets(text: str, key: str = "") -> str:
    """``text`` with every secret-shaped span replaced by ``[redacted]``."""
    return replace_spans(text, secret_spans(text, key), REDACTED)


def replace_spans(text: str, spans: Sequence[tuple[str, int, int]], replacement: str) -> str:
    """``text`` with each of ``spans`` (kind, start, end; overlaps merged) replaced."""
    ordered = sorted(spans, key=lambda s: (s[1], -s[2]))
    if not ordered:
        return text
    out, last = [], 0
    for _, start, end in ordered:
        if start < last:
            start = last
        if start >= end:
            continue
        out.append(text[last:start] + replacement)
        last = end
    return "".join(out) + text[last:]


# ---------------------------------------------------------------------------------- approvals
_NEGATION = re.compile(
    r"\b(?:not|no|never|nor|neither|cannot|without|nothing|none|nobody)\b|n[’']t\b", re.I
)
_GRANT_PATTERNS: tuple[re.Pattern[str], ...] = tuple(
    re.compile(p, re.I)
    for p in (
        # Grants that negation words cannot undo: they are built from them.
        r"\bno (?:further|additional|more|other|separate|extra) (?:sign[- ]?offs?|approvals?|reviews?|"
        r"checks?|gates?)\b",
        r"\bwithout (?:any )?(?:further|additional|more|other|separate|extra) (?:sign[- ]?offs?|approvals?|"
        r"reviews?)\b",
        r"\bnothing (?:else )?(?:stands|is) in the way\b",
    )
)
# Grants that a preceding negation ("not approved", "never cleared") turns into their opposite.
_NEGATABLE_GRANTS = re.compile(
    r"\b(?:"
    r"approv(?:ed|es|e|ing)\b"
    r"(?!\s+(?:package|packages|playbook|sources?|corpus|guidance|artifacts?|template|glossary|content|"
    r"material|rows?|sections?|nothing|none|no)\b)"
    r"|sign(?:ed|s)[- ]off\b"
    r"|green[- ]?light(?:ed|s)?\b"
    r"|go[- ]ahead\b"
    r"|good to go\b"
    r"|cleared (?:for|to)\b"
    r"|(?<!non-)(?<!non )compliant\b"
    r"|(?:is|are|been|now|fully) (?:certified|authori[sz]ed|accepted|sanctioned)\b"
    r"|(?:yes|ok|okay)[, ]+(?:to|for) (?:the )?(?:go[- ]live|production|launch|deployment|rollout)\b"
    r"|(?:safe|ready|free|fine) to (?:deploy|launch|proceed|go live|ship)\b"
    r"|(?:you|we|they|the team) (?:can|may) (?:now )?(?:proceed|deploy|go live|launch|ship)\b"
    r")",
    re.I,
)
# Words between a negation and a grant that keep the negation attached to it.
NEGATION_WINDOW_WORDS = 4
# Passive requirements are not grants: "must be approved by", "needs approval", "is approved by".
_REQUIREMENT_BEFORE = re.compile(
    r"\b(?:must|shall|should|needs?|has to|have to|requires?|required|requiring|to be|to|until|before|"
    r"unless|whether|who|which|what|if|once|when|after|awaiting|pending|seek|obtain|get)\s+"
    r"(?:\w+\s+){0,2}$",
    re.I,
)


def _negated(before: str) -> bool:
    clause = re.split(r"[.;:!?]|\b(?:but|however|although)\b", before)[-1]
    tail = clause.split()[-NEGATION_WINDOW_WORDS:]
    return bool(_NEGATION.search(" ".join(tail)))


def approval_grants(text: str) -> list[str]:
    """The approval-granting phrases of ``text`` (lowercased), negated and requirement uses excepted."""
    found = [m.group(0).lower() for p in _GRANT_PATTERNS for m in p.finditer(text)]
    for m in _NEGATABLE_GRANTS.finditer(text):
        before = text[: m.start()]
        if _negated(before) or _REQUIREMENT_BEFORE.search(before):
            continue
        found.append(m.group(0).lower())
    return found


# --------------------------------------------------------------------------------- plain text
# Bidi embeddings, overrides and isolates, directional marks, zero-width characters, BOM.
BIDI_AND_INVISIBLE = re.compile("[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]")
_MD_IMAGE = re.compile(r"!\[([^\[\]\n]*)\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)")
_MD_LINK = re.compile(r"\[([^\[\]\n]*)\]\([^()\n]*(?:\([^()\n]*\)[^()\n]*)*\)")
_MD_REFERENCE = re.compile(r"^[ \t]*\[[^\[\]\n]+\]:[ \t]*\S+.*$", re.M)
_AUTOLINK = re.compile(r"<((?:[a-z][a-z0-9+.-]*):[^<>\s]*)>", re.I)
_HTML_COMMENT = re.compile(r"<!--.*?(?:-->|$)", re.S)
_HTML_BLOCK = re.compile(
    r"<(script|style|iframe|object|embed|svg|math|template)\b.*?(?:</\1\s*>|$)", re.I | re.S
)
_HTML_TAG = re.compile(
    r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|</?[A-Za-z][A-Za-z0-9-]*(?=\s[^<>]*$)"
)
_ACTIVE_URL = re.compile(
    r"\b(?:(?:javascript|vbscript|livescript)\s*:|data:[a-z]+/[a-z0-9.+-]+[;,])[^\s)\]>\"']*", re.I
)
LINK_REMOVED = "(link removed)"


def plain_text(text: str) -> str:
    """``text`` with nothing a Markdown or HTML client would make active.

    Link text is kept without its target, an image by its alt text only, HTML tags (and the
    content of script-like elements) are removed, ``javascript:``/``data:`` URLs are replaced,
    and bidi/zero-width control characters are dropped. Citation markers are untouched.
    """
    text = BIDI_AND_INVISIBLE.sub("", text)
    text = _HTML_COMMENT.sub("", text)
    text = _HTML_BLOCK.sub("", text)
    text = _MD_IMAGE.sub(lambda m: m.group(1), text)
    text = _MD_LINK.sub(
        lambda m: f"[{m.group(1)}]" if re.fullmatch(r"[PCU]\d{1,4}", m.group(1)) else m.group(1),
        text,
    )
    text = _MD_REFERENCE.sub("", text)
    text = _AUTOLINK.sub(lambda m: m.group(1), text)
    text = _HTML_TAG.sub("", text)
    return _ACTIVE_URL.sub(LINK_REMOVED, text)
