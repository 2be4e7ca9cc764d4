"""Render real-world Markdown into the package format's plain CommonMark blocks.

Documentation sites write Markdown for Jekyll, Eleventy, MkDocs, Hugo, Middleman, Jupyter Book
(MyST) or bookdown. Their extensions would reach the package loader as noise, so the source is
first cleaned of site directives (:func:`preprocess`), then parsed with markdown-it and written
back block by block (:func:`render_document`): headings become :class:`Heading` items, all other
blocks become :class:`Content` items holding Markdown the loader reads as intended (lists,
ordered lists, tables, code and quotes kept; images, raw HTML tags and site markup dropped).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING

from bs4 import BeautifulSoup, Tag

if TYPE_CHECKING:
    from collections.abc import Callable

    from markdown_it import MarkdownIt
    from markdown_it.tree import SyntaxTreeNode

# MyST / Sphinx directives whose body is not prose (figures, tables of contents, executable cells).
DROPPED_DIRECTIVES = frozenset(
    {
        "figure",
        "image",
        "raw",
        "toctree",
        "tableofcontents",
        "bibliography",
        "code-cell",
        "glue",
        "iframe",
        "video",
        "youtube",
        "mermaid",
        "r",
        "python",
        "js",
        "include",
        "literalinclude",
    }
)
CODE_DIRECTIVES = frozenset({"code-block", "code", "sourcecode", "code-tab"})
# Code fences that draw a diagram rather than show code.
DIAGRAM_LANGUAGES = frozenset({"mermaid", "dot", "graphviz", "plantuml"})
# Pandoc/MyST colon-fenced divs whose body is page metadata, not guidance.
DROPPED_DIVS = frozenset({"keywords"})

_HTML_COMMENT = re.compile(r"<!--.*?-->", re.S)
# Hugo tab and details shortcodes with a label: the label becomes a bold lead-in.
_LABELLED_SHORTCODE = re.compile(r'\{\{<\s*(?:tab|details)\s+(?:title=)?"([^"]+)"[^>]*>\}\}')
# Hugo block shortcodes: diagrams and raw HTML are dropped whole, highlight becomes a fence.
_HUGO_DROPPED_BLOCK = re.compile(
    r"\{\{<\s*(mermaid|rawHtml|rawhtml|figure|youtube)\b[^>]*>\}\}.*?\{\{<\s*/\1\s*>\}\}", re.S
)
_HUGO_HIGHLIGHT = re.compile(
    r"\{\{<\s*highlight\s+([\w+-]*)[^>]*>\}\}\n?(.*?)\{\{<\s*/highlight\s*>\}\}", re.S
)
_TEMPLATE_TAGS = (
    re.compile(r"\{%.*?%\}", re.S),  # Liquid / Jinja / Eleventy
    re.compile(r"\{\{<.*?>\}\}|\{\{%.*?%\}\}", re.S),  # Hugo shortcodes
    re.compile(r"\{\{.*?\}\}"),  # Liquid / Nunjucks output
    re.compile(r"<%.*?%>", re.S),  # ERB (Middleman)
)
_MYST_TARGET = re.compile(r"^\s*\([\w.:/-]+\)=\s*$")
_MYST_ROLE = re.compile(r"\{([\w:.-]+)\}[ \t]?`([^`\n]*)`")
_COLON_FENCE = re.compile(r"^\s*(:{3,})\s*\{?([\w-]*)\}?.*$")
_MYST_OPTION = re.compile(r"^\s*:[\w-]+:.*$")
_ADMONITION = re.compile(r'^(\s*)(?:!!!|\?\?\?\+?)\s*[\w-]+(?:\s+"([^"]*)")?\s*$')
_GITHUB_ALERT = re.compile(r"^(\s*>\s*)\[!\w+\]\s*$")
_ATTRIBUTE_LIST = re.compile(
    r"\{\s*(?::[^}]*|[#.][^}\n]*|-|\w+=\"[^\"]*\"(?:\s+\w+=\"[^\"]*\")*)\s*\}"
)
_FENCE_LINE = re.compile(r"^\s*(`{3,}|~{3,})")
_BOOKDOWN_PART = re.compile(r"^\((?:PART|APPENDIX)\\?\*?\)", re.I)
_LINE_START_HAZARD = re.compile(r"^(?:#{1,6}(?=\s|$)|[-+*](?=\s|$)|=+\s*$|~{3,}|>)")
_ORDERED_HAZARD = re.compile(r"^(\d{1,9})([.)])(?=\s|$)")
_ENTITY = re.compile(r"&(?=#?\w+;)")
_WORD = re.compile(r"\w+")
_TASK_BOX = re.compile(r"^\\\[[ xX]\\\]\s+")
_CITE_ROLES = ("cite", "footcite")
# The Turing Way's "[{term}`def<Term>`]" glossary pointers: a bracketed link with no prose.
_GLOSSARY_POINTER = re.compile(r"\[\{term\}`def\s*<[^>`\n]*>`\]")
_REFERENCE_ROLES = ("ref", "doc", "numref", "term", "eq", "download", "any")


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    """CommonMark with tables and raw HTML recognised (so HTML can be dropped as a block)."""
    from markdown_it import MarkdownIt

    return MarkdownIt("commonmark", {"html": True}).enable("table")


@dataclass(frozen=True)
class Heading:
    """A heading of the source page: its level (1-6) and plain text."""

    level: int
    text: str


@dataclass(frozen=True)
class Content:
    """One or more Markdown blocks between headings, ready to write into an artifact."""

    markdown: str


@dataclass
class RenderStats:
    """Word counts gathered while rendering: all prose words and words inside links."""

    words: int = 0
    link_words: int = 0


@dataclass
class _Context:
    """State of one rendering pass: the statistics and whether emphasis marks are written."""

    stats: RenderStats = field(default_factory=RenderStats)
    marks: bool = True
    in_link: bool = False


def _role(match: re.Match[str]) -> str:
    """A MyST role as plain text: references keep their visible text, citations are dropped."""
    role, body = match.group(1).lower(), match.group(2)
    if role.split(":")[0] in _CITE_ROLES:
        return ""
    if role in _REFERENCE_ROLES or role.startswith("ref"):
        visible = body.split("<", 1)[0].strip() if "<" in body else body
        return visible.strip() or body.strip()
    return body


def _outside_fences(text: str, transform: Callable[[str], str | None]) -> str:
    """Apply ``transform`` to every line outside fenced code (None drops the line)."""
    out: list[str] = []
    fence: str | None = None
    for line in text.split("\n"):
        match = _FENCE_LINE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * len(match.group(1))
            out.append(line)
            continue
        if fence is not None:
            if line.strip().startswith(fence) and not line.strip().strip(fence[0]):
                fence = None
            out.append(line)
            continue
        new = transform(line)
        if new is not None:
            out.append(new)
    return "\n".join(out)


def _drop_colon_fences(text: str) -> str:
    """Unwrap ``:::`` fenced divs (MyST, Pandoc): keep the body, drop the fence lines, their
    option lines and the whole body of metadata divs such as ``:::keywords``."""
    out: list[str] = []
    dropping: str | None = None
    after_open = False
    for line in text.split("\n"):
        match = _COLON_FENCE.match(line)
        if dropping is not None:
            if match and match.group(1) == dropping and not match.group(2):
                dropping = None
            continue
        if match:
            if match.group(2).lower() in DROPPED_DIVS:
                dropping = match.group(1)
            after_open = bool(match.group(2))
            continue
        if after_open and _MYST_OPTION.match(line):
            continue
        after_open = False
        out.append(line)
    return "\n".join(out)


def _unwrap_admonitions(text: str) -> str:
    """MkDocs admonitions (``!!! note "Title"`` + an indented body) become a bold title line
    followed by the body at the admonition's own indentation."""
    lines = text.split("\n")
    out: list[str] = []
    i = 0
    while i < len(lines):
        match = _ADMONITION.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        indent = match.group(1)
        if match.group(2):
            out.extend([f"{indent}**{match.group(2).strip()}**", ""])
        i += 1
        body_indent = indent + "    "
        while i < len(lines) and (lines[i].startswith(body_indent) or not lines[i].strip()):
            if not lines[i].strip():
                # A blank line ends the body unless indented body text follows it.
                j = i
                while j < len(lines) and not lines[j].strip():
                    j += 1
                if j >= len(lines) or not lines[j].startswith(body_indent):
                    break
            out.append(indent + lines[i][len(body_indent) :] if lines[i].strip() else "")
            i += 1
        out.append("")
    return "\n".join(out)


