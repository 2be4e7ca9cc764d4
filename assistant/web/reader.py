"""Reader pages: package artifacts rendered as HTML with a stable id on every cited section."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from assistant.package.artifacts import Artifact, markdown, parse_artifact
from assistant.retrieval.context_pack import ContextPack
from assistant.web import cited_passage


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
    """The artifact's page; ``cited`` is ``(anchor, used text)`` of a citation to mark in it."""
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
