"""Where a lane label may be read: only at the start of a line the provider wrote, never from a source.

A source can contain text shaped like a lane label: an upload titled "Package says: ...", a
package sentence or a current/public snippet starting "Synthesis / implications:". Two rules
keep such text from being read as the answer's structure:

- writers that quote source text at the start of a line (the deterministic provider and the
  structured review) pass it through ``neutralise``, which puts the quoted text in quotation
  marks so no line they write starts with a label unless they meant it;
- the gate reads a label line followed by text (``Package says: ...``) as a label only when that
  line does not start with a label-shaped passage of a source that was sent (``is_source_text``).
"""

from __future__ import annotations

import re

from assistant.domain import lanes

_LABEL_ALTERNATION = "|".join(re.escape(label) for label in lanes.ALL_LABELS)
# The same prefixes the gate's label line admits: heading marks, a list number, bold markers.
LABEL_START_RE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\d{1,2}[.)][ \t]*)?(?:\*\*|__)?[ \t]*(?:"
    + _LABEL_ALTERNATION
    + r")\b",
    re.I,
)
# How much of a label line is compared with the sources sent: enough to identify a title or a
# sentence, short enough that a model's own words after a quoted title do not hide it.
SOURCE_PREFIX_CHARS = 40
_MARKDOWN = re.compile(r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\d{1,2}[.)][ \t]*)?(?:\*\*|__)?[ \t]*")


def starts_with_label(text: str) -> bool:
    """Whether ``text`` (or any of its lines) would start a lane-label line."""
    return any(LABEL_START_RE.match(line) for line in text.splitlines() or [text])


def neutralise(text: str) -> str:
    """Quoted source text made unreadable as a lane label: wrapped in quotation marks if needed."""
    if not starts_with_label(text):
        return text
    return '"' + " ".join(text.split()).replace('"', "'") + '"'


_LABEL_ANYWHERE = re.compile(
    r"(?:" + _LABEL_ALTERNATION + r")[ \t]*(?:\*\*|__)?[ \t]*:[^\n]*", re.I
)


def _flat(text: str) -> str:
    return " ".join(text.replace("**", " ").replace("__", " ").split()).lower()


def source_label_snippets(sent_text: str) -> tuple[str, ...]:
    """Every label-shaped passage of the sources ("Package says: ..." anywhere in a line), flattened
    and cut to ``SOURCE_PREFIX_CHARS``."""
    return tuple(
        dict.fromkeys(
            _flat(m.group(0))[:SOURCE_PREFIX_CHARS] for m in _LABEL_ANYWHERE.finditer(sent_text)
        )
    )


def is_source_text(line: str, snippets: tuple[str, ...]) -> bool:
    """Whether a label-shaped line of the answer starts with a label-shaped passage of a source."""
    head = _flat(_MARKDOWN.sub("", line))[:SOURCE_PREFIX_CHARS]
    return any(
        head.startswith(snippet) or snippet.startswith(head) for snippet in snippets if snippet
    )
