"""Convert a public documentation repository, pinned at a commit, into a package directory.

Each source in ``sources.json`` names a repository, a 40-hex commit, its licence, the pages to
include (glob patterns, in reading order) and to exclude, and converter options. The pages are
read from a git mirror with ``git show <commit>:<path>`` (no work tree is needed), cleaned of site
markup and restructured into the package format (docs/package-format.md):

- front matter from the source is dropped; new front matter names the title (the page's H1, else
  its own ``title``, else the file name), the source family (the page's folder), the source
  quality and a claim boundary naming the repository and commit;
- text between the title and the first ``##`` becomes an ``Overview`` section; headings are
  shifted so the page's top level is ``##``; ``####`` and deeper become bold lines in their
  ``###`` section; a ``##`` holding only subsections gets a line naming them; empty headings go;
  headings are made unique by anchor within the page;
- images, raw HTML tags, HTML comments and generator directives are dropped; relative links keep
  their text; lists, tables and code stay Markdown;
- pages that are mostly links (navigation) or too short are skipped, as are changelogs,
  contributor guides, licences and translations named by the exclude patterns.

The same commit and options always give byte-identical output.

Usage::

    python -m learning.package_sources.convert SLUG --mirror PATH --out data/packages/SLUG
    python -m learning.package_sources.convert --all --mirror-root /work/.mirror
"""

from __future__ import annotations

import argparse
import fnmatch
import json
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path, PurePosixPath
from typing import Any

import yaml
from django.utils.text import slugify

from learning.package_sources.markdown_render import (
    Content,
    Heading,
    RenderStats,
    parser,
    plain_inline,
    render_document,
)

SOURCES_PATH = Path(__file__).with_name("sources.json")
DEFAULT_OUT_ROOT = Path("data/packages")
MANIFEST_NAME = "MANIFEST.json"
CONVERTED_BY = "learning.package_sources.convert"
SOURCE_QUALITY = "public guidance (converted)"
PAGE_SUFFIXES = (".html.md.erb", ".html.md", ".md.erb", ".markdown", ".md", ".Rmd", ".qmd")
INDEX_STEMS = frozenset({"index", "_index", "readme", "home"})
# Pages no package should carry, whatever the source's own exclude patterns say.
ALWAYS_EXCLUDED = (
    "*CHANGELOG*",
    "*CHANGES*",
    "*CONTRIBUTING*",
    "*CODE_OF_CONDUCT*",
    "*LICENSE*",
    "*LICENCE*",
    "*/.github/*",
    ".github/*",
)
_FRONT_MATTER = re.compile(r"\A---[ \t]*\n(.*?\n)?(?:---|\.\.\.)[ \t]*(?:\n|\Z)", re.S)
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-Z0-9\"'(])")
_OVERVIEW_NAMES = ("Overview", "Introduction", "About this page")


class ConvertError(Exception):
    """A source that cannot be converted as configured (missing commit, path or licence)."""


@dataclass(frozen=True)
class Source:
    """One entry of sources.json: where a package comes from and how it is converted."""

    slug: str
    title: str
    field: str
    repo: str
    commit: str
    licence: str
    licence_file: str | None
    root: str
    include: tuple[str, ...]
    exclude: tuple[str, ...]
    min_words: int = 80
    max_link_share: float = 0.5
    family_default: str = "guide"
    notes: str = ""

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Source:
        """Validate one sources.json entry."""
        commit = str(data["commit"])
        if not re.fullmatch(r"[0-9a-f]{40}", commit):
            raise ConvertError(f"{data.get('slug')}: commit must be 40 lowercase hex digits")
        options = data.get("options", {})
        return cls(
            slug=str(data["slug"]),
            title=str(data["title"]),
            field=str(data["field"]),
            repo=str(data["repo"]),
            commit=commit,
            licence=str(data["licence"]),
            licence_file=data.get("licence_file"),
            root=str(data.get("root", "")).strip("/"),
            include=tuple(data["include"]),
            exclude=tuple(data.get("exclude", ())),
            min_words=int(options.get("min_words", 80)),
            max_link_share=float(options.get("max_link_share", 0.5)),
            family_default=str(options.get("family_default", "guide")),
            notes=str(data.get("notes", "")),
        )


@dataclass
class Section:
    """A ``##`` section being assembled: its own content and its ``###`` subsections."""

    heading: str
    content: list[str] = field(default_factory=list)
    subsections: list[tuple[str, list[str]]] = field(default_factory=list)


