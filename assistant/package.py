"""The approved package: Markdown artifacts with front matter, parsed into sections and checked."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from django.utils.text import slugify

from assistant.types import PackageRow

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

REQUIRED_METADATA = ("title", "source_family", "source_quality", "claim_boundary")
GLOSSARY_SYNONYM_PREFIX = "Also called:"
MAX_ARTIFACT_BYTES = 2_000_000
_SYNONYM_LINE = re.compile(re.escape(GLOSSARY_SYNONYM_PREFIX) + r"\s*(.+?)\s*(?:\bSee:.*)?$", re.M)


class PackageError(Exception):
    """A broken package: every problem found, each naming its file and what is wrong."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


@lru_cache(maxsize=1)
def _front_matter_loader() -> type:
    """Safe YAML without anchors and aliases: front matter is flat metadata, and aliases let a
    few hundred bytes expand into billions of items when the value is turned into text."""
    # Imported on first parse, like the Markdown parser: serving a built pack never parses YAML.
    import yaml

    class FrontMatterLoader(yaml.SafeLoader):
        def compose_node(self, parent: Any, index: Any) -> Any:
            if self.check_event(yaml.AliasEvent):
                raise yaml.composer.ComposerError(
                    None,
                    None,
                    "aliases are not allowed in front matter",
                    self.peek_event().start_mark,
                )
            return super().compose_node(parent, index)

    return FrontMatterLoader


@lru_cache(maxsize=1)
def markdown() -> MarkdownIt:
    """The one Markdown parser: CommonMark plus tables, raw HTML disabled."""
    # Imported on first parse: serving from a built context pack never parses Markdown.
    from markdown_it import MarkdownIt
    from mdit_py_plugins.front_matter import front_matter_plugin

    return MarkdownIt("commonmark", {"html": False}).use(front_matter_plugin).enable("table")


@dataclass(frozen=True)
class Section:
    heading: str
    anchor: str
    text: str


@dataclass(frozen=True)
class Artifact:
    """One package artifact: metadata, its parsed sections and the Markdown it came from."""

    source_path: str
    title: str
    topic: str
    topic_number: int | None
    source_family: str
    source_quality: str
    claim_boundary: str
    summary: str
    sections: tuple[Section, ...]
    body_markdown: str = field(repr=False)

    @property
    def reader_path(self) -> str:
        return "/html/" + self.source_path

    def rows(self) -> list[PackageRow]:
        return [
            PackageRow(
                row_id=f"{self.topic}#{s.anchor}",
                title=self.title,
                heading=s.heading,
                text=s.text,
                source_path=self.source_path,
                anchor=s.anchor,
                reader_target=f"{self.reader_path}#{s.anchor}",
                source_family=self.source_family,
                source_quality=self.source_quality,
                claim_boundary=self.claim_boundary,
                topic=self.topic,
            )
            for s in self.sections
        ]


@dataclass(frozen=True)
class Package:
    """All artifacts of a package directory, with a content hash that names this version."""

    root: Path
    artifacts: tuple[Artifact, ...]
    version: str

    def rows(self) -> list[PackageRow]:
        return [row for artifact in self.artifacts for row in artifact.rows()]

    def glossary_synonyms(self) -> dict[str, list[str]]:
        """Map each glossary term to the everyday phrasings listed on its `Also called:` line."""
        synonyms: dict[str, list[str]] = {}
        for artifact in self.artifacts:
            if artifact.topic != "glossary":
                continue
            for section in artifact.sections:
                match = _SYNONYM_LINE.search(section.text)
                if match:
                    words = match.group(1).split(";")
                    synonyms[section.heading] = [w.strip() for w in words if w.strip()]
        return synonyms


def package_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.md") if p.is_file() and not p.name.startswith("."))


def package_version(root: Path) -> str:
    """A short content hash over every artifact's path and bytes."""
    digest = hashlib.sha256()
    for path in package_files(root):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()[:12]


def load_package(root: Path) -> Package:
    """Parse every artifact under ``root``; raise PackageError listing every problem found."""
    if not root.is_dir():
        raise PackageError([f"{root}: package directory does not exist"])
    problems: list[str] = []
    artifacts: list[Artifact] = []
    files = package_files(root)
    if not files:
        problems.append(f"{root}: no Markdown artifacts (*.md) found")
    topics: dict[str, str] = {}
    for path in files:
        rel = path.relative_to(root).as_posix()
        try:
            artifact = parse_artifact(rel, path.read_bytes())
        except PackageError as exc:
            problems.extend(exc.problems)
            continue
        if artifact.topic in topics:
            problems.append(
                f"{rel}: topic {artifact.topic!r} is also used by {topics[artifact.topic]}"
            )
        topics[artifact.topic] = rel
        artifacts.append(artifact)
    if problems:
        raise PackageError(problems)
    return Package(root=root, artifacts=tuple(artifacts), version=package_version(root))


