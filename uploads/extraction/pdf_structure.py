"""What pypdf checks in a PDF before PDFium reads a page: every stream PDFium will decode for it.

PDFium (uploads.extraction.pdfium_text) reads the text, fast, but it has no decompression limit
a worker can set (it inflates a stream to a gigabyte) and a page's text cannot be interrupted
once PDFium starts on it. So before PDFium loads a page, pypdf decodes, under the tightened
limits of ``uploads.extraction.pdf.SAFETY_LIMITS``, each stream PDFium will decode to read that
page's text: the page's content streams, the form XObjects it draws (and theirs, recursively),
and its fonts' ToUnicode and encoding CMaps, font programs, CID-to-GID maps and Type 3 glyph
procedures (which PDFium runs as it loads the page, forms they draw included). Images, patterns,
soft masks and annotation appearances are not decoded: PDFium does not read them for text.

Refused here, before PDFium sees the page: a stream over pypdf's limits or in a filter it cannot
decode (pypdf's own errors, mapped to refusals by ``extract_pdf``); a page that draws more than
``PAGE_CONTENT_BYTES`` of content, counting each form XObject once for every time it is drawn;
a page that draws form XObjects more than ``FORM_INVOCATIONS`` times (a form drawing a form ten
times, ten levels deep, is ten billion form draws in three kilobytes); a form that draws itself
(PDFium follows the loop to its nesting limit, exponentially); forms nested deeper than
``FORM_DEPTH``; and a file whose decoded streams add up to more than ``DOCUMENT_DECODED_BYTES``.
PDFium's work on a page is then bounded by what this module let through, and the extraction's
time limit is checked between pages.
"""

from __future__ import annotations

import re
from typing import Any

from core.sizes import MiB, human_bytes
from uploads.rejections import Reason, refuse

#: Decoded content a page may draw: its content streams plus each form XObject's content as many
#: times as the page draws it. A single stream is already limited to this (SAFETY_LIMITS).
PAGE_CONTENT_BYTES = 8 * MiB
#: Form XObjects a page may draw (pypdf's own limit for one page's text extraction is 5,000).
FORM_INVOCATIONS = 500
FORM_DEPTH = 32
#: Every stream this module decodes for the whole file, fonts included (each stream once).
DOCUMENT_DECODED_BYTES = 64 * MiB

# PDF whitespace and delimiters (ISO 32000-1, 7.2.2): a name runs up to the next of either.
_WS = rb"\x00\t\n\x0c\r "
_NAME_CHARS = rb"[^" + _WS + rb"()<>\[\]{}/%]"
#: ``/Name Do`` (whitespace or comments between), the operator that draws an XObject.
_DO = re.compile(
    rb"/(" + _NAME_CHARS + rb"+)(?:[" + _WS + rb"]|%[^\r\n]*)*Do(?!" + _NAME_CHARS + rb")"
)
_NAME_ESCAPE = re.compile(rb"#([0-9A-Fa-f]{2})")
_FONT_STREAMS = ("/FontFile", "/FontFile2", "/FontFile3")


def _bomb(message: str) -> Exception:
    return refuse(
        Reason.DECOMPRESSION_BOMB, message + ", so it is treated as a decompression bomb."
    )


def _key(ref: Any, obj: Any) -> tuple[int, int]:
    """One stream or dictionary's identity: its object number, or its Python identity if direct."""
    idnum = getattr(ref, "idnum", None)
    if idnum is not None:
        return (int(idnum), int(getattr(ref, "generation", 0)))
    return (-1, id(obj))


def _resolved(value: Any) -> Any:
    return value.get_object() if value is not None and hasattr(value, "get_object") else value


def _is_stream(obj: Any) -> bool:
    return hasattr(obj, "get_data")


def _dict(value: Any) -> Any:
    """``value`` resolved if it is a dictionary, else None (a damaged entry is read as absent)."""
    value = _resolved(value)
    return value if isinstance(value, dict) else None