def _clean_line(line: str) -> str | None:
    """Per-line clean-up outside code: MyST targets, roles, attribute lists and GitHub alerts."""
    if _MYST_TARGET.match(line):
        return None
    alert = _GITHUB_ALERT.match(line)
    if alert:
        return alert.group(1).rstrip()
    return _ATTRIBUTE_LIST.sub("", line)


def preprocess(text: str) -> str:
    """Site-generator markup removed from a page body (front matter already split off)."""
    text = _HTML_COMMENT.sub("", text)
    text = _HUGO_DROPPED_BLOCK.sub("", text)
    text = _HUGO_HIGHLIGHT.sub(lambda m: f"\n```{m.group(1)}\n{m.group(2).rstrip()}\n```\n", text)
    text = _LABELLED_SHORTCODE.sub(lambda m: f"**{m.group(1).strip()}:** ", text)
    for pattern in _TEMPLATE_TAGS:
        text = pattern.sub("", text)
    text = _GLOSSARY_POINTER.sub("", text)
    text = _MYST_ROLE.sub(_role, text)
    text = _drop_colon_fences(text)
    text = _unwrap_admonitions(text)
    return _outside_fences(text, _clean_line)


# --- inline rendering -------------------------------------------------------------------


def escape(text: str) -> str:
    """Backslash-escape the characters that would otherwise start Markdown inline syntax."""
    text = text.replace("\\", "\\\\")
    text = re.sub(r"([`*_\[\]<|])", r"\\\1", text)
    return _ENTITY.sub(r"\\&", text)


