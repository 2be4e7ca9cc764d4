"""Byte-level builders for upload fixtures: every byte a test reads is written here, in the open."""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Sequence

# ----------------------------------------------------------------------------------------- PDF


def _pdf_string(text: str) -> bytes:
    return (
        b"("
        + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")
        + b")"
    )


def text_content(lines: Sequence[str]) -> bytes:
    """A page content stream that writes ``lines`` top-down in Helvetica 11 pt."""
    ops = [b"BT", b"/F1 11 Tf", b"14 TL", b"72 740 Td"]
    for line in lines:
        ops.append(_pdf_string(line) + b" Tj T*")
    ops.append(b"ET")
    return b"\n".join(ops)


IMAGE_CONTENT = b"q 200 0 0 200 72 500 cm /Im1 Do Q"


def build_pdf(
    pages: Sequence[bytes],
    *,
    compress: bool = False,
    with_image: bool = False,
    raw_streams: dict[int, bytes] | None = None,
    pad: int = 0,
) -> bytes:
    """A minimal, valid PDF 1.4: catalog, page tree, one Helvetica font, one content stream per page.

    ``pages`` are content streams (see ``text_content``). ``with_image`` adds a 2x2 grey image
    XObject named /Im1 to every page's resources. ``raw_streams`` replaces page N's (0-based)
    stream with pre-encoded FlateDecode bytes, for decompression-bomb tests. ``pad`` adds a
    comment line of that many bytes after the header, to reach an exact file size.
    """
    raw_streams = raw_streams or {}
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled below once the page tree number is known
    pages_obj = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    image = None
    if with_image:
        pixels = b"\x80\x40\x40\x80"
        image = add(
            b"<< /Type /XObject /Subtype /Image /Width 2 /Height 2 /ColorSpace /DeviceGray "
            b"/BitsPerComponent 8 /Length "
            + str(len(pixels)).encode()
            + b" >>\nstream\n"
            + pixels
            + b"\nendstream"
        )
    kids = []
    for index, content in enumerate(pages):
        if index in raw_streams:
            data, filt = raw_streams[index], b" /Filter /FlateDecode"
        elif compress:
            data, filt = zlib.compress(content), b" /Filter /FlateDecode"
        else:
            data, filt = content, b""
        stream = add(
            b"<< /Length "
            + str(len(data)).encode()
            + filt
            + b" >>\nstream\n"
            + data
            + b"\nendstream"
        )
        resources = b"<< /Font << /F1 " + str(font).encode() + b" 0 R >>"
        if image:
            resources += b" /XObject << /Im1 " + str(image).encode() + b" 0 R >>"
        resources += b" >>"
        kids.append(
            add(
                b"<< /Type /Page /Parent "
                + str(pages_obj).encode()
                + b" 0 R /MediaBox [0 0 612 792] "
                b"/Resources " + resources + b" /Contents " + str(stream).encode() + b" 0 R >>"
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages " + str(pages_obj).encode() + b" 0 R >>"
    objects[pages_obj - 1] = (
        b"<< /Type /Pages /Kids ["
        + b" ".join(str(k).encode() + b" 0 R" for k in kids)
        + b"] /Count "
        + str(len(kids)).encode()
        + b" >>"
    )
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    if pad:
        out.write(b"%" + b"p" * (pad - 2) + b"\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(str(number).encode() + b" 0 obj\n" + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 " + str(len(objects) + 1).encode() + b"\n0000000000 65535 f \n")
    for offset in offsets:
        out.write(f"{offset:010d} 00000 n \n".encode())
    out.write(
        b"trailer\n<< /Size "
        + str(len(objects) + 1).encode()
        + b" /Root "
        + str(catalog).encode()
        + b" 0 R >>\nstartxref\n"
        + str(xref).encode()
        + b"\n%%EOF\n"
    )
    return out.getvalue()


def text_pdf(pages: Sequence[Sequence[str]], **kwargs: object) -> bytes:
    """A PDF whose page N shows the lines ``pages[N]``."""
    return build_pdf([text_content(lines) for lines in pages], **kwargs)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------- DOCX


def docx_bytes(build) -> bytes:  # type: ignore[no-untyped-def]
    """A .docx made by python-docx: ``build(document)`` adds the content."""
    import docx

    document = docx.Document()
    build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def rewrite_zip(
    data: bytes,
    *,
    replace: dict[str, bytes] | None = None,
    add: dict[str, bytes] | None = None,
    compression: int = zipfile.ZIP_DEFLATED,
) -> bytes:
    """A copy of the zip ``data`` with some parts replaced and others added."""
    replace = replace or {}
    add = add or {}
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w", compression) as dst:
        for info in src.infolist():
            dst.writestr(info.filename, replace.get(info.filename, src.read(info.filename)))
        for name, body in add.items():
            dst.writestr(name, body)
    return out.getvalue()


def plain_zip(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, body in files.items():
            zf.writestr(name, body)
    return out.getvalue()


def text_pdf_of_size(pages: Sequence[Sequence[str]], size: int) -> bytes:
    """A text PDF padded with a header comment to exactly ``size`` bytes."""
    pad = 100
    for _ in range(5):
        data = text_pdf(pages, pad=pad)
        if len(data) == size:
            return data
        pad += size - len(data)
    raise AssertionError("could not reach the exact size")


def docx_of_size(build, size: int) -> bytes:  # type: ignore[no-untyped-def]
    """A .docx padded with an unreferenced, stored (uncompressed) part to exactly ``size`` bytes."""
    base = docx_bytes(build)
    pad = 1000
    for _ in range(5):
        padded = _add_stored(base, "docProps/padding.bin", bytes(pad))
        if len(padded) == size:
            return padded
        pad += size - len(padded)
    raise AssertionError("could not reach the exact size")


def _add_stored(data: bytes, name: str, body: bytes) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info.filename))
        dst.writestr(zipfile.ZipInfo(name), body, compress_type=zipfile.ZIP_STORED)
    return out.getvalue()


def assemble_pdf(objects: Sequence[bytes]) -> bytes:
    """A PDF of ``objects`` (object 1 is the catalog), numbered from 1 in order, with its xref."""
    out = io.BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    )
    return out.getvalue()


