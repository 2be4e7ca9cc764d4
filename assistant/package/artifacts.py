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
from assistant.package import checklist_criteria, declared_version, safe_yaml
from assistant.package import kinds as section_kinds
from assistant.package import options as package_options
from assistant.package.anchors import PageAnchors, slug

if TYPE_CHECKING:
    from markdown_it import MarkdownIt
    from markdown_it.token import Token

REQUIRED_METADATA = ("title", "source_family", "source_quality", "claim_boundary")
# The overview row's heading: the first of these no heading of the page already slugs to.
OVERVIEW_HEADINGS = ("Overview", "Introduction", "About this page")
# Warned about by --check (they load, but read badly).
LONG_SECTION_WORDS = 1500
LONG_ANCHOR_CHARS = 100
# A heading left as a template's placeholder: "{{ title }}", "<Section name>", "[Heading]",
# "TODO", "TBD", "Lorem ipsum".
_PLACEHOLDER = re.compile(
    r"\{\{|\}\}|\{%|^\s*<[^>]*>\s*$|^\s*\[[^\]]*\]\s*$|^\s*(?:todo|tbd|fixme|xxx)\b|lorem ipsum",
    re.I,
)
GLOSSARY_SYNONYM_PREFIX = "Also called:"
MAX_ARTIFACT_BYTES = 2_000_000
_SYNONYM_LINE = re.compile(re.escape(GLOSSARY_SYNONYM_PREFIX) + r"\s*(.+?)\s*(?:\bSee:.*)?$", re.M)


class PackageError(Exception):
    """A broken package: every problem found, each naming its file and what is wrong (and the
    warnings found on the way, for the report)."""

    def __init__(self, problems: list[str], warnings: list[str] | None = None):
        self.problems = problems
        self.warnings = warnings or []
        super().__init__("; ".join(problems))


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
    # The anchor of every ``##``/``###`` heading in document order (the reader's ids), and the
    # overview row's anchor when text comes before the first section ("" otherwise).
    heading_anchors: tuple[str, ...] = field(default=(), repr=False, compare=False)
    overview_anchor: str = ""
    # What will read badly but loads (``build_context_pack --check`` lists them).
    warnings: tuple[str, ...] = field(default=(), repr=False, compare=False)

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

    @property
    def warnings(self) -> list[str]:
        return [w for artifact in self.artifacts for w in artifact.warnings]

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


def package_inputs(root: Path) -> list[Path]:
    """Every file a build reads: the artifacts, then ``package.yaml`` when there is one."""
    options_path = root / package_options.OPTIONS_FILE
    return package_files(root) + ([options_path] if options_path.is_file() else [])


def package_version(root: Path) -> str:
    """A short content hash over every input's path and bytes (a package without
    ``package.yaml`` hashes its artifacts alone)."""
    digest = hashlib.sha256()
    for path in package_inputs(root):
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
    warnings: list[str] = []
    artifacts: list[Artifact] = []
    options = package_options.read(root, problems)
    files = package_files(root)
    if not files:
        problems.append(f"{root}: no Markdown artifacts (*.md) found")
    topics: dict[str, str] = {}
    for path in files:
        rel = path.relative_to(root).as_posix()
        try:
            artifact = parse_artifact(rel, path.read_bytes(), options=options)
        except PackageError as exc:
            problems.extend(exc.problems)
            warnings.extend(exc.warnings)
            continue
        if artifact.topic in topics:
            problems.append(
                f"{rel}: topic {artifact.topic!r} is also used by {topics[artifact.topic]}"
            )
        topics[artifact.topic] = rel
        artifacts.append(artifact)
    problems.extend(checklist_criteria.problems(artifacts))
    problems.extend(declared_version.problems(artifacts))
    if problems:
        raise PackageError(problems, warnings + [w for a in artifacts for w in a.warnings])
    return Package(
        root=root,
        artifacts=tuple(artifacts),
        version=package_version(root),
        declared_version=declared_version.declared(artifacts),
    )


def parse_artifact(
    source_path: str, raw: bytes, *, options: package_options.PackageOptions | None = None
) -> Artifact:
    """Parse one artifact's bytes; every structural problem is reported, not just the first.

    ``options`` are the package's ``package.yaml`` (front-matter defaults, heading-only
    sections); what loads but will read badly is kept in ``Artifact.warnings``.
    """
    options = options or package_options.PackageOptions()
    problems: list[str] = []
    warnings: list[str] = []
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
    layout = _layout(source_path, tokens, warnings)
    splitter = _SectionSplitter(
        source_path,
        problems,
        warnings,
        layout=layout,
        parent_rows=options.heading_only_sections == "row",
    )
    sections = splitter.split(tokens)
    topic = meta.get("topic") or default_topic(source_path)
    sections = section_kinds.assign(
        source_path, str(topic), meta.get("section_kinds"), sections, problems
    )
    values = _metadata(source_path, meta, layout.title, options, problems)
    if not isinstance(topic, str) or slugify(topic) != topic:
        problems.append(f"{source_path}: topic must be a slug (lowercase words and hyphens)")
    topic_number = meta.get("topic_number")
    if topic_number is not None and not isinstance(topic_number, int):
        problems.append(f"{source_path}: topic_number must be an integer")
        topic_number = None
    if problems:
        raise PackageError(problems, warnings)
    return Artifact(
        source_path=source_path,
        title=values["title"].strip(),
        topic=str(topic),
        topic_number=topic_number,
        source_family=values["source_family"].strip(),
        source_quality=values["source_quality"].strip(),
        claim_boundary=" ".join(values["claim_boundary"].split()),
        summary=" ".join(str(meta.get("summary") or "").split()),
        sections=tuple(sections),
        body_markdown=text,
        meta=meta,
        heading_anchors=layout.anchors,
        overview_anchor=splitter.overview_anchor,
        warnings=tuple(warnings),
    )


