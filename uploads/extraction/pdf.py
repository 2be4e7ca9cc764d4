"""PDF extraction: page text through PDFium, checks and form fields through pypdf; page anchors.

Two libraries, each for what it does best:

- **PDFium** (pypdfium2, ``uploads.extraction.pdfium_text``) reads each page's text, in C, with
  spaces and line breaks from where the characters sit. pypdf's text extraction, in Python, was
  the slow part (up to 20 times pdftotext's time on the corpus's long PDFs) and ran some lines
  together. PDFium is Chromium's PDF engine, so page N here is page N in a reviewer's browser.
- **pypdf** decides what PDFium cannot be trusted or asked to: whether the file is encrypted
  (``is_encrypted``, so owner-password-only files, which PDFium opens, are refused too; PDFium's
  own security-handler test must agree), how many pages the page tree holds (both libraries
  must count the same, or page anchors could be wrong), the filled form fields
  (``pdf_forms``: AcroForm values are not page content, and PDFium reads them only through its
  form-filling environment), whether a near-empty page is a scan (its image XObjects), and, before
  PDFium loads a page, every stream PDFium would decode for it, under the tightened limits below
  (``pdf_structure``): PDFium has no decompression limit a caller can set and cannot be
  stopped inside a page.

Each page's text is re-flowed into paragraphs, one per line (uploads.extraction.reflow), so a
sentence is never split at a line break of the page. Filled form fields (text and choice fields)
follow the page's text, one ``label: value`` line each. A signed signature field's shown text is
not read, so a PDF with one is extracted ``partial``.

Refused: encrypted PDFs (decided on ``is_encrypted``, so owner-password-only files too), PDFs with
no extractable text (scanned or image-only: a page with an image and a token of text counts as an
image), text that is mostly unreadable (unmapped glyph codes, see ``common.readability``),
malformed files (either library failing to read them, or the two reading different page counts),
streams in a filter pypdf cannot decode (JBIG2 is never decoded), and files whose streams or
structures exceed the safety limits below or ``pdf_structure``'s (decompression bombs, forms
drawing forms). Image-only or unreadable pages among readable ones make the extraction partial.
Past what the session's character budget has left, later pages are neither extracted nor kept;
the time limit is checked before each page.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from core.deadline import Deadline
from core.sizes import MiB, human_bytes
from uploads.extraction.common import (
    CharBudget,
    Readability,
    check_deadline,
    kept_range,
    readability,
    strip_invisible,
)
from uploads.extraction.pdf_forms import form_fields
from uploads.extraction.pdf_structure import StreamCheck, has_image
from uploads.extraction.pdfium_text import PdfiumDocument
from uploads.extraction.reflow import reflow
from uploads.limits import LIMITS, Limits
from uploads.rejections import Reason, SourceRefused, refuse
from uploads.types import CONFIDENCE_HIGH, CONFIDENCE_PARTIAL, ExtractedText

METHOD = "local_pdf_text_extract"
#: A page with an image and fewer characters of text than this is a scanned page.
IMAGE_PAGE_CHARS = 20
STREAM_OUTPUT_BYTES = 8 * MiB
SAFETY_LIMITS: dict[str, Any] = {
    "maximum_declared_stream_length": 16 * 1024 * 1024,
    "array_based_stream_maximum_output_length": STREAM_OUTPUT_BYTES,
    "zlib_maximum_output_length": STREAM_OUTPUT_BYTES,
    "lzw_maximum_output_length": STREAM_OUTPUT_BYTES,
    "run_length_maximum_output_length": STREAM_OUTPUT_BYTES,
    "brotli_maximum_output_length": STREAM_OUTPUT_BYTES,
    "jbig2_maximum_output_length": STREAM_OUTPUT_BYTES,
    "image_maximum_buffer_size": STREAM_OUTPUT_BYTES,
    "stream_decoding_work_maximum_length": 4 * STREAM_OUTPUT_BYTES,
    "stream_parsing_work_maximum_count": 1_000_000,
    "page_tree_maximum_entries": 10_000,
    "xform_maximum_invocations_per_extraction": 500,
    "jbig2dec_binary": None,
}


@contextmanager
def safety_limits() -> Iterator[None]:
    """pypdf's limits, tightened for this extraction only (pypdf keeps them in a context variable)."""
    from pypdf import apply_configuration

    with apply_configuration(**SAFETY_LIMITS):
        yield


def extract_pdf(data: bytes, *, budget: CharBudget, limits: Limits = LIMITS) -> ExtractedText:
    """PDF bytes to pages of text joined by form feeds; page N of the text is page N of the file."""
    # pypdf is imported on the first PDF upload: start-up does not need it.
    from pypdf.errors import DependencyError, FileNotDecryptedError, LimitReachedError

    deadline = Deadline(limits.extraction_seconds)
    try:
        with safety_limits():
            return _extract(data, budget=budget, limits=limits, deadline=deadline)
    except SourceRefused:
        raise
    except LimitReachedError:
        raise refuse(
            Reason.DECOMPRESSION_BOMB,
            "The PDF's internal streams exceed the extraction safety limit (a stream may not "
            f"decompress beyond {human_bytes(STREAM_OUTPUT_BYTES)}), so it is treated as a "
            "decompression bomb.",
        ) from None
    except FileNotDecryptedError:
        raise refuse(Reason.ENCRYPTED, _ENCRYPTED) from None
    except NotImplementedError as exc:
        if "filter" not in str(exc).lower():
            raise refuse(Reason.MALFORMED, "The PDF is malformed and could not be read.") from None
        found = re.search(r"/\w+", str(exc))
        raise refuse(
            Reason.UNSUPPORTED_PDF_FILTER, _unsupported(found.group() if found else None)
        ) from None
    except DependencyError:
        # pypdf decodes JBIG2 only through the external jbig2dec program, which is switched off
        # here (jbig2dec_binary None): a JBIG2 stream is refused, never decoded.
        raise refuse(Reason.UNSUPPORTED_PDF_FILTER, _unsupported("/JBIG2Decode")) from None
    except RecursionError:
        raise refuse(
            Reason.MALFORMED, "The PDF's structure is nested too deeply to read."
        ) from None
    except Exception:  # noqa: BLE001 - pypdf raises PdfReadError, PdfStreamError and plain Python errors alike
        raise refuse(Reason.MALFORMED, "The PDF is malformed and could not be read.") from None