@dataclass(frozen=True)
class Page:
    """One converted page: its output file name and Markdown, or why it was skipped."""

    source_path: str
    name: str
    markdown: str = ""
    skipped: str = ""
    sections: int = 0


# --- git --------------------------------------------------------------------------------


def _git(mirror: Path, *args: str) -> bytes:
    result = subprocess.run(  # noqa: S603 - fixed git arguments
        ["git", f"--git-dir={mirror}", *args],  # noqa: S607 - git from PATH
        capture_output=True,
        check=False,
    )
    if result.returncode != 0:
        raise ConvertError(f"git {' '.join(args)} failed: {result.stderr.decode(errors='replace')}")
    return result.stdout


def list_files(mirror: Path, commit: str) -> list[str]:
    """Every file path in the tree of ``commit``."""
    _git(mirror, "cat-file", "-e", f"{commit}^{{commit}}")
    out = _git(mirror, "ls-tree", "-r", "-z", "--name-only", commit)
    return sorted(p for p in out.decode("utf-8").split("\0") if p)


def read_file(mirror: Path, commit: str, path: str) -> str:
    """A file's text at ``commit`` (UTF-8, undecodable bytes replaced; newlines normalised)."""
    raw = _git(mirror, "show", f"{commit}:{path}")
    text = raw.decode("utf-8", errors="replace").lstrip("\ufeff")
    return text.replace("\r\n", "\n").replace("\r", "\n")


# --- page selection and naming ----------------------------------------------------------


def select_pages(source: Source, files: list[str]) -> list[str]:
    """The source's pages in reading order: by include pattern, then by path."""
    excluded = (*ALWAYS_EXCLUDED, *source.exclude)
    chosen: list[str] = []
    for pattern in source.include:
        for path in files:
            if path in chosen or not path.endswith(PAGE_SUFFIXES):
                continue
            if fnmatch.fnmatchcase(path, pattern) and not any(
                fnmatch.fnmatchcase(path, x) for x in excluded
            ):
                chosen.append(path)
    return chosen


def _stem(name: str) -> str:
    for suffix in PAGE_SUFFIXES:
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name


def _relative_parts(source: Source, path: str) -> list[str]:
    rel = (
        path[len(source.root) + 1 :] if source.root and path.startswith(source.root + "/") else path
    )
    return list(PurePosixPath(rel).parts)


def flat_name(source: Source, path: str) -> str:
    """A unique-ish flat slug for a page: its path under the root joined with hyphens, index
    pages named by their folder, a folder name dropped when the file name repeats it."""
    parts = _relative_parts(source, path)
    parts[-1] = _stem(parts[-1])
    if parts[-1].lower() in INDEX_STEMS and len(parts) > 1:
        parts = parts[:-1]
    words = [slugify(p.replace("_", "-")) for p in parts]
    kept: list[str] = []
    for i, word in enumerate(words):
        following = words[i + 1] if i + 1 < len(words) else ""
        if following.startswith(word + "-") or following == word:
            continue
        kept.append(word)
    return "-".join(w for w in kept if w) or "home"


def source_family(source: Source, path: str) -> str:
    """The page's folder under the root, as a slug (the source's default for top-level pages)."""
    parts = _relative_parts(source, path)
    return slugify(parts[0].replace("_", "-")) if len(parts) > 1 else source.family_default


# --- page structure ---------------------------------------------------------------------


def split_front_matter(text: str) -> tuple[dict[str, Any], str]:
    """The source's own front matter (parsed if it is a YAML mapping) and the body after it."""
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    try:
        meta = yaml.safe_load(match.group(1) or "")
    except yaml.YAMLError:
        meta = None
    return (meta if isinstance(meta, dict) else {}), text[match.end() :]


def _title_and_items(
    items: list[Heading | Content], meta: dict[str, Any], fallback: str
) -> tuple[str, list[Heading | Content]]:
    """The page title (its first H1, else its own title, else ``fallback``) and the items left."""
    for i, item in enumerate(items):
        if isinstance(item, Heading) and item.level == 1:
            return item.text, items[:i] + items[i + 1 :]
    title = meta.get("title")
    if isinstance(title, str) and title.strip():
        return " ".join(title.split()), items
    return fallback, items