def guard_line_start(text: str) -> str:
    """Escape a block's first characters when they would start a heading, list, quote or fence."""
    text = text.lstrip()
    ordered = _ORDERED_HAZARD.match(text)
    if ordered:
        return f"{ordered.group(1)}\\{ordered.group(2)}{text[ordered.end() :]}"
    if _LINE_START_HAZARD.match(text):
        return "\\" + text
    return text


def _code_span(content: str) -> str:
    runs = [len(m) for m in re.findall(r"`+", content)]
    if not runs and not content.startswith(" ") and not content.endswith(" "):
        return f"`{content}`"
    delim = "`" * (max(runs, default=0) + 1)
    return f"{delim} {content} {delim}"


def _count(text: str, ctx: _Context) -> None:
    words = len(_WORD.findall(text))
    ctx.stats.words += words
    if ctx.in_link:
        ctx.stats.link_words += words


def _wrap(marker: str, inner: str, ctx: _Context) -> str:
    """Emphasis marks around ``inner`` only where CommonMark would read them back as emphasis."""
    if not ctx.marks or not inner.strip() or inner != inner.strip():
        return inner
    return f"{marker}{inner}{marker}"


def _link(node: SyntaxTreeNode, ctx: _Context) -> str:
    href = str(node.attrs.get("href", ""))
    was_in_link, ctx.in_link = ctx.in_link, True
    inner = _inline_children(node, ctx).strip()
    ctx.in_link = was_in_link
    if not inner:
        return ""
    if ctx.marks and re.match(r"https?://", href):
        target = f"<{href}>" if re.search(r"[\s()<>]", href) else href
        return f"[{inner}]({target})"
    # Relative links point into the source site; the converted page keeps their text.
    return inner


def _inline_node(node: SyntaxTreeNode, ctx: _Context) -> str:
    kind = node.type
    if kind == "text":
        _count(node.content, ctx)
        return escape(node.content)
    if kind == "code_inline":
        _count(node.content, ctx)
        return _code_span(node.content)
    if kind in ("softbreak", "hardbreak"):
        return " "
    if kind == "em":
        return _wrap("*", _inline_children(node, ctx), ctx)
    if kind == "strong":
        return _wrap("**", _inline_children(node, ctx), ctx)
    if kind == "link":
        return _link(node, ctx)
    if kind == "html_inline":
        return " " if re.match(r"<br\b", node.content, re.I) else ""
    # Images and anything unknown are dropped.
    return ""


def _inline_children(node: SyntaxTreeNode, ctx: _Context) -> str:
    return "".join(_inline_node(child, ctx) for child in node.children)


def plain_inline(node: SyntaxTreeNode) -> str:
    """The text of an inline node as the package loader reads it (no marks, no link targets)."""
    parts: list[str] = []
    for child in node.children:
        if child.type in ("text", "code_inline"):
            parts.append(child.content)
        elif child.type in ("softbreak", "hardbreak"):
            parts.append(" ")
        elif child.type in ("em", "strong", "link"):
            parts.append(plain_inline(child))
    return re.sub(r"\s+", " ", "".join(parts)).strip()