def _unsupported(name: str | None) -> str:
    which = f"the {name} compression filter" if name else "a compression filter"
    return (
        f"The PDF uses {which}, which this extractor does not decode. Export it again as a "
        "standard PDF (for example Print > Save as PDF) or paste the text."
    )


_ENCRYPTED = (
    "The PDF is encrypted or password-protected. Encrypted files are not accepted, even when they "
    "open without a password; export an unencrypted copy."
)


def _extract(
    data: bytes, *, budget: CharBudget, limits: Limits, deadline: Deadline
) -> ExtractedText:
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data), strict=False)
    if reader.is_encrypted:
        raise refuse(Reason.ENCRYPTED, _ENCRYPTED)
    count = len(reader.pages)
    if count == 0:
        raise refuse(Reason.MALFORMED, "The PDF has no pages.")
    if count > limits.document_pages_or_sections:
        raise refuse(
            Reason.TOO_LARGE,
            f"The PDF has {count:,} pages; PDF files are limited to "
            f"{limits.document_pages_or_sections} pages.",
        )
    with _open_pdfium(data, deadline) as document:
        if document.encrypted:
            raise refuse(Reason.ENCRYPTED, _ENCRYPTED)
        if document.pages != count:
            # Page N of the text must be page N of the file, and form fields come from pypdf's
            # pages: two readings of the page tree that disagree leave neither to trust.
            raise refuse(
                Reason.MALFORMED,
                f"The PDF's page tree is damaged: read two ways, it gives {count:,} and "
                f"{document.pages:,} pages.",
            )
        return _pages(document, reader, count, budget=budget, deadline=deadline)


def _pages(
    document: PdfiumDocument, reader: Any, count: int, *, budget: CharBudget, deadline: Deadline
) -> ExtractedText:
    pages: list[str] = []
    image_only = unreadable = signatures = 0
    total = Readability()  # measured once per page; the pages add up to the document
    streams = StreamCheck()
    for index, page in enumerate(reader.pages):
        check_deadline(deadline, "PDF")
        streams.page(page)  # before PDFium decodes anything of this page
        text, signed = _page_text(document.page_text(index), page)
        signatures += signed
        if not budget.take(len(text) + (1 if pages else 0)):
            break
        pages.append(text)
        measure = readability(text)
        total += measure
        if not text.strip():
            image_only += 1
        elif measure.mostly_unreadable:
            unreadable += 1
    if not pages:
        raise budget.nothing_fits()
    if image_only == len(pages):
        raise refuse(
            Reason.IMAGE_ONLY,
            "The PDF has no extractable text (it looks scanned or image-only). OCR is not "
            "supported; upload a PDF with a text layer or paste the text.",
        )
    body = "\f".join(pages)
    problem = total.problem() or total.scattered()
    if problem:
        raise refuse(
            Reason.LOW_CONFIDENCE,
            f"The PDF's text layer is too garbled to cite reliably: {problem}.",
        )
    return ExtractedText(
        file_type="pdf",
        method=METHOD,
        text=body,
        anchors_available=("page",),
        confidence=CONFIDENCE_PARTIAL
        if image_only or unreadable or signatures
        else CONFIDENCE_HIGH,
        kept=kept_range("pages", len(pages), count) if len(pages) < count else "",
        meta={
            name: value
            for name, value in (
                ("image_only_pages", image_only),
                ("unreadable_pages", unreadable),
                ("signatures_not_read", signatures),
            )
            if value
        },
    )


def _open_pdfium(data: bytes, deadline: Deadline) -> PdfiumDocument:
    """The file opened in PDFium; a file pypdf read but PDFium cannot open is refused by name."""
    import pypdfium2 as pdfium

    try:
        return PdfiumDocument(data, deadline)
    except pdfium.PdfiumError as exc:
        if "password" in str(exc).lower():
            raise refuse(Reason.ENCRYPTED, _ENCRYPTED) from None
        raise refuse(Reason.MALFORMED, "The PDF is malformed and could not be read.") from None


def _page_text(raw: str, page: Any) -> tuple[str, int]:
    """One page's re-flowed text, then its filled form fields; and its signed signature fields."""
    text = reflow(_normalise(raw))
    if len(text.strip()) < IMAGE_PAGE_CHARS and has_image(page):
        text = ""  # a scanned page with a token of text (a page number, a stamp) is an image
    fields, signed = form_fields(page)
    if fields:
        text = "\n".join([text, *fields]) if text else "\n".join(fields)
    return text, signed


def _normalise(text: str) -> str:
    lines = [
        strip_invisible(line).rstrip()
        for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    ]
    out: list[str] = []
    for line in lines:
        if not line and out and not out[-1]:
            continue
        out.append(line)
    return "\n".join(out).strip("\n")