def stream_object(dictionary: bytes, data: bytes, *, compress: bool = False) -> bytes:
    if compress:
        data = zlib.compress(data, 9)
        dictionary += b" /Filter /FlateDecode"
    return b"<< %s /Length %d >>\nstream\n" % (dictionary, len(data)) + data + b"\nendstream"


def form_pdf(
    depth: int,
    fan: int,
    *,
    leaf: bytes = b"BT /F1 10 Tf 72 700 Td (Form text) Tj ET",
    compress: bool = False,
) -> bytes:
    """One page drawing a form XObject that draws the next ``fan`` times, ``depth`` forms deep.

    The last form shows ``leaf``; the page shows "Page text" and then draws the first form, so
    the page draws ``fan ** (depth - 1)`` leaves.
    """
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b""]
    objects.append(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>")  # 3
    below = 0
    for _ in range(depth):
        if not below:
            body, resources = leaf, b"<< /Font << /F1 3 0 R >> >>"
        else:
            body = b" ".join([b"/X Do"] * fan)
            resources = b"<< /XObject << /X %d 0 R >> >>" % below
        objects.append(
            stream_object(
                b"/Type /XObject /Subtype /Form /BBox [0 0 612 792] /Resources " + resources,
                body,
                compress=compress,
            )
        )
        below = len(objects)
    objects.append(stream_object(b"", b"BT /F1 10 Tf 72 750 Td (Page text) Tj ET /X Do"))
    content = len(objects)
    objects.append(
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R "
        b">> /XObject << /X %d 0 R >> >> /Contents %d 0 R >>" % (below, content)
    )
    objects[1] = b"<< /Type /Pages /Kids [%d 0 R] /Count 1 >>" % len(objects)
    return assemble_pdf(objects)


def font_stream_pdf(lines: Sequence[str], to_unicode: bytes) -> bytes:
    """A one-page Helvetica PDF whose font has ``to_unicode`` (FlateDecode bytes) as its ToUnicode."""
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
        stream_object(b"", text_content(lines)),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /ToUnicode 6 0 R >>",
        b"<< /Filter /FlateDecode /Length %d >>\nstream\n" % len(to_unicode)
        + to_unicode
        + b"\nendstream",
    ]
    return assemble_pdf(objects)