class _Form:
    """A form XObject's decoded size and the XObjects its content draws, by name and count."""

    def __init__(self, size: int, draws: dict[str, int], resources: Any) -> None:
        self.size = size
        self.draws = draws
        self.resources = resources


class StreamCheck:
    """The checks for one PDF, page by page; streams shared by pages are decoded once."""

    def __init__(self) -> None:
        self.decoded = 0
        self._forms: dict[tuple[int, int], _Form] = {}
        self._fonts: set[tuple[int, int]] = set()

    def page(self, page: Any) -> None:
        """Decode and count what PDFium will read for this pypdf page; refuse what is too much."""
        resources = _dict(page.get("/Resources"))
        draws: dict[str, int] = {}
        size = 0
        contents = _resolved(page.get("/Contents"))
        # A stream is a dictionary to pypdf, and an empty one is falsy: test for None.
        for ref in contents if isinstance(contents, list) else [contents]:
            stream = _resolved(ref)
            if not _is_stream(stream):
                continue
            data = self._decode(stream)
            size += len(data)
            for name, count in _draws(data).items():
                draws[name] = draws.get(name, 0) + count
        work = _Work()
        work.add_bytes(size)
        self._fonts_of(resources, work, stack=())
        self._draw(draws, resources, work, stack=())

    def _decode(self, stream: Any) -> bytes:
        data: bytes = stream.get_data()
        self.decoded += len(data)
        if self.decoded > DOCUMENT_DECODED_BYTES:
            raise _bomb(
                "The PDF's streams decompress to more than "
                f"{human_bytes(DOCUMENT_DECODED_BYTES)} in all"
            )
        return data

    def _draw(
        self,
        draws: dict[str, int],
        resources: Any,
        work: _Work,
        *,
        stack: tuple[tuple[int, int], ...],
    ) -> None:
        """Count the form XObjects drawn by ``draws`` (names in ``resources``), recursively."""
        if not draws:
            return
        xobjects = _dict(resources.get("/XObject")) if resources is not None else None
        if not xobjects:
            return
        for name, count in draws.items():
            # The reference itself (not what it points to), so a form is known by its number.
            ref = xobjects.raw_get("/" + name) if "/" + name in xobjects else None
            form = self._form(ref, resources)
            if form is None:
                continue
            key = _key(ref, _resolved(ref))
            if key in stack:
                # PDFium follows such a loop until its nesting limit: a form drawing itself
                # twice is two to the power of that limit of draws, and the page never loads.
                raise _bomb(
                    "A form XObject of the PDF draws itself (directly or through other forms), "
                    "an endless expansion"
                )
            if len(stack) >= FORM_DEPTH:
                raise refuse(Reason.MALFORMED, "The PDF's structure is nested too deeply to read.")
            inner = _Work()
            inner.add_draws(1)
            inner.add_bytes(form.size)
            self._fonts_of(form.resources, work, stack=(*stack, key))
            self._draw(form.draws, form.resources, inner, stack=(*stack, key))
            work.add(inner, times=count)

    def _form(self, ref: Any, inherited: Any) -> _Form | None:
        """The form XObject ``ref`` names, decoded once; None for an image or anything else."""
        xobject = _resolved(ref)
        if not _is_stream(xobject) or xobject.get("/Subtype") != "/Form":
            return None
        key = _key(ref, xobject)
        form = self._forms.get(key)
        if form is None:
            data = self._decode(xobject)
            # A form without resources of its own uses those of what draws it (PDF 1.1 files).
            own = _dict(xobject.get("/Resources"))
            form = _Form(len(data), _draws(data), own)
            self._forms[key] = form
        if form.resources is None:
            return _Form(form.size, form.draws, inherited)
        return form

    def _fonts_of(self, resources: Any, work: _Work, *, stack: tuple[tuple[int, int], ...]) -> None:
        """Decode each font's streams PDFium reads for text, the first time the font is seen.

        PDFium runs a Type 3 font's glyph procedures as it loads the page (once a glyph, then
        cached), form XObjects they draw included: those count towards ``work``.
        """
        fonts = _dict(resources.get("/Font")) if resources is not None else None
        if not fonts:
            return
        for ref in fonts.values():
            font = _dict(ref)
            key = _key(ref, font)
            if key in self._fonts or font is None:
                continue
            self._fonts.add(key)
            for stream in _font_streams(font):
                self._decode(stream)
            procs = _dict(font.get("/CharProcs"))
            if not procs:
                continue
            # A Type 3 font without resources of its own uses those of what shows it.
            glyph_resources = _dict(font.get("/Resources")) or resources
            for proc in procs.values():
                glyph = _resolved(proc)
                if not _is_stream(glyph):
                    continue
                data = self._decode(glyph)
                work.add_bytes(len(data))
                self._draw(_draws(data), glyph_resources, work, stack=stack)


