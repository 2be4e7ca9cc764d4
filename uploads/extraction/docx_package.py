"""The Word package check: what a zip is, and whether it is safe to hand to python-docx.

Before python-docx sees a byte, the zip is inspected: declared part sizes and compression ratios
(python-docx has no zip-bomb guard), DTD or entity declarations in any XML part, macro-enabled
content (``vbaProject.bin``, macroEnabled content types), encrypted entries and Strict Open XML.
"""

from __future__ import annotations

import io
import zipfile
import zlib
from collections.abc import Iterable
from xml.etree import ElementTree  # parses only [Content_Types].xml, after the DTD check

from core.sizes import MiB, human_bytes
from uploads.rejections import Reason, refuse

MAX_PARTS = 1_000
MAX_PART_BYTES = 20 * MiB
MAX_TOTAL_BYTES = 40 * MiB
MAX_RATIO = 100
RATIO_CHECKED_ABOVE = 1 * MiB
WORD_MAIN = "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"
_DECLARATIONS = (b"<!doctype", b"<!entity")
# Strict Open XML names its main document with ISO namespaces, which python-docx does not read.
_STRICT_MAIN = b"http://purl.oclc.org/ooxml/officeDocument/relationships/officeDocument"
_CT_NS = "{http://schemas.openxmlformats.org/package/2006/content-types}"


class PackageKind:
    DOCX = "docx"
    STRICT_DOCX = "strict_docx"
    OTHER_OOXML = "other_ooxml"
    ARCHIVE = "archive"


def inspect_package(data: bytes) -> str:
    """Check a zip before anything parses it; return what it is (docx, other OOXML, plain archive).

    Raises the refusal for a malformed zip, encrypted entries, a decompression bomb, macros or
    DTD/entity declarations. Every part is read here with a byte cap, so sizes are counted, not
    only trusted from the zip directory.
    """
    try:
        zf = zipfile.ZipFile(io.BytesIO(data))
        infos = zf.infolist()
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError, EOFError):
        raise refuse(
            Reason.MALFORMED, "The file is a damaged zip package and could not be read."
        ) from None
    with zf:
        names = {info.filename for info in infos}
        if "[Content_Types].xml" not in names:
            return PackageKind.ARCHIVE
        _check_directory(infos)
        content_types = _read_part(zf, zf.getinfo("[Content_Types].xml"))
        _check_macros(names, content_types)
        strict = False
        for info in infos:
            if info.filename.lower().endswith((".xml", ".rels")):
                part = _read_part(zf, info)
                _check_declarations(info.filename, part)
                strict = strict or (info.filename == "_rels/.rels" and _STRICT_MAIN in part)
        overrides = _content_types(content_types)
    if WORD_MAIN in overrides.values():
        return PackageKind.STRICT_DOCX if strict else PackageKind.DOCX
    return PackageKind.OTHER_OOXML


def _check_directory(infos: list[zipfile.ZipInfo]) -> None:
    if len(infos) > MAX_PARTS:
        raise refuse(
            Reason.DECOMPRESSION_BOMB,
            f"The package has {len(infos):,} parts; at most {MAX_PARTS:,} are accepted.",
        )
    if any(info.flag_bits & 0x1 for info in infos):
        raise refuse(
            Reason.ENCRYPTED, "The package has encrypted parts; encrypted files are not accepted."
        )
    total = 0
    for info in infos:
        total += info.file_size
        if info.file_size > MAX_PART_BYTES:
            raise refuse(
                Reason.DECOMPRESSION_BOMB,
                f"A part of the package would expand to {info.file_size:,} bytes; each part is "
                f"limited to {human_bytes(MAX_PART_BYTES)} uncompressed.",
            )
        ratio = info.file_size / max(info.compress_size, 1)
        if info.file_size > RATIO_CHECKED_ABOVE and ratio > MAX_RATIO:
            raise refuse(
                Reason.DECOMPRESSION_BOMB,
                f"A part of the package is compressed {ratio:,.0f} to 1; more than {MAX_RATIO} to 1 "
                "is treated as a decompression bomb.",
            )
    if total > MAX_TOTAL_BYTES:
        raise refuse(
            Reason.DECOMPRESSION_BOMB,
            f"The package would expand to {total:,} bytes; at most {human_bytes(MAX_TOTAL_BYTES)} "
            "uncompressed are accepted.",
        )


def _read_part(zf: zipfile.ZipFile, info: zipfile.ZipInfo) -> bytes:
    try:
        with zf.open(info) as handle:
            body = handle.read(MAX_PART_BYTES + 1)
    except (
        zipfile.BadZipFile,
        zlib.error,
        ValueError,
        OSError,
        EOFError,
        NotImplementedError,
        RuntimeError,
    ):
        raise refuse(
            Reason.MALFORMED, "A part of the package is damaged and could not be read."
        ) from None
    if len(body) > MAX_PART_BYTES:
        raise refuse(
            Reason.DECOMPRESSION_BOMB,
            f"A part of the package expands beyond {human_bytes(MAX_PART_BYTES)}.",
        )
    return body


def _check_macros(names: Iterable[str], content_types: bytes) -> None:
    lowered = content_types.lower()
    macro_part = any(
        n.lower().rsplit("/", 1)[-1] in ("vbaproject.bin", "vbadata.xml") for n in names
    )
    if macro_part or b"macroenabled" in lowered or b"vbaproject" in lowered:
        raise refuse(
            Reason.MACRO_ENABLED,
            "The document is macro-enabled (it carries a VBA project). Macro-enabled documents are "
            "not accepted, whatever their file name; save it as a plain .docx without macros.",
        )


def _check_declarations(name: str, body: bytes) -> None:
    views = [body.lower()]
    if body.startswith((b"\xff\xfe", b"\xfe\xff")) or b"\x00" in body[:256]:
        for codec in ("utf-16-le", "utf-16-be"):
            views.append(body.decode(codec, errors="ignore").lower().encode("ascii", "ignore"))
    if any(d in view for view in views for d in _DECLARATIONS):
        raise refuse(
            Reason.UNSAFE_CONTENT,
            f"The package part {name!r} declares a DTD or XML entities, which Word documents never "
            "need; the file is refused rather than parsed.",
        )


def _content_types(body: bytes) -> dict[str, str]:
    try:
        root = ElementTree.fromstring(body)  # noqa: S314 - declarations were refused above
    except ElementTree.ParseError:
        raise refuse(Reason.MALFORMED, "The package's content-type list is malformed.") from None
    return {
        el.get("PartName", ""): el.get("ContentType", "") for el in root.iter(f"{_CT_NS}Override")
    }