def _reads_back(rendered: str, expected: str) -> bool:
    tokens = parser().parse(rendered)
    inline = [t for t in tokens if t.type == "inline"]
    if len(inline) != 1:
        return False
    from markdown_it.tree import SyntaxTreeNode

    node = SyntaxTreeNode(tokens)
    paragraph = node.children[0]
    return bool(paragraph.children) and plain_inline(paragraph.children[0]) == expected


def render_inline(inline: SyntaxTreeNode, stats: RenderStats) -> str:
    """An inline node as one line of Markdown; emphasis and links are dropped if the line would
    not read back as the same text."""
    expected = plain_inline(inline)
    ctx = _Context(stats=RenderStats())
    text = re.sub(r"\s+", " ", _inline_children(inline, ctx)).strip()
    if text and not _reads_back(guard_line_start(text), expected):
        ctx = _Context(stats=RenderStats(), marks=False)
        text = re.sub(r"\s+", " ", _inline_children(inline, ctx)).strip()
    stats.words += ctx.stats.words
    stats.link_words += ctx.stats.link_words
    return text


# --- block rendering --------------------------------------------------------------------


def _fence(content: str, info: str = "") -> list[str]:
    runs = [len(m) for m in re.findall(r"^\s*(`{3,})", content, re.M)]
    delim = "`" * max(3, max(runs, default=0) + 1)
    body = content.rstrip("\n")
    if not body.strip():
        return []
    return [f"{delim}{info}", *body.split("\n"), delim]


def _strip_directive_options(body: str) -> str:
    """The body of a MyST directive without its option block (``---`` YAML or ``:key:`` lines)."""
    lines = body.split("\n")
    if lines and lines[0].strip() == "---":
        for end in range(1, len(lines)):
            if lines[end].strip() == "---":
                lines = lines[end + 1 :]
                break
    while lines and _MYST_OPTION.match(lines[0]):
        lines = lines[1:]
    return "\n".join(lines)


def _directive(node: SyntaxTreeNode, stats: RenderStats, depth: int) -> list[str]:
    """A fenced MyST directive (```{note} ...): prose directives keep their body as blocks."""
    info = node.info.strip()
    name = info[1:].split("}", 1)[0].strip().lower()
    argument = info.split("}", 1)[1].strip() if "}" in info else ""
    if name in DROPPED_DIRECTIVES:
        return []
    body = _strip_directive_options(node.content)
    if name in CODE_DIRECTIVES:
        return _fence(body, argument.split()[0] if argument else "")
    lines: list[str] = []
    if argument:
        lines.extend([f"**{escape(argument)}**", ""])
    blocks = render_blocks(body, stats, depth + 1)
    return [*lines, *_join_blocks(blocks, loose=True)]


def _html_table(table: Tag) -> list[str]:
    rows: list[list[str]] = []
    for tr in table.find_all("tr"):
        cells = [
            escape(re.sub(r"\s+", " ", cell.get_text(" ", strip=True)))
            for cell in tr.find_all(["td", "th"])
        ]
        if any(cells):
            rows.append(cells)
    if not rows:
        return []
    width = max(len(r) for r in rows)
    rows = [r + [""] * (width - len(r)) for r in rows]
    lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join(["---"] * width) + " |"]
    return lines + ["| " + " | ".join(r) + " |" for r in rows[1:]]


def _html_block(content: str, stats: RenderStats, depth: int) -> list[str]:
    """Raw HTML is never rendered by the package reader: keep its tables as tables and its text
    as Markdown (authors often write Markdown inside HTML wrappers such as ``<details>``)."""
    soup = BeautifulSoup(content, "html.parser")
    for tag in soup.find_all(["script", "style", "iframe", "img", "svg", "video", "audio"]):
        tag.decompose()
    tables = soup.find_all("table")
    if tables:
        lines: list[str] = []
        for table in tables:
            lines.extend(_html_table(table))
        return lines
    text_lines = [line.strip() for line in soup.get_text("\n").split("\n")]
    text = "\n".join(line for line in text_lines if line)
    # A list marker left alone on its line (its item text was inside a tag) joins that text,
    # rather than underlining the line above as a setext heading.
    text = re.sub(r"^([-*+]|\d{1,9}[.)])\n", r"\1 ", text, flags=re.M)
    if not _WORD.search(text) or depth >= 5:
        return []
    return _join_blocks(render_blocks(text, stats, depth + 1), loose=True)


