"""Generated benchmark documents: a text PDF of N pages, a DOCX of a given size, plain text.

Everything is built here from deterministic pseudo-prose (bench.synthetic), so every byte the
extraction benchmark reads is explained by this file.
"""

from __future__ import annotations

import io
import random
import struct
import zlib
from functools import lru_cache

from bench import synthetic


@lru_cache(maxsize=8)
def _words(seed: int) -> tuple[str, ...]:
    return tuple(synthetic.vocabulary(size=4000, seed=seed))


def prose(chars: int, *, seed: int = 7, accents: bool = False) -> str:
    """About ``chars`` characters of sentences in lines of at most 90 characters."""
    rng = random.Random(seed)
    words = _words(seed % 4)
    lines: list[str] = []
    line = ""
    total = 0
    while total < chars:
        word = rng.choice(words)
        if accents and rng.random() < 0.03:
            word = word.replace("e", "é", 1) + "’s"
        if rng.random() < 0.08:
            word += "."
        if len(line) + len(word) + 1 > 90:
            lines.append(line)
            total += len(line) + 1
            line = ""
        line = f"{line} {word}" if line else word.capitalize()
    return "\n".join(lines)[:chars]


def _pdf_string(text: str) -> bytes:
    return (
        b"("
        + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("latin-1")
        + b")"
    )


def text_pdf(pages: int, chars_per_page: int, *, seed: int = 11) -> bytes:
    """A PDF with ``pages`` pages of Helvetica text (Flate-compressed content streams)."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in below, once the page tree exists
    pages_id = add(b"")
    font = add(b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
    kids = []
    for number in range(pages):
        lines = prose(chars_per_page, seed=seed + number).splitlines()
        ops = [b"BT /F1 10 Tf 12 TL 50 790 Td", _pdf_string(f"Page {number + 1}") + b" Tj T*"]
        ops += [_pdf_string(line) + b" Tj T*" for line in lines]
        ops.append(b"ET")
        stream = zlib.compress(b"\n".join(ops))
        content = add(
            b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(stream)
            + stream
            + b"\nendstream"
        )
        kids.append(
            add(
                b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 842] /Contents %d 0 R "
                b"/Resources << /Font << /F1 %d 0 R >> >> >>" % (pages_id, content, font)
            )
        )
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_id
    objects[pages_id - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids),
        len(kids),
    )

    out = io.BytesIO()
    out.write(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objects, 1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % i + body + b"\nendobj\n")
    xref = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(
        b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n"
        % (len(objects) + 1, catalog, xref)
    )
    return out.getvalue()


def _noise_png(width: int, height: int, *, seed: int = 5) -> bytes:
    """An RGB PNG of random pixels: incompressible, so it sets a DOCX's size predictably."""
    rng = random.Random(seed)
    raw = b"".join(b"\x00" + rng.randbytes(width * 3) for _ in range(height))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
        )

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(raw, 1))
        + chunk(b"IEND", b"")
    )


def docx(target_bytes: int, text_chars: int, *, sections: int = 60) -> bytes:
    """A DOCX of about ``target_bytes``: headings, paragraphs and a table, plus one picture.

    Its text (about ``text_chars`` characters) stays inside the upload limits; a picture of
    random pixels brings the file to the target size, as pictures do in real proposals.
    """
    from docx import Document
    from docx.shared import Inches

    document = Document()
    body = prose(text_chars, seed=23).splitlines()
    per_section = max(1, len(body) // sections)
    for number in range(sections):
        document.add_heading(f"Section {number + 1}", level=2)
        chunk = body[number * per_section : (number + 1) * per_section]
        document.add_paragraph(" ".join(chunk))
    table = document.add_table(rows=4, cols=3)
    for r, row in enumerate(table.rows):
        for c, cell in enumerate(row.cells):
            cell.text = f"criterion {r}.{c}"
    probe = io.BytesIO()
    document.save(probe)
    side = max(16, int(((target_bytes - len(probe.getvalue())) / 3) ** 0.5))
    document.add_picture(io.BytesIO(_noise_png(side, side)), width=Inches(4))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()
