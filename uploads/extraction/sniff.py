"""What a file is, judged from its bytes (magic numbers and a text check), never from its name."""

from __future__ import annotations

import re
from enum import StrEnum


class Kind(StrEnum):
    PDF = "pdf"
    ZIP = "zip"
    OLE = "ole"
    EXECUTABLE = "executable"
    SCRIPT = "script"
    ARCHIVE = "archive"
    IMAGE = "image"
    MEDIA = "media"
    BINARY = "binary"
    TEXT = "text"
    EMPTY = "empty"


_EXECUTABLE = (
    (b"MZ", "a Windows executable"),
    (b"\x7fELF", "an ELF executable"),
    (b"\xfe\xed\xfa\xce", "a Mach-O executable"),
    (b"\xfe\xed\xfa\xcf", "a Mach-O executable"),
    (b"\xce\xfa\xed\xfe", "a Mach-O executable"),
    (b"\xcf\xfa\xed\xfe", "a Mach-O executable"),
    (b"\xca\xfe\xba\xbe", "a Mach-O universal binary or Java class file"),
    (b"\x00asm", "a WebAssembly module"),
    (b"dex\n", "an Android executable"),
)
_ARCHIVE = (
    (b"\x1f\x8b", "a gzip archive"),
    (b"7z\xbc\xaf\x27\x1c", "a 7-Zip archive"),
    (b"Rar!\x1a\x07", "a RAR archive"),
    (b"BZh", "a bzip2 archive"),
    (b"\xfd7zXZ\x00", "an xz archive"),
    (b"\x28\xb5\x2f\xfd", "a Zstandard archive"),
    (b"MSCF", "a Windows cabinet archive"),
    (b"!<arch>\n", "an ar archive or Debian package"),
    (b"\xed\xab\xee\xdb", "an RPM package"),
    (b"xar!", "a xar archive"),
)
_IMAGE = (
    (b"\x89PNG\r\n\x1a\n", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF87a", "a GIF image"),
    (b"GIF89a", "a GIF image"),
    (b"II*\x00", "a TIFF image"),
    (b"MM\x00*", "a TIFF image"),
    (b"\x00\x00\x01\x00", "an icon image"),
    (b"8BPS", "a Photoshop image"),
)
_MEDIA = (
    (b"ID3", "an MP3 audio file"),
    (b"fLaC", "a FLAC audio file"),
    (b"OggS", "an Ogg audio or video file"),
    (b"\x1aE\xdf\xa3", "a Matroska or WebM video"),
    (b"MThd", "a MIDI file"),
    (b"FLV", "a Flash video"),
)
_OTHER_BINARY = (
    (b"SQLite format 3\x00", "an SQLite database"),
    (b"{\\rtf", "a Rich Text Format document"),
)
_TEXT_BOMS = (b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff", b"\x00\x00\xfe\xff")
_SHEBANG = re.compile(rb"^(?:\xef\xbb\xbf)?#!\s*/")


def sniff(data: bytes) -> tuple[Kind, str]:
    """The kind of ``data`` and a short description of it for refusal messages.

    The rules are read in order: the kinds this app extracts or must refuse by name first, then
    the magic-number tables (``_magic``), then text or binary.
    """
    if not data:
        return Kind.EMPTY, "an empty file"
    head = data[:1024]
    if data.lstrip(b"\xef\xbb\xbf \t\r\n").startswith(b"%PDF-") or (
        b"%PDF-" in head and not looks_like_text(head)
    ):
        return Kind.PDF, "a PDF document"
    if data.startswith((b"PK\x03\x04", b"PK\x05\x06")):
        return Kind.ZIP, "a zip package"
    if _SHEBANG.match(data):
        return Kind.SCRIPT, "a script (it starts with #!)"
    if data.startswith(_TEXT_BOMS):
        return (Kind.TEXT, "text") if _bom_text_is_clean(data) else (Kind.BINARY, "a binary file")
    if data.startswith(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"):
        return Kind.OLE, "a legacy Office or encrypted Office container"
    found = _magic(data)
    if found:
        return found
    if looks_like_text(data):
        return Kind.TEXT, "text"
    return Kind.BINARY, "a binary file"


def _magic(data: bytes) -> tuple[Kind, str] | None:
    """A binary format known by its magic number (the tables, tar, RIFF, ISO-BMFF, MP3), or None."""
    for table, kind in (
        (_EXECUTABLE, Kind.EXECUTABLE),
        (_ARCHIVE, Kind.ARCHIVE),
        (_IMAGE, Kind.IMAGE),
        (_MEDIA, Kind.MEDIA),
        (_OTHER_BINARY, Kind.BINARY),
    ):
        for magic, description in table:
            if data.startswith(magic):
                return kind, description
    if len(data) > 262 and data[257:262] == b"ustar":
        return Kind.ARCHIVE, "a tar archive"
    riff = _riff(data)
    if riff:
        return riff
    if data[4:8] == b"ftyp":
        brand = data[8:12]
        if brand in (b"heic", b"heix", b"avif", b"mif1", b"msf1"):
            return Kind.IMAGE, "an HEIF/AVIF image"
        return Kind.MEDIA, "an MP4/QuickTime audio or video file"
    if _is_mp3_frame(data):
        return Kind.MEDIA, "an MP3 audio file"
    return None


def _bom_text_is_clean(data: bytes) -> bool:
    """Text behind a byte-order mark must still read as text: few control characters, no NULs."""
    if data.startswith((b"\xff\xfe\x00\x00", b"\x00\x00\xfe\xff")):
        codec = "utf-32"
    elif data.startswith((b"\xff\xfe", b"\xfe\xff")):
        codec = "utf-16"
    else:
        codec = "utf-8-sig"
    sample = data[:8192].decode(codec, errors="ignore")
    controls = sum(1 for c in sample if ord(c) in _CONTROL)
    return controls <= max(1, len(sample) // 100)


def _riff(data: bytes) -> tuple[Kind, str] | None:
    if not data.startswith(b"RIFF") or len(data) < 12:
        return None
    form = data[8:12]
    if form == b"WEBP":
        return Kind.IMAGE, "a WebP image"
    if form == b"WAVE":
        return Kind.MEDIA, "a WAV audio file"
    if form == b"AVI ":
        return Kind.MEDIA, "an AVI video"
    return Kind.MEDIA, "a RIFF media file"


def _is_mp3_frame(data: bytes) -> bool:
    return len(data) > 3 and data[0] == 0xFF and data[1] & 0xE0 == 0xE0 and data[1] & 0x06 != 0


def utf16_byte_order(data: bytes) -> str | None:
    """``utf-16-le``/``utf-16-be`` for BOM-less UTF-16 text (NULs on one side of each pair)."""
    sample = data[:4096]
    if len(sample) < 4:
        return None
    pairs = len(sample) // 2
    even_nul = sum(1 for i in range(0, pairs * 2, 2) if sample[i] == 0)
    odd_nul = sum(1 for i in range(1, pairs * 2, 2) if sample[i] == 0)
    if odd_nul >= 0.4 * pairs and even_nul <= 0.05 * pairs:
        return "utf-16-le"
    if even_nul >= 0.4 * pairs and odd_nul <= 0.05 * pairs:
        return "utf-16-be"
    return None


_CONTROL = frozenset(range(0, 32)) - {9, 10, 12, 13}


def looks_like_text(data: bytes) -> bool:
    """True for UTF-8/UTF-16/UTF-32 text and legacy 8-bit text; False when control bytes dominate."""
    if data.startswith(_TEXT_BOMS):
        return True
    if utf16_byte_order(data):
        return True
    sample = data[:8192]
    if b"\x00" in sample:
        return False
    controls = sum(1 for b in sample if b in _CONTROL)
    return controls <= max(1, len(sample) // 100)
