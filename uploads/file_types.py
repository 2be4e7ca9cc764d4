"""The supported file types, once: extension, label, which size limit applies, how messages name it.

The extractor for each type is chosen from the file's content as well as its extension, in
uploads/extraction/dispatch.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from uploads.limits import Limits


@dataclass(frozen=True)
class FileType:
    """One accepted file type."""

    extension: str
    label: str
    #: The ``Limits`` field holding this type's raw-size limit.
    size_limit_field: str
    #: How a size-limit message names the files that share this limit.
    size_group: str
    #: Tabular types have their own extracted-character limit (``Limits.tabular_chars``).
    tabular: bool = False

    def size_limit(self, limits: Limits) -> int:
        return int(getattr(limits, self.size_limit_field))


_TEXT = "plain-text and Markdown files"
_DOCUMENT = "PDF and Word files"
_TABULAR = "CSV, TSV and JSON files"

FILE_TYPES: dict[str, FileType] = {
    t.extension: t
    for t in (
        FileType("txt", "Plain text (.txt)", "text_bytes", _TEXT),
        FileType("md", "Markdown (.md)", "text_bytes", _TEXT),
        FileType("pdf", "PDF (.pdf)", "document_bytes", _DOCUMENT),
        FileType("docx", "Word (.docx)", "document_bytes", _DOCUMENT),
        FileType("csv", "CSV (.csv)", "tabular_bytes", _TABULAR, tabular=True),
        FileType("tsv", "TSV (.tsv)", "tabular_bytes", _TABULAR, tabular=True),
        FileType("json", "JSON (.json)", "tabular_bytes", _TABULAR, tabular=True),
    )
}
PASTE_LABEL = "Pasted text"

SUPPORTED_EXTENSIONS = tuple(FILE_TYPES)
TABULAR = tuple(e for e, t in FILE_TYPES.items() if t.tabular)
#: The file input's ``accept`` attribute and the list named in refusals.
ACCEPT_ATTRIBUTE = ",".join(f".{e}" for e in SUPPORTED_EXTENSIONS)
SUPPORTED_LIST = ", ".join(f".{e}" for e in SUPPORTED_EXTENSIONS)


def label_of(file_type: str) -> str:
    """The display label of a file type ("paste" for pasted text); unknown types as they are."""
    if file_type == "paste":
        return PASTE_LABEL
    known = FILE_TYPES.get(file_type)
    return known.label if known else file_type


def file_limit_bytes(file_type: str, limits: Limits) -> int:
    """The raw-size limit for one file of ``file_type``."""
    known = FILE_TYPES.get(file_type)
    return known.size_limit(limits) if known else limits.tabular_bytes


def size_words(file_type: str) -> str:
    """Which files a size limit applies to, for messages."""
    known = FILE_TYPES.get(file_type)
    return known.size_group if known else "files"