def _normalise_levels(items: list[Heading | Content]) -> list[Heading | Content]:
    """Shift headings so the page's top level is ``##``; ``####`` and deeper become bold lines."""
    levels = [i.level for i in items if isinstance(i, Heading)]
    if not levels:
        return items
    shift = min(levels) - 2
    out: list[Heading | Content] = []
    for item in items:
        if isinstance(item, Heading):
            level = item.level - shift
            if level >= 4:
                out.append(Content(f"**{_bold_safe(item.text)}**"))
            else:
                out.append(Heading(level=level, text=item.text))
        else:
            out.append(item)
    return out


def _bold_safe(text: str) -> str:
    from learning.package_sources.markdown_render import escape

    return escape(text)


def _sections(items: list[Heading | Content]) -> list[Section]:
    """Group items into ``##`` sections with ``###`` subsections; leading material goes into an
    overview section named after the first of Overview/Introduction/... not used by the page."""
    taken = {slugify(i.text) for i in items if isinstance(i, Heading)}
    overview_name = next((n for n in _OVERVIEW_NAMES if slugify(n) not in taken), "Overview")
    sections: list[Section] = []
    for item in items:
        if isinstance(item, Heading) and item.level == 2:
            sections.append(Section(heading=item.text))
            continue
        if not sections:
            sections.append(Section(heading=overview_name))
        current = sections[-1]
        if isinstance(item, Heading):
            current.subsections.append((item.text, []))
        elif current.subsections:
            current.subsections[-1][1].append(item.markdown)
        else:
            current.content.append(item.markdown)
    return sections