class _Work:
    """What drawing a page (or one form, once) costs: decoded bytes parsed and forms drawn."""

    def __init__(self) -> None:
        self.bytes = 0
        self.draws = 0

    def add_bytes(self, n: int) -> None:
        self.bytes += n
        self._check()

    def add_draws(self, n: int) -> None:
        self.draws += n
        self._check()

    def add(self, other: _Work, *, times: int) -> None:
        self.bytes += other.bytes * times
        self.draws += other.draws * times
        self._check()

    def _check(self) -> None:
        if self.draws > FORM_INVOCATIONS:
            raise _bomb(
                f"A page of the PDF draws form XObjects more than {FORM_INVOCATIONS:,} times "
                "(forms that draw forms)"
            )
        if self.bytes > PAGE_CONTENT_BYTES:
            raise _bomb(
                f"A page of the PDF draws more than {human_bytes(PAGE_CONTENT_BYTES)} of content "
                "(its streams, with each form XObject counted every time it is drawn)"
            )


def _draws(data: bytes) -> dict[str, int]:
    """How many times a content stream draws each XObject, by name (``#xx`` escapes decoded).

    A ``/Name Do`` inside a string counts too: an over-count, never an under-count.
    """
    if b"Do" not in data:
        return {}
    out: dict[str, int] = {}
    for match in _DO.finditer(data):
        raw = match.group(1)
        if b"#" in raw:
            raw = _NAME_ESCAPE.sub(lambda m: bytes([int(m.group(1), 16)]), raw)
        name = raw.decode("latin-1")
        out[name] = out.get(name, 0) + 1
    return out


def _font_streams(font: Any) -> list[Any]:
    """A font's ToUnicode and encoding CMaps, font programs and CID-to-GID map."""
    streams = []
    fonts = [font]
    descendants = _resolved(font.get("/DescendantFonts"))
    if isinstance(descendants, list):
        fonts += [_resolved(d) for d in descendants[:1]]
    for each in fonts:
        if not hasattr(each, "get"):
            continue
        for name in ("/ToUnicode", "/Encoding", "/CIDToGIDMap"):
            streams.append(_resolved(each.get(name)))
        descriptor = _resolved(each.get("/FontDescriptor"))
        if hasattr(descriptor, "get"):
            streams += [_resolved(descriptor.get(name)) for name in _FONT_STREAMS]
    return [s for s in streams if _is_stream(s)]


def has_image(page: Any) -> bool:
    """True when the page's resources hold an image XObject (directly or in a form XObject)."""
    try:
        resources = page.get("/Resources")
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        if xobjects is None:
            return False
        for ref in xobjects.get_object().values():
            xobject = ref.get_object()
            subtype = xobject.get("/Subtype")
            if subtype == "/Image":
                return True
            if subtype == "/Form":
                inner = xobject.get("/Resources")
                inner_x = inner.get_object().get("/XObject") if inner is not None else None
                if inner_x is not None and any(
                    v.get_object().get("/Subtype") == "/Image"
                    for v in inner_x.get_object().values()
                ):
                    return True
    except (AttributeError, KeyError, TypeError, ValueError):
        return False
    return False
