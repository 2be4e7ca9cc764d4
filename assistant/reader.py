"""Reader pages: package artifacts rendered as HTML with a stable id on every cited section."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from django.utils.safestring import SafeString, mark_safe
from django.utils.text import slugify

from assistant.context_pack import ContextPack
from assistant.package import Artifact, markdown, parse_artifact


@dataclass(frozen=True)
class ReaderPage:
    artifact: Artifact
    html: SafeString
    package_version: str


def find_source_path(pack: ContextPack, source_path: str) -> str | None:
    """Only paths the context pack lists are readable: no traversal, no unlisted files."""
    for artifact in pack.artifacts:
        if artifact["source_path"] == source_path:
            return source_path
    return None


def render_artifact(pack: ContextPack, source_path: str) -> ReaderPage | None:
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
    # markdown-it runs with html=False, so any raw HTML in the artifact was escaped.
    return ReaderPage(artifact=artifact, html=mark_safe(html), package_version=pack.package_version)  # noqa: S308