def _list_phrase(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def _fill_sections(sections: list[Section]) -> list[Section]:
    """Drop empty subsections and empty sections, make headings unique, and give a section of
    subsections only a line naming them, so that the section is itself citable."""
    for section in sections:
        section.subsections = [(h, c) for h, c in section.subsections if c]
    sections = [s for s in sections if s.content or s.subsections]
    _unique_headings(sections)
    for section in sections:
        if not section.content:
            names = [h for h, _ in section.subsections]
            # A subsection made unique by its section's name is listed by its own name.
            short = [h.removeprefix(f"{section.heading}: ") for h in names]
            names = short if len(set(short)) == len(short) else names
            noun = "part" if len(names) == 1 else "parts"
            section.content.append(
                f"This section has {len(names)} {noun}: {_bold_safe(_list_phrase(names))}."
            )
    return sections


def _unique(heading: str, taken: set[str], parent: str | None) -> str:
    """``heading``, or a variant whose anchor is not yet taken in the page."""
    candidates = [heading]
    if not slugify(heading):
        candidates = ["Section"]
    if parent:
        candidates.append(f"{parent}: {candidates[0]}")
    for candidate in candidates:
        if slugify(candidate) not in taken:
            taken.add(slugify(candidate))
            return candidate
    n = 2
    while slugify(f"{candidates[-1]} {n}") in taken:
        n += 1
    taken.add(slugify(f"{candidates[-1]} {n}"))
    return f"{candidates[-1]} ({n})"


def _unique_headings(sections: list[Section]) -> None:
    taken: set[str] = set()
    for section in sections:
        section.heading = _unique(section.heading, taken, None)
        section.subsections = [
            (_unique(h, taken, section.heading), c) for h, c in section.subsections
        ]


def _plain(markdown_text: str) -> str:
    """The loader's plain text of a Markdown fragment (for summaries)."""
    from markdown_it.tree import SyntaxTreeNode

    root = SyntaxTreeNode(parser().parse(markdown_text))
    texts: list[str] = []

    def walk(node: SyntaxTreeNode) -> None:
        if node.type == "inline":
            texts.append(plain_inline(node))
            return
        if node.type in ("fence", "code_block", "table"):
            return
        for child in node.children:
            walk(child)

    walk(root)
    return " ".join(t for t in texts if t)


def summary_of(sections: list[Section]) -> str:
    """The page's first sentence of prose, at most about 240 characters."""
    for section in sections:
        for block in section.content:
            text = _plain(block)
            if len(text.split()) < 5:
                continue
            sentence = _SENTENCE_END.split(text, maxsplit=1)[0]
            if len(sentence) > 240:
                sentence = sentence[:240].rsplit(" ", 1)[0] + " ..."
            return sentence
    return ""


def claim_boundary(source: Source, path: str) -> str:
    """The claim boundary every converted artifact carries."""
    return (
        f"Public guidance from {source.repo}@{source.commit[:7]} ({path}), converted for "
        f"evaluating the assistant on third-party packages; licence: {source.licence}. It describes that publisher's practice only: it is not enterprise "
        f"policy, and it approves nothing, no tool, vendor, practice, data use or decision."
    )


def _front_matter(source: Source, path: str, title: str, topic: str, number: int) -> str:
    meta: dict[str, Any] = {
        "title": title,
        "topic": topic,
        "topic_number": number,
        "source_family": source_family(source, path),
        "source_quality": SOURCE_QUALITY,
        "claim_boundary": claim_boundary(source, path),
    }
    return yaml.safe_dump(meta, sort_keys=False, allow_unicode=True, width=100)


def _title_fallback(path: str) -> str:
    stem = _stem(PurePosixPath(path).name)
    if stem.lower() in INDEX_STEMS and len(PurePosixPath(path).parts) > 1:
        stem = PurePosixPath(path).parent.name
    words = re.sub(r"[-_]+", " ", stem).strip()
    return words[:1].upper() + words[1:] if words else "Untitled"


def _render_markdown(front: str, title: str, summary: str, sections: list[Section]) -> str:
    lines = ["---", front.rstrip("\n")]
    if summary:
        lines.append(
            yaml.safe_dump({"summary": summary}, allow_unicode=True, width=100).rstrip("\n")
        )
    lines.extend(["---", "", f"# {_bold_safe(title)}", ""])
    for section in sections:
        lines.extend([f"## {_bold_safe(section.heading)}", ""])
        for block in section.content:
            lines.extend([block, ""])
        for heading, blocks in section.subsections:
            lines.extend([f"### {_bold_safe(heading)}", ""])
            for block in blocks:
                lines.extend([block, ""])
    return "\n".join(lines).rstrip("\n") + "\n"


def convert_page(source: Source, path: str, text: str, name: str, number: int) -> Page:
    """One source page as an artifact (or the reason it is skipped)."""
    meta, body = split_front_matter(text)
    stats = RenderStats()
    items = render_document(body, stats)
    title, items = _title_and_items(items, meta, _title_fallback(path))
    sections = _fill_sections(_sections(_normalise_levels(items)))
    if not sections:
        return Page(source_path=path, name=name, skipped="no sections with text")
    if stats.link_words > source.max_link_share * stats.words:
        return Page(source_path=path, name=name, skipped="mostly links (navigation page)")
    if stats.words < source.min_words:
        return Page(source_path=path, name=name, skipped=f"only {stats.words} words")
    front = _front_matter(source, path, title, name, number)
    markdown = _render_markdown(front, title, summary_of(sections), sections)
    rows = sum(1 + len(s.subsections) for s in sections)
    return Page(source_path=path, name=name, markdown=markdown, sections=rows)


# --- packages ---------------------------------------------------------------------------


def load_sources(path: Path = SOURCES_PATH) -> list[Source]:
    """Every source in sources.json, in file order."""
    data = json.loads(path.read_text(encoding="utf-8"))
    return [Source.from_json(entry) for entry in data["sources"]]


def convert_source(source: Source, mirror: Path) -> list[Page]:
    """Every selected page of ``source`` at its pinned commit, converted or skipped."""
    files = list_files(mirror, source.commit)
    paths = select_pages(source, files)
    if not paths:
        raise ConvertError(f"{source.slug}: no pages match the include patterns")
    names: set[str] = set()
    pages: list[Page] = []
    number = 0
    for path in paths:
        name = flat_name(source, path)
        base, n = name, 2
        while name in names:
            name, n = f"{base}-{n}", n + 1
        page = convert_page(source, path, read_file(mirror, source.commit, path), name, number + 1)
        if not page.skipped:
            names.add(name)
            number += 1
        pages.append(page)
    return pages


def _notice(source: Source, pages: list[Page]) -> str:
    kept = [p for p in pages if not p.skipped]
    lines = [
        f"{source.title}",
        "",
        f"Converted from https://github.com/{source.repo} at commit {source.commit}",
        f"by {CONVERTED_BY} (deterministic: the same commit gives the same files).",
        f"Licence of the source material: {source.licence}.",
    ]
    if source.licence_file:
        lines.append(f"The source's licence file ({source.licence_file}) is copied as LICENCE.")
    if source.notes:
        lines.extend(["", source.notes])
    lines.extend(
        [
            "",
            "Changes made in conversion: the source's front matter, site directives, images,",
            "raw HTML and comments were removed; headings were re-levelled and made unique; an",
            "Overview section holds the text before the first section; front matter naming this",
            "source and a claim boundary were added. The text itself is the publisher's.",
            "",
            "Files (artifact <- source path):",
        ]
    )
    lines.extend(f"  {p.name}.md <- {p.source_path}" for p in kept)
    skipped = [p for p in pages if p.skipped]
    if skipped:
        lines.extend(["", "Selected but skipped:"])
        lines.extend(f"  {p.source_path}: {p.skipped}" for p in skipped)
    return "\n".join(lines) + "\n"


def write_package(source: Source, mirror: Path, out: Path) -> list[Page]:
    """Convert ``source`` into ``out`` (replacing what was there) with LICENCE and NOTICE."""
    pages = convert_source(source, mirror)
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    for page in pages:
        if not page.skipped:
            (out / f"{page.name}.md").write_text(page.markdown, encoding="utf-8")
    if source.licence_file:
        licence = read_file(mirror, source.commit, source.licence_file)
        (out / "LICENCE").write_text(licence.rstrip("\n") + "\n", encoding="utf-8")
    (out / "NOTICE").write_text(_notice(source, pages), encoding="utf-8")
    return pages


def package_rows(out: Path) -> int:
    """Context-pack rows of the written package, counted by the package loader itself."""
    from assistant.package.artifacts import load_package

    return len(load_package(out).rows())


def manifest_entry(source: Source, out: Path) -> dict[str, Any]:
    """The MANIFEST.json entry of a written package."""
    return {
        "slug": source.slug,
        "title": source.title,
        "field": source.field,
        "repo": source.repo,
        "commit": source.commit,
        "licence": source.licence,
        "files": len(list(out.glob("*.md"))),
        "rows": package_rows(out),
        "converted_by": CONVERTED_BY,
    }


def write_manifest(entries: list[dict[str, Any]], out_root: Path) -> None:
    """MANIFEST.json: one entry per package, in sources.json order."""
    text = json.dumps(entries, indent=2, ensure_ascii=False) + "\n"
    (out_root / MANIFEST_NAME).write_text(text, encoding="utf-8")


def mirror_for(mirror_root: Path, repo: str) -> Path:
    """The git directory ``fetch`` leaves for ``owner/name`` under ``mirror_root``."""
    return mirror_root / repo.replace("/", "+") / "repo"


def _update_manifest(out_root: Path, entry: dict[str, Any], order: list[str]) -> None:
    path = out_root / MANIFEST_NAME
    entries = json.loads(path.read_text(encoding="utf-8")) if path.exists() else []
    entries = [e for e in entries if e["slug"] != entry["slug"]] + [entry]
    entries.sort(key=lambda e: order.index(e["slug"]) if e["slug"] in order else len(order))
    write_manifest(entries, out_root)


def main(argv: list[str] | None = None) -> int:
    """Command line: convert one source (or all) and update MANIFEST.json."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("slug", nargs="?", help="a slug from sources.json")
    ap.add_argument("--all", action="store_true", help="convert every source")
    ap.add_argument("--mirror", type=Path, help="the git directory of the source's mirror")
    ap.add_argument("--mirror-root", type=Path, default=Path("/work/.mirror"))
    ap.add_argument("--out", type=Path, help="the package directory to write")
    ap.add_argument("--out-root", type=Path, default=DEFAULT_OUT_ROOT)
    ap.add_argument("--sources", type=Path, default=SOURCES_PATH)
    args = ap.parse_args(argv)
    sources = load_sources(args.sources)
    order = [s.slug for s in sources]
    if args.all == bool(args.slug):
        ap.error("give one SLUG or --all")
    chosen = sources if args.all else [s for s in sources if s.slug == args.slug]
    if not chosen:
        ap.error(f"no source {args.slug!r} in {args.sources}")
    for source in chosen:
        mirror = (
            args.mirror
            if args.mirror and not args.all
            else mirror_for(args.mirror_root, source.repo)
        )
        out = args.out if args.out and not args.all else args.out_root / source.slug
        pages = write_package(source, mirror, out)
        entry = manifest_entry(source, out)
        _update_manifest(out.parent, entry, order)
        skipped = sum(1 for p in pages if p.skipped)
        print(f"{source.slug}: {entry['files']} artifacts, {entry['rows']} rows, {skipped} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main())
