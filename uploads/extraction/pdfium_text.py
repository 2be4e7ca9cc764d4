"""A PDF's page text through PDFium (pypdfium2): one page at a time, under one lock, closed at once.

PDFium is the PDF engine of Chromium, so a page number here is the page a reviewer sees in
Chrome's viewer. It reads a page's text in reading order (left to right, then down), with line
breaks where lines break; all of the page's text, as pypdf did, even text set beyond the page's
edges (``get_text_bounded`` would cut it at the crop box).

PDFium is not thread-safe, and gunicorn's gthread workers run requests in threads: every call
into it (opening, loading a page, reading its text, closing) holds ``PDFIUM_LOCK``. Documents,
pages and text pages hold native memory: each is closed as soon as it has been read, not left to
the garbage collector (whose finalisers would run outside the lock).

PDFium itself has no decompression limit a caller can set and cannot be interrupted inside a
page: ``uploads.extraction.pdf_structure`` bounds what it may decode for a page before it loads
the page, and the caller checks its time limit between pages.
"""

from __future__ import annotations

import threading
from typing import Any

from core.deadline import Deadline
from uploads.extraction.common import over_time

#: Held around every PDFium call, by every thread of the process.
PDFIUM_LOCK = threading.Lock()
#: What PDFium puts for a hyphen it took for a line-end hyphen, having removed the line break:
#: U+0002 (FPDFText_GetBoundedText) or U+FFFE (FPDFText_GetText).
_HYPHEN_MARKS = ("\x02", "\ufffe")


class PdfiumDocument:
    """One PDF opened in PDFium; ``page_text(n)`` reads page n; ``close()`` frees it (idempotent).

    Raises ``pypdfium2.PdfiumError`` for a file PDFium cannot open or a page it cannot load.
    """

    def __init__(self, data: bytes, deadline: Deadline) -> None:
        import pypdfium2 as pdfium  # imported on the first PDF upload, as pypdf is

        self._deadline = deadline
        self._doc: Any = None
        with self._lock():
            doc = pdfium.PdfDocument(data)
            try:
                self.pages: int = len(doc)
                #: -1 when the file has no security handler (PDFium's own encryption test).
                self.encrypted = pdfium.raw.FPDF_GetSecurityHandlerRevision(doc) != -1
            except BaseException:
                doc.close()
                raise
            self._doc = doc

    def _lock(self) -> _Held:
        return _Held(self._deadline)

    def page_text(self, index: int) -> str:
        """Page ``index`` (0-based): its text with ``\\n`` line breaks and line-end hyphens kept."""
        with self._lock():
            page = self._doc[index]
            try:
                textpage = page.get_textpage()
                try:
                    text: str = textpage.get_text_range()
                finally:
                    textpage.close()
            finally:
                page.close()
        for mark in _HYPHEN_MARKS:
            if mark in text:
                text = text.replace(mark, "-\n")
        return text.replace("\r\n", "\n")

    def close(self) -> None:
        if self._doc is None:
            return
        # Closing must not wait on the deadline: a document left open leaks native memory.
        with PDFIUM_LOCK:
            self._doc.close()
        self._doc = None

    def __enter__(self) -> PdfiumDocument:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class _Held:
    """``PDFIUM_LOCK`` held, waited for no longer than the extraction's time limit has left."""

    def __init__(self, deadline: Deadline) -> None:
        self._deadline = deadline

    def __enter__(self) -> None:
        if not PDFIUM_LOCK.acquire(timeout=max(self._deadline.remaining(), 0.001)):
            raise over_time(self._deadline, "PDF")

    def __exit__(self, *exc: object) -> None:
        PDFIUM_LOCK.release()
