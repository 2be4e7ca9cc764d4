"""Readable text from a fetched response body: decoding, HTML and JSON, bounded in size and cost."""

from __future__ import annotations

import codecs
import json
import re

from lxml import etree
from lxml import html as lxml_html

from assistant.current.errors import FetchError

MAX_EXTRACTED_CHARS = 60_000
MIN_TEXT_CHARS = 40
MAX_JSON_DEPTH = 32
# Python codec names of the web's character sets. Other codecs are transforms (rot13, zlib), escape
# decoders that yield lone surrogates, or quadratic (punycode: minutes for one megabyte).
WEB_CHARSETS = frozenset(
    "utf-8 utf-8-sig utf-16 utf-16-le utf-16-be ascii iso8859-1 iso8859-2 iso8859-3 iso8859-4 "
    "iso8859-5 iso8859-6 iso8859-7 iso8859-8 iso8859-10 iso8859-13 iso8859-14 iso8859-15 iso8859-16 "
    "cp1250 cp1251 cp1252 cp1253 cp1254 cp1255 cp1256 cp1257 cp1258 cp874 cp866 koi8-r koi8-u "
    "mac-roman mac-cyrillic shift_jis cp932 euc_jp iso2022_jp gb2312 gbk gb18030 big5 big5hkscs "
    "euc_kr tis-620".split()
)
# libxml2 compares an element's attribute names pairwise: 80,000 attributes (700 KB) cost 20 s of
# CPU. No real page comes near this many on one element.
MAX_ELEMENT_ATTRIBUTES = 400
_START_TAG_RE = re.compile(
    r"""<[A-Za-z][^\s/>]*((?:[^>"'=]+|=\s*"[^"]*"|=\s*'[^']*'|=[^\s>]*|["'])*)"""
)
_ATTRIBUTE_VALUE_RE = re.compile(r"""=\s*(?:"[^"]*"|'[^']*'|[^\s>]*)""")
_ATTRIBUTE_NAME_RE = re.compile(r"[^\s/]+")
_DROP_TAGS = (
    "script",
    "style",
    "noscript",
    "template",
    "svg",
    "iframe",
    "object",
    "embed",
    "head",
    "nav",
    "header",
    "footer",
    "aside",
    "form",
    "button",
    "select",
)
_BLOCK_TAGS = frozenset(
    "address article blockquote br dd div dl dt figcaption figure h1 h2 h3 h4 h5 h6 hr li main ol "
    "p pre section table td th tr ul".split()
)


def _decode(body: bytes, charset: str | None) -> str:
    if b"\x00" in body:
        raise FetchError("the response is binary, not text")
    name = "utf-8"
    if charset:
        try:
            name = codecs.lookup(charset).name
        except (LookupError, ValueError):
            raise FetchError(f"unknown character set {charset[:40]!r}") from None
        if name not in WEB_CHARSETS:
            raise FetchError(f"unsupported character set {charset[:40]!r}")
    text = body.decode(name, errors="replace")
    if text and text.count("\ufffd") > max(8, len(text) // 50):
        raise FetchError("the response is not readable text in its declared character set")
    return text


def extract_text(
    body: bytes, media_type: str, charset: str | None, *, max_chars: int = MAX_EXTRACTED_CHARS
) -> str:
    """Readable text from an allowed response body, bounded; FetchError when there is none."""
    text = _decode(body, charset)
    if media_type == "text/html":
        text = _html_text(text)
    elif media_type == "application/json" or media_type.endswith("+json"):
        text = _json_text(text, max_chars)
    lines = [" ".join(line.split()) for line in text.splitlines()]
    cleaned = "\n".join(line for line in lines if line)[:max_chars]
    if len(cleaned) < MIN_TEXT_CHARS:
        raise FetchError("the response has no readable text")
    return cleaned


def _html_text(markup: str) -> str:
    """Visible text of the page's main content, via libxml2's HTML parser (lxml).

    libxml2 is fast on large flat pages and stops at its nesting limit, so a hostile page costs
    bounded time; text it cannot reach simply is not extracted (and a page with none fails). Its one
    quadratic path, attribute-heavy elements, is refused first.
    """
    if _too_many_attributes(markup):
        raise FetchError(
            f"the HTML has an element with too many attributes (over {MAX_ELEMENT_ATTRIBUTES})"
        )
    try:
        parser = lxml_html.HTMLParser(encoding="utf-8", remove_comments=True, remove_pis=True)
        doc = lxml_html.document_fromstring(markup.encode("utf-8"), parser=parser)
    except (etree.ParserError, ValueError):
        raise FetchError("the HTML could not be parsed") from None
    etree.strip_elements(doc, *_DROP_TAGS, with_tail=False)
    roots = doc.xpath("//main") or doc.xpath("//article") or doc.xpath("//body") or [doc]
    root = roots[0]
    for element in root.iter():
        if isinstance(element.tag, str) and element.tag.lower() in _BLOCK_TAGS:
            element.tail = "\n" + (element.tail or "")
    return str(root.text_content())


def _too_many_attributes(markup: str) -> bool:
    """Whether any start tag has more than MAX_ELEMENT_ATTRIBUTES attribute names; one linear pass.

    Tags are read as the HTML tokenizer reads them: quotes matter only after '=', names are split
    by whitespace or '/', so quoted values (SVG paths, data: URIs) never count. Text that only
    looks like a tag (in comments or scripts) is counted too: over-counting fails closed.
    """
    for match in _START_TAG_RE.finditer(markup):
        if (
            len(match.group(1)) <= 2 * MAX_ELEMENT_ATTRIBUTES
        ):  # each name needs a character and a separator
            continue
        names = _ATTRIBUTE_VALUE_RE.sub(" ", match.group(1))
        for count, _ in enumerate(_ATTRIBUTE_NAME_RE.finditer(names), 1):
            if count > MAX_ELEMENT_ATTRIBUTES:
                return True
    return False


def _json_text(raw: str, max_chars: int) -> str:
    try:
        data = json.loads(raw)
    except (ValueError, RecursionError):
        raise FetchError("the JSON response is malformed") from None
    out: list[str] = []
    size = 0
    stack: list[tuple[object, int]] = [(data, 0)]
    while stack and size < max_chars:
        node, depth = stack.pop()
        if depth > MAX_JSON_DEPTH:
            raise FetchError("the JSON response is nested too deeply")
        if isinstance(node, str):
            out.append(node)
            size += len(node)
        elif isinstance(node, dict):
            stack.extend((v, depth + 1) for v in reversed(list(node.values())))
        elif isinstance(node, list):
            stack.extend((v, depth + 1) for v in reversed(node))
    return "\n".join(out)
