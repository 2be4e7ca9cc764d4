"""Reader pages: package artifacts rendered as HTML with a stable id on every cited section."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from django.utils.safestring import SafeString, mark_safe

from assistant.package import links
from assistant.package import options as package_options
from assistant.package.artifacts import Artifact, markdown, parse_artifact
from assistant.retrieval.context_pack import ContextPack
from assistant.web import cited_passage

if TYPE_CHECKING:
    from markdown_it.token import Token


@dataclass(frozen=True)
class ReaderPage:
    artifact: Artifact
    html: SafeString
    package_version: str
    highlighted: int = 0  # how many sentences of the cited section are marked


MARK_ID = "cited-passage"
_NEXT_SECTION = re.compile(r'<h[23][^>]*class="section-heading"')


def highlight(html: str, anchor: str, used: str) -> tuple[str, int]:
    """``html`` with every sentence of section ``anchor`` that ``used`` used wrapped in ``<mark>``.

    ``used`` is what a run took from the citation (its excerpt and the answer text citing it,
    ``cited_passage.used_text``); the section is the text after the anchor's heading, up to the
    next section heading. Sentences are marked whole (``assistant/web/cited_passage.py``).
    """
    start = html.find(f'id="{anchor}"')
    if start < 0 or not used:
        return html, 0
    heading_end = html.find(">", html.find("</h", start)) + 1
    following = _NEXT_SECTION.search(html, heading_end)
    end = following.start() if following else len(html)
    section, marked = cited_passage.mark(html[heading_end:end], used, first_id=MARK_ID)
    return html[:heading_end] + section + html[end:], marked


def find_source_path(pack: ContextPack, source_path: str) -> str | None:
    """Only paths the context pack lists are readable: no traversal, no unlisted files."""
    for artifact in pack.artifacts:
        if artifact["source_path"] == source_path:
            return source_path
    return None


def render_artifact(
    pack: ContextPack, source_path: str, *, cited: tuple[str, str] | None = None
) -> ReaderPage | None:
    """The artifact's page; ``cited`` is ``(anchor, used text)`` of a citation to mark in it.

    Every ``##``/``###`` heading carries the anchor its row has (``Artifact.heading_anchors``),
    text before the first section sits under the overview row's heading, and links to other
    artifacts of the package go to their reader pages (``assistant/package/links.py``).
    """
    listed = find_source_path(pack, source_path)
    if listed is None:
        return None
    root = Path(pack.package_dir)
    options = package_options.read(root, [])
    artifact = parse_artifact(listed, (root / listed).read_bytes(), options=options)
    tokens = [t for t in markdown().parse(artifact.body_markdown) if t.type != "front_matter"]
    anchors = iter(artifact.heading_anchors)
    for i, token in enumerate(tokens):
        if token.type == "heading_open" and token.tag in ("h2", "h3"):
            token.attrSet("id", next(anchors))
            token.attrSet("class", "section-heading")
        elif token.type == "heading_open" and token.tag == "h1":
            # The page template shows the title; drop the duplicate H1 from the body.
            token.hidden = True
            tokens[i + 1].content = ""
            tokens[i + 1].children = []
            tokens[i + 2].hidden = True
    if artifact.overview_anchor:
        tokens = _with_overview_heading(tokens, artifact)
    _link_artifacts(tokens, pack, artifact)
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


def _with_overview_heading(tokens: list[Token], artifact: Artifact) -> list[Token]:
    """``tokens`` with the overview row's heading before the first text that is not the title."""
    from markdown_it.token import Token

    heading = next(s.heading for s in artifact.sections if s.anchor == artifact.overview_anchor)
    at = 0
    while at < len(tokens) and tokens[at].type == "heading_open" and tokens[at].tag == "h1":
        at += 3
    opening = Token("heading_open", "h2", 1, markup="##", block=True)
    opening.attrSet("id", artifact.overview_anchor)
    opening.attrSet("class", "section-heading")
    text = Token("inline", "", 0, content=heading, children=[Token("text", "", 0, content=heading)])
    closing = Token("heading_close", "h2", -1, markup="##", block=True)
    return [*tokens[:at], opening, text, closing, *tokens[at:]]


def _link_artifacts(tokens: list[Token], pack: ContextPack, artifact: Artifact) -> None:
    """Point every link to another artifact at its reader page; a relative link to nothing in
    the package shows as its text only; links with a scheme are left as written."""
    anchors: dict[str, tuple[str, ...]] = {
        a["source_path"]: tuple(s["anchor"] for s in a["sections"]) for a in pack.artifacts
    }
    anchors[artifact.source_path] = (*artifact.heading_anchors, artifact.overview_anchor)
    for token in tokens:
        children = token.children or []
        for i, child in enumerate(children):
            if child.type != "link_open":
                continue
            href = links.reader_href(
                str(child.attrGet("href") or ""), from_path=artifact.source_path, anchors=anchors
            )
            if href is not None:
                child.attrSet("href", href)
                continue
            child.hidden = True
            closing = next(c for c in children[i:] if c.type == "link_close")
            closing.hidden = True
