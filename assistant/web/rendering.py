"""The narrow safe renderer: answer prose becomes escaped paragraphs with citation links, nothing more."""

from __future__ import annotations

import re

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from assistant.domain import lanes
from assistant.verify.answer_check import MARKER_RE

_BULLET = re.compile(r"^[-*•]\s+")
_CLASS_CSS = {"P": "cite-package", "C": "cite-current", "U": "cite-uploaded"}


def _marker_html(match: re.Match[str]) -> str:
    parts = [p.strip().upper() for p in re.split(r"[,;]", match.group(1)) if p.strip()]
    links: list[str] = []
    for cid in parts:
        if not re.fullmatch(r"[PCU]\d{1,3}", cid):
            links.append(str(escape(cid)))
            continue
        css = _CLASS_CSS[cid[0]]
        cls = lanes.CLASS_OF_PREFIX[cid[0]]
        links.append(
            f'<a class="cite {css}" href="#cite-{cid}" title="{escape(cls)} {cid}">{cid}</a>'
        )
    return '<span class="cite-group">[' + ", ".join(links) + "]</span>"


def render_prose(text: str) -> SafeString:
    """Escape everything, then add only paragraphs, bullet lists and citation links.

    The input is provider or package text and is never trusted: no HTML it contains survives.
    Citation markers are matched on the escaped text, so they cannot smuggle markup either.
    """
    blocks = [b for b in re.split(r"\n\s*\n", text.strip()) if b.strip()]
    html: list[str] = []
    for block in blocks:
        lines = [line.strip() for line in block.splitlines() if line.strip()]
        if lines and all(_BULLET.match(line) for line in lines):
            items = "".join(f"<li>{_inline(_BULLET.sub('', line))}</li>" for line in lines)
            html.append(f"<ul>{items}</ul>")
        else:
            html.append(f"<p>{_inline(' '.join(lines))}</p>")
    return mark_safe("".join(html))  # noqa: S308 - every piece above is escaped first


def _inline(text: str) -> str:
    return MARKER_RE.sub(_marker_html, escape(text))
