"""Reader pages: package artifacts rendered as HTML with a stable id on every cited section."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from assistant.package.artifacts import Artifact, markdown, parse_artifact
from assistant.retrieval.context_pack import ContextPack


@dataclass(frozen=True)
class ReaderPage:
    artifact: Artifact
    html: SafeString
    package_version: str
    highlighted: int = 0  # how many passages of the cited excerpt are marked


MIN_MARK_WORDS = 4
MARK_ID = "cited-passage"
_PIECE = re.compile(r"(?<=[.!?;:])\s+|\s+(?:[-*•]|\d{1,3}[.)])\s+")
_NEXT_SECTION = re.compile(r'<h[23][^>]*class="section-heading"')


def _html_text(word: str) -> str:
    """A word as markdown-it writes it in HTML text (it escapes these four)."""
    return (
        word.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")
    )


def _pieces(excerpt: str) -> list[str]:
    """The excerpt as the sentences and list items it is made of, the clipping mark dropped."""
    text = excerpt.removesuffix("…")
    return [p for p in _PIECE.split(text) if len(p.split()) >= MIN_MARK_WORDS]


def highlight(html: str, anchor: str, excerpt: str) -> tuple[str, int]:
    """``html`` with each sentence of ``excerpt`` found in section ``anchor`` wrapped in ``<mark>``.

    Only text the page itself already holds is wrapped (a sentence matches only where no tag
    interrupts it), and the one element added is fixed markup: nothing of the request is written.
    """
    start = html.find(f'id="{anchor}"')
    if start < 0 or not excerpt:
        return html, 0
    following = _NEXT_SECTION.search(html, start + 1)
    end = following.start() if following else len(html)
    section = html[start:end]
    marked = 0
    for piece in _pieces(excerpt):
        pattern = r"\s+".join(re.escape(_html_text(w)) for w in piece.split())
        found = re.search(pattern, section)
        if found is None or "<mark" in section[found.start() : found.end()]:
            continue
        mark_id = f' id="{MARK_ID}"' if not marked else ""
        opening = f'<mark class="cited"{mark_id}>'
        section = (
            section[: found.start()] + opening + found.group(0) + "</mark>" + section[found.end() :]
        )
        marked += 1
    return html[:start] + section + html[end:], marked


def find_source_path(pack: ContextPack, source_path: str) -> str | None:
    """Only paths the context pack lists are readable: no traversal, no unlisted files."""
    for artifact in pack.artifacts:
        if artifact["source_path"] == source_path:
            return source_path
    return None


def render_artifact(
    pack: ContextPack, source_path: str, *, cited: tuple[str, str] | None = None
) -> ReaderPage | None:
    """The artifact's page; ``cited`` is ``(anchor, excerpt)`` of a citation to mark in it."""
    listed = find_source_path(pack, source_path)
    if listed is None:
        return None
    path = Path(pack.package_dir) / listed
    artifact = parse_artifact(listed, path.read_bytes())
    tokens = markdown().parse(artifact.body_markdown)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            anchor = slugify(tokens[i + 1].content)
            token.attrSet("id", anchor)
            token.attrSet("class", "section-heading")
        elif token.type == "heading_open" and token.tag == "h1":
            # The page template shows the title; drop the duplicate H1 from the body.
            token.hidden = True
            tokens[i + 1].content = ""
            tokens[i + 1].children = []
            tokens[i + 2].hidden = True
    tokens = [t for t in tokens if t.type != "front_matter"]
    html = markdown().renderer.render(tokens, markdown().options, {})
    marked = 0
    if cited is not None:
        html, marked = highlight(html, *cited)
    # markdown-it runs with html=False, so any raw HTML in the artifact was escaped.
    return ReaderPage(
        artifact=artifact,
        html=mark_safe(html),  # noqa: S308
        package_version=pack.package_version,
        highlighted=marked,
    )