def default_topic(source_path: str) -> str:
    """An artifact's topic when its front matter names none: its path without ``.md``, as a
    slug (``lifecycle.md`` -> ``lifecycle``, ``guides/Getting_Started.md`` ->
    ``guides-getting_started``)."""
    stem = PurePosixPath(source_path).with_suffix("").as_posix()
    return slugify(stem.replace("/", "-"))


def title_from_path(source_path: str) -> str:
    """A readable title from the file name, for a page with neither front matter title nor
    ``#`` heading (``getting-started.md`` -> ``Getting started``)."""
    words = re.sub(r"[-_]+", " ", PurePosixPath(source_path).stem).strip()
    return words[:1].upper() + words[1:] if words else source_path


def _metadata(
    source_path: str,
    meta: dict[str, Any],
    h1_title: str,
    options: package_options.PackageOptions,
    problems: list[str],
) -> dict[str, str]:
    """The required metadata: the front matter's, else the package defaults (and for the title,
    the page's ``#`` heading, else its file name); a problem names each value nothing gives."""
    values: dict[str, str] = {}
    for key in REQUIRED_METADATA:
        value = meta.get(key)
        if value is None and key == "title":
            value = h1_title or title_from_path(source_path)
        elif value is None:
            value = options.defaults.get(key)
        if not isinstance(value, str) or not value.strip():
            where = (
                "" if key == "title" else f" (and {package_options.OPTIONS_FILE} gives no default)"
            )
            problems.append(f"{source_path}: front matter is missing {key!r}{where}")
            value = ""
        values[key] = value
    return values


def _front_matter(source_path: str, tokens: list[Token], problems: list[str]) -> dict[str, Any]:
    """The front matter as a mapping; a page without any has none (``{}``)."""
    if not tokens or tokens[0].type != "front_matter":
        return {}
    import yaml

    try:
        meta = safe_yaml.load(tokens[0].content)
    except yaml.YAMLError as exc:
        problems.append(f"{source_path}: front matter is not valid YAML ({exc.__class__.__name__})")
        return {}
    except RecursionError:
        problems.append(f"{source_path}: front matter is nested too deeply")
        return {}
    if meta is None:
        return {}
    if not isinstance(meta, dict):
        problems.append(f"{source_path}: front matter must be a mapping of keys to values")
        return {}
    return meta


@dataclass(frozen=True)
class _Layout:
    """A page's headings read once: its first ``#`` title, every ``##``/``###`` anchor in
    document order (duplicates renamed ``-1``, ``-2``) and the overview row's heading."""

    title: str
    anchors: tuple[str, ...]
    overview_heading: str
    overview_anchor: str


def _layout(source_path: str, tokens: list[Token], warnings: list[str]) -> _Layout:
    title = ""
    headings: list[str] = []
    for i, tok in enumerate(tokens):
        if tok.type != "heading_open":
            continue
        if tok.tag == "h1" and not title:
            title = _inline_text(tokens[i + 1])
        elif tok.tag in ("h2", "h3"):
            headings.append(_inline_text(tokens[i + 1]))
    page = PageAnchors()
    anchors = []
    for heading in headings:
        anchor = page.claim(heading)
        if anchor != slug(heading):
            warnings.append(
                f"{source_path}: duplicate heading {heading!r} is anchored #{anchor} "
                f"(#{slug(heading)} is taken by {page.taken[slug(heading)]!r})"
            )
        if len(anchor) > LONG_ANCHOR_CHARS:
            warnings.append(
                f"{source_path}: heading {heading!r} gives a {len(anchor)}-character anchor"
            )
        if _PLACEHOLDER.search(heading):
            warnings.append(f"{source_path}: heading {heading!r} looks like a template placeholder")
        anchors.append(anchor)
    bases = {slug(h) for h in headings}
    overview = next((h for h in OVERVIEW_HEADINGS if slug(h) not in bases), OVERVIEW_HEADINGS[0])
    return _Layout(
        title=title,
        anchors=tuple(anchors),
        overview_heading=overview,
        overview_anchor=page.claim(overview),
    )