def _list(node: SyntaxTreeNode, stats: RenderStats, depth: int) -> list[str]:
    ordered = node.type == "ordered_list"
    number = int(str(node.attrs.get("start", 1))) if ordered else 0
    loose = any(
        not getattr(p.token, "hidden", False) if p.token else False
        for item in node.children
        for p in item.children
        if p.type == "paragraph"
    )
    out: list[str] = []
    for item in node.children:
        blocks = [b for b in (_block(child, stats, depth) for child in item.children) if b]
        lines = _join_blocks(blocks, loose=loose)
        if not lines:
            continue
        # GitHub task-list boxes ("[ ] item") would reach the row text as literal brackets.
        lines[0] = _TASK_BOX.sub("", lines[0], count=1)
        marker = f"{number}. " if ordered else "- "
        number += 1
        pad = " " * len(marker)
        if loose and out:
            out.append("")
        out.append(marker + lines[0])
        out.extend(pad + line if line else "" for line in lines[1:])
    return out


def _table(node: SyntaxTreeNode, stats: RenderStats) -> list[str]:
    rows: list[list[str]] = []
    for section in node.children:
        for tr in section.children:
            cells = []
            for cell in tr.children:
                text = render_inline(cell.children[0], stats) if cell.children else ""
                cells.append(text.replace("\n", " "))
            rows.append(cells)
    if not rows or not any(any(c.strip() for c in r) for r in rows):
        return []
    width = len(rows[0])
    lines = ["| " + " | ".join(rows[0]) + " |", "| " + " | ".join(["---"] * width) + " |"]
    return lines + ["| " + " | ".join((r + [""] * width)[:width]) + " |" for r in rows[1:]]


def _block(node: SyntaxTreeNode, stats: RenderStats, depth: int) -> list[str]:
    """One block node (at any nesting depth) as Markdown lines; [] when nothing is worth keeping."""
    kind = node.type
    if kind == "paragraph":
        text = render_inline(node.children[0], stats) if node.children else ""
        return [guard_line_start(text)] if text.strip() else []
    if kind == "heading":
        # Headings nested in lists, quotes or directives become bold lines.
        text = render_inline(node.children[0], stats) if node.children else ""
        return [f"**{text}**"] if text.strip() else []
    if kind in ("bullet_list", "ordered_list"):
        return _list(node, stats, depth)
    if kind == "table":
        return _table(node, stats)
    if kind == "fence":
        info = node.info.strip()
        if info.startswith("{"):
            return _directive(node, stats, depth) if depth < 5 else []
        language = info.split()[0] if info else ""
        return [] if language.lower() in DIAGRAM_LANGUAGES else _fence(node.content, language)
    if kind == "code_block":
        return _fence(node.content)
    if kind == "blockquote":
        blocks = [b for b in (_block(child, stats, depth) for child in node.children) if b]
        return [f"> {line}" if line else ">" for line in _join_blocks(blocks, loose=True)]
    if kind == "html_block":
        return _html_block(node.content, stats, depth)
    return []  # hr, and anything unknown


def _join_blocks(blocks: list[list[str]], *, loose: bool) -> list[str]:
    lines: list[str] = []
    for block in blocks:
        if lines and loose:
            lines.append("")
        lines.extend(block)
    return lines


def render_blocks(markdown_text: str, stats: RenderStats, depth: int = 0) -> list[list[str]]:
    """Every block of a Markdown fragment (headings as bold lines), for nested bodies."""
    from markdown_it.tree import SyntaxTreeNode

    root = SyntaxTreeNode(parser().parse(preprocess(markdown_text)))
    blocks = [_block(child, stats, depth) for child in root.children]
    return [b for b in blocks if b]


def heading_text(node: SyntaxTreeNode) -> str:
    """A heading's plain text; bookdown part markers (``(PART*)``) give an empty heading."""
    text = plain_inline(node.children[0]) if node.children else ""
    return "" if _BOOKDOWN_PART.match(text) else text


def render_document(body: str, stats: RenderStats) -> list[Heading | Content]:
    """A page body as a flat list of headings and content blocks, in document order."""
    from markdown_it.tree import SyntaxTreeNode

    root = SyntaxTreeNode(parser().parse(preprocess(body)))
    items: list[Heading | Content] = []
    for child in root.children:
        if child.type == "heading":
            text = heading_text(child)
            if text:
                items.append(Heading(level=int(child.tag[1]), text=text))
            continue
        lines = _block(child, stats, 0)
        if lines:
            items.append(Content("\n".join(lines)))
    return items
