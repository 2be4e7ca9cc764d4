"""The approved package: Markdown artifacts with front matter, parsed into sections and checked."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from django.utils.text import slugify

from assistant.domain.types import PackageRow
from assistant.package import criteria, declared_version
from assistant.package import kinds as section_kinds

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
    kind: str = section_kinds.GUIDANCE


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
    # The front matter as parsed, for conventions read elsewhere (assistant/package/criteria.py).
    meta: dict[str, Any] = field(default_factory=dict, repr=False, compare=False, hash=False)

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
                kind=s.kind,
            )
            for s in self.sections
        ]


@dataclass(frozen=True)
class Package:
    """All artifacts of a package directory, with a content hash that names this version."""

    root: Path
    artifacts: tuple[Artifact, ...]
    version: str
    declared_version: str = ""  # what the package calls itself ("1.4.0"); docs/package-format.md

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
    problems.extend(criteria.problems(artifacts))
    problems.extend(declared_version.problems(artifacts))
    if problems:
        raise PackageError(problems)
    return Package(
        root=root,
        artifacts=tuple(artifacts),
        version=package_version(root),
        declared_version=declared_version.declared(artifacts),
    )


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
    topic_for_kinds = meta.get("topic") or PurePosixPath(source_path).stem
    sections = section_kinds.assign(
        source_path, str(topic_for_kinds), meta.get("section_kinds"), sections, problems
    )
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
        meta=meta,
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
    """Split the body at ``##`` and ``###`` headings (each subsection is a row of its own); text
    before the first ``##`` may only be the title."""
    splitter = _SectionSplitter(source_path, problems)
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if tok.type == "heading_open" and tok.tag in ("h2", "h3"):
            splitter.open_section(tok.tag, _inline_text(tokens[i + 1]))
            i += 3
        elif tok.type == "heading_open" and tok.tag == "h1":
            i += 3
        else:
            splitter.add(tok)
            i += 1
    return splitter.finish()


@dataclass
class _SectionSplitter:
    """One pass over a document's Markdown tokens: the sections so far and the problems found.

    Structure kept in the row text (docs/package-format.md): "- " before a bullet item, "N. "
    before an ordered item, "| a | b |" for each table row (the header row first).
    """

    source_path: str
    problems: list[str]
    sections: list[Section] = field(default_factory=list)
    seen: dict[str, str] = field(default_factory=dict)  # anchor -> the heading that took it
    current: tuple[str, list[str]] | None = None
    lines: list[str] = field(default_factory=list)  # the open section's lines
    cells: list[str] | None = None  # the open table row's cells
    stray_text: bool = False
    lists: list[str] = field(default_factory=list)  # the open lists, innermost last
    item_marker: str | None = None

    def open_section(self, tag: str, heading: str) -> None:
        """A ``##`` or ``###`` heading: the open section ends and this one begins."""
        if self.current is None and tag == "h3":
            self.stray_text = True
        self.close(subsections_follow=tag == "h3" and self.current is not None and not self.lines)
        self.current = (heading, [])
        self.lines = self.current[1]

    def add(self, tok: Token) -> None:
        """Any other token: list and table structure, or text for the open section."""
        if tok.type in ("bullet_list_open", "ordered_list_open"):
            self.lists.append(tok.type)
        elif tok.type in ("bullet_list_close", "ordered_list_close"):
            self.lists.pop()
        elif tok.type == "list_item_open":
            ordered = self.lists and self.lists[-1] == "ordered_list_open"
            self.item_marker = f"{tok.info}. " if ordered else "- "
        elif tok.type == "tr_open":
            self.cells = []
        elif tok.type == "tr_close" and self.cells is not None:
            self.lines.append("| " + " | ".join(self.cells) + " |")
            self.cells = None
        elif tok.type == "inline":
            self._add_text(_inline_text(tok))
        elif tok.type in ("fence", "code_block"):
            self.lines.append(tok.content.strip())

    def _add_text(self, text: str) -> None:
        if self.current is None and text.strip():
            self.stray_text = True
        if self.cells is not None:
            self.cells.append(text)
        elif self.item_marker is not None and text.strip():
            self.lines.append(self.item_marker + text)
            self.item_marker = None
        else:
            self.lines.append(text)

    def close(self, *, subsections_follow: bool = False) -> None:
        """End the open section: a row, unless it is a ``##`` heading whose text is all in the
        ``###`` subsections that follow (then it only claims its anchor)."""
        if self.current is None:
            return
        heading, body = self.current
        text = "\n".join(line for line in body if line.strip())
        if not text and subsections_follow:
            self._claim_anchor(heading, require_anchor=False)
            return
        anchor = self._claim_anchor(heading, require_anchor=True)
        if not text:
            self.problems.append(f"{self.source_path}: section {heading!r} is empty")
        self.sections.append(Section(heading=heading, anchor=anchor, text=text))

    def _claim_anchor(self, heading: str, *, require_anchor: bool) -> str:
        """The heading's anchor, recorded as taken; a problem if it is empty or already taken."""
        anchor = slugify(heading)
        if require_anchor and not anchor:
            self.problems.append(f"{self.source_path}: section {heading!r} has no usable anchor")
        elif anchor in self.seen:
            self.problems.append(
                f"{self.source_path}: duplicate anchor #{anchor} (sections {self.seen[anchor]!r} and {heading!r})"
            )
        self.seen[anchor] = heading
        return anchor

    def finish(self) -> list[Section]:
        """Close the last section; report text before the first section and a missing ``##``."""
        self.close()
        if self.stray_text:
            self.problems.append(
                f"{self.source_path}: text before the first '## ' section is not allowed"
            )
        if not self.sections:
            self.problems.append(f"{self.source_path}: no '## ' sections found")
        return self.sections


def _inline_text(token: Token) -> str:
    """Plain text of an inline token: emphasis and code marks dropped, breaks as spaces."""
    parts: list[str] = []
    for child in token.children or []:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
    return "".join(parts).strip()