@dataclass
class _Open:
    """The section being read: its heading, anchor, level (1 for the overview) and lines."""

    heading: str
    anchor: str
    level: int
    lines: list[str] = field(default_factory=list)


@dataclass
class _Parent:
    """A ``##`` with no text of its own: where its row goes and the subsections it holds."""

    heading: str
    anchor: str
    position: int
    parts: list[str] = field(default_factory=list)


@dataclass
class _SectionSplitter:
    """One pass over a document's Markdown tokens: the sections so far and the problems found.

    Structure kept in the row text (docs/package-format.md): "- " before a bullet item, "N. "
    before an ordered item, "| a | b |" for each table row (the header row first). ``####`` and
    deeper headings are lines of their section's text.
    """

    source_path: str
    problems: list[str]
    warnings: list[str]
    layout: _Layout
    parent_rows: bool = True
    sections: list[Section] = field(default_factory=list)
    current: _Open | None = None
    parent: _Parent | None = None
    overview_anchor: str = ""
    cells: list[str] | None = None  # the open table row's cells
    lists: list[str] = field(default_factory=list)  # the open lists, innermost last
    item_marker: str | None = None

    @property
    def lines(self) -> list[str]:
        assert self.current is not None  # noqa: S101 - split() opens the overview first
        return self.current.lines

    def split(self, tokens: list[Token]) -> list[Section]:
        """Split the body at ``##`` and ``###`` headings (each subsection is a row of its own);
        text before the first of them is the overview row."""
        layout = self.layout
        self.current = _Open(layout.overview_heading, layout.overview_anchor, level=1)
        anchors = iter(layout.anchors)
        i = 0
        while i < len(tokens):
            tok = tokens[i]
            if tok.type == "heading_open" and tok.tag in ("h2", "h3"):
                self.open_section(int(tok.tag[1]), _inline_text(tokens[i + 1]), next(anchors))
                i += 3
            elif tok.type == "heading_open" and tok.tag == "h1":
                i += 3
            else:
                self.add(tok)
                i += 1
        return self.finish()

    def open_section(self, level: int, heading: str, anchor: str) -> None:
        """A ``##`` or ``###`` heading: the open section ends and this one begins."""
        self.close(subsections_follow=level == 3)
        if level == 2:
            self._end_parent()
        self.current = _Open(heading, anchor, level)

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
        if self.cells is not None:
            self.cells.append(text)
        elif self.item_marker is not None and text.strip():
            self.lines.append(self.item_marker + text)
            self.item_marker = None
        else:
            self.lines.append(text)

    def close(self, *, subsections_follow: bool = False) -> None:
        """End the open section: a row if it has text. A ``##`` with none whose subsections
        follow is a parent (its row, naming them, is written when the next ``##`` comes)."""
        current = self.current
        if current is None:
            return
        self.current = None
        text = "\n".join(line for line in current.lines if line.strip())
        if current.level == 1:
            if text:
                self.overview_anchor = current.anchor
                self.sections.append(Section(current.heading, current.anchor, text))
                self.warnings.append(
                    f"{self.source_path}: the text before the first section is the row "
                    f"{current.heading!r} (#{current.anchor})"
                )
            return
        if not text and subsections_follow and current.level == 2:
            self.parent = _Parent(current.heading, current.anchor, len(self.sections))
            return
        if not text:
            self.warnings.append(
                f"{self.source_path}: section {current.heading!r} is empty (no row; its heading "
                "shows on the reader page only)"
            )
            return
        if self.parent is not None and current.level == 3:
            self.parent.parts.append(current.heading)
        words = len(text.split())
        if words > LONG_SECTION_WORDS:
            self.warnings.append(
                f"{self.source_path}: section {current.heading!r} is {words} words long "
                "(answers quote a few of its sentences; it may read better split)"
            )
        self.sections.append(Section(current.heading, current.anchor, text))

    def _end_parent(self) -> None:
        """The open parent's row, naming its subsections (docs/package-format.md)."""
        parent, self.parent = self.parent, None
        if parent is None:
            return
        if not parent.parts:
            self.warnings.append(
                f"{self.source_path}: section {parent.heading!r} is empty (no row; its "
                "subsections have no text either)"
            )
            return
        if not self.parent_rows:
            return
        names = parent.parts
        phrase = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
        noun = "part" if len(names) == 1 else "parts"
        text = f"This section has {len(names)} {noun}: {phrase}."
        self.sections.insert(parent.position, Section(parent.heading, parent.anchor, text))
        self.warnings.append(
            f"{self.source_path}: section {parent.heading!r} has no text of its own; its row "
            f"names its {len(names)} {noun}"
        )

    def finish(self) -> list[Section]:
        """Close the last section; a page with no text at all is a problem."""
        self.close()
        self._end_parent()
        if not self.sections:
            self.problems.append(f"{self.source_path}: no text to cite (no section has text)")
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