def parse_artifact(source_path: str, raw: bytes) -> Artifact:
    """Parse one artifact's bytes; every structural problem is reported, not just the first."""
    problems: list[str] = []
    if len(raw) > MAX_ARTIFACT_BYTES:
        raise PackageError([f"{source_path}: larger than {MAX_ARTIFACT_BYTES} bytes"])
    if PurePosixPath(source_path).suffix != ".md" or ".." in PurePosixPath(source_path).parts:
        raise PackageError([f"{source_path}: artifact paths must be relative *.md files"])
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PackageError(
            [f"{source_path}: not UTF-8 ({exc.reason} at byte {exc.start})"]
        ) from None
    tokens = markdown().parse(text)
    meta = _front_matter(source_path, tokens, problems)
    sections = _sections(source_path, tokens, problems)
    for key in REQUIRED_METADATA:
        value = meta.get(key)
        if not isinstance(value, str) or not value.strip():
            problems.append(f"{source_path}: front matter is missing {key!r}")
    topic = meta.get("topic") or PurePosixPath(source_path).stem
    if not isinstance(topic, str) or slugify(topic) != topic:
        problems.append(f"{source_path}: topic must be a slug (lowercase words and hyphens)")
    topic_number = meta.get("topic_number")
    if topic_number is not None and not isinstance(topic_number, int):
        problems.append(f"{source_path}: topic_number must be an integer")
        topic_number = None
    if problems:
        raise PackageError(problems)
    return Artifact(
        source_path=source_path,
        title=str(meta["title"]).strip(),
        topic=str(topic),
        topic_number=topic_number,
        source_family=str(meta["source_family"]).strip(),
        source_quality=str(meta["source_quality"]).strip(),
        claim_boundary=" ".join(str(meta["claim_boundary"]).split()),
        summary=" ".join(str(meta.get("summary") or "").split()),
        sections=tuple(sections),
        body_markdown=text,
    )


def _front_matter(source_path: str, tokens: list[Token], problems: list[str]) -> dict[str, Any]:
    if not tokens or tokens[0].type != "front_matter":
        problems.append(f"{source_path}: missing front matter (a --- block at the top)")
        return {}
    import yaml

    try:
        meta = yaml.load(tokens[0].content, Loader=_front_matter_loader())  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as exc:
        problems.append(f"{source_path}: front matter is not valid YAML ({exc.__class__.__name__})")
        return {}
    except RecursionError:
        problems.append(f"{source_path}: front matter is nested too deeply")
        return {}
    if not isinstance(meta, dict):
        problems.append(f"{source_path}: front matter must be a mapping of keys to values")
        return {}
    return meta


def _sections(source_path: str, tokens: list[Token], problems: list[str]) -> list[Section]:
    """Split the body at ``##`` headings; text before the first ``##`` may only be the title."""
    bodies, stray_text = _section_lines(tokens)
    sections: list[Section] = []
    seen: dict[str, str] = {}
    for heading, body in bodies:
        text = "\n".join(line for line in body if line.strip())
        anchor = slugify(heading)
        if not anchor:
            problems.append(f"{source_path}: section {heading!r} has no usable anchor")
        elif anchor in seen:
            problems.append(
                f"{source_path}: duplicate anchor #{anchor} (sections {seen[anchor]!r} and {heading!r})"
            )
        if not text:
            problems.append(f"{source_path}: section {heading!r} is empty")
        seen[anchor] = heading
        sections.append(Section(heading=heading, anchor=anchor, text=text))
    if stray_text:
        problems.append(f"{source_path}: text before the first '## ' section is not allowed")
    if not sections:
        problems.append(f"{source_path}: no '## ' sections found")
    return sections


def _section_lines(tokens: list[Token]) -> tuple[list[tuple[str, list[str]]], bool]:
    """One pass over the Markdown tokens: (heading, text lines) per ``##`` section, in order, and
    whether any text stands before the first ``##`` (the ``#`` title is skipped; a table row is
    one line of ``|``-joined cells; a code block is one line)."""
    bodies: list[tuple[str, list[str]]] = []
    lines: list[str] = []  # text before the first section is collected only to be dropped
    cells: list[str] | None = None
    stray_text = False
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open" and tok.tag in ("h1", "h2"):
            if tok.tag == "h2":
                lines = []
                bodies.append((_inline_text(tokens[i + 1]), lines))
            i += 3
            continue
        if tok.type == "tr_open":
            cells = []
        elif tok.type == "tr_close" and cells is not None:
            lines.append(" | ".join(cells))
            cells = None
        elif tok.type == "inline":
            text = _inline_text(tok)
            stray_text = stray_text or (not bodies and bool(text.strip()))
            (lines if cells is None else cells).append(text)
        elif tok.type in ("fence", "code_block"):
            lines.append(tok.content.strip())
        i += 1
    return bodies, stray_text


def _inline_text(token: Token) -> str:
    """Plain text of an inline token: emphasis and code marks dropped, breaks as spaces."""
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts).strip()
