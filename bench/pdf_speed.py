"""PDF extraction in process against pdftotext: the real-document corpus and generated PDFs, file by file.

`python -m bench --only uploads` runs it with the upload rows (``bench/uploads.py``).
"""

from __future__ import annotations

import io
import os
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from statistics import median

from bench import documents
from bench.report import Report, Row, ms, times
from bench.uploads import PDF_CHARS_PER_PAGE, PDF_PAGES

REALDOCS = Path(__file__).resolve().parent.parent / "tests" / "uploads" / "realdocs"
#: Generated text PDFs (pages, characters a page) beside the real ones: dense pages of Helvetica.
GENERATED_PDFS = ((10, 2_200), (30, 2_200), (PDF_PAGES, PDF_CHARS_PER_PAGE))
LONG_PDF_PAGES = 10


@dataclass(frozen=True)
class PdfTiming:
    name: str
    pages: int
    bytes: int
    extract_s: float
    pdftotext_s: float
    outcome: str

    @property
    def ratio(self) -> float:
        return self.extract_s / self.pdftotext_s


def _corpus_pdfs() -> list[tuple[str, bytes]]:
    """The real corpus's PDFs (tests/uploads/realdocs) and the generated ones, by name."""
    pdfs = [(p.name, p.read_bytes()) for p in sorted(REALDOCS.glob("*.pdf"))]
    for pages, chars in GENERATED_PDFS:
        pdfs.append((f"generated-{pages}-pages.pdf", documents.text_pdf(pages, chars)))
    return pdfs


def _pages(pdf: bytes) -> int:
    from pypdf import PdfReader

    try:
        return len(PdfReader(io.BytesIO(pdf), strict=False).pages)
    except Exception:  # noqa: BLE001 - broken and encrypted files count as one page here
        return 1


def _extract_s(name: str, pdf: bytes) -> tuple[float, str]:
    """In-process extraction of the whole file (no session budget), as an upload runs it."""
    from uploads.extraction import extract_upload
    from uploads.rejections import SourceRefused

    start = time.perf_counter()
    try:
        extracted = extract_upload(pdf, filename=name, session_remaining=None)
        outcome = f"accepted {extracted.confidence}"
    except SourceRefused as refusal:
        outcome = f"refused {refusal.code}"
    return time.perf_counter() - start, outcome


def _pdftotext_s(pdf: bytes) -> float:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        start = time.perf_counter()
        # Exit status 1 or 3 for a broken or encrypted file: still the time it took to say so.
        subprocess.run(["pdftotext", "-enc", "UTF-8", f.name, "-"], capture_output=True)
        return time.perf_counter() - start


def pdf_corpus(*, rounds: int) -> list[PdfTiming]:
    """Each corpus PDF extracted in process and by pdftotext, interleaved; medians over rounds.

    The extraction runs in this process, as a worker runs it (pypdf imported once beforehand);
    pdftotext runs as its own process, whose start is part of its time.
    """
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aicd.settings")
    django.setup()
    out = []
    for name, pdf in _corpus_pdfs():
        _extract_s(name, pdf)  # warm: imports and pypdf's own caches
        ours: list[float] = []
        theirs: list[float] = []
        outcome = ""
        for _ in range(rounds):
            seconds, outcome = _extract_s(name, pdf)
            ours.append(seconds)
            theirs.append(_pdftotext_s(pdf))
        out.append(PdfTiming(name, _pages(pdf), len(pdf), median(ours), median(theirs), outcome))
    return out


def add_rows(report: Report, plan: dict[str, object], progress: Callable[[str], None]) -> None:
    """The PDF extraction rows: median ratios to pdftotext, the slowest file, each long PDF."""
    progress("PDF extraction in process against pdftotext (real corpus and generated PDFs)")
    timings = pdf_corpus(rounds=int(plan["upload_rounds"]))  # type: ignore[call-overload]
    long = [t for t in timings if t.pages >= LONG_PDF_PAGES]
    if long:
        ratio = median(t.ratio for t in long)
        report.add(
            Row(
                "PDF extraction",
                f"in process, median ratio over the {len(long)} PDFs of {LONG_PDF_PAGES}+ pages",
                times(ratio),
                "pdftotext on the same files",
                times(ratio),
                "<= 3x",
                ratio <= 3,
            )
        )
    report.add(
        Row(
            "PDF extraction",
            f"in process, median ratio over all {len(timings)} PDFs",
            times(median(t.ratio for t in timings)),
            "pdftotext on the same files",
            times(median(t.ratio for t in timings)),
        )
    )
    slowest = max(timings, key=lambda t: t.extract_s)
    report.add(
        Row(
            "PDF extraction",
            f"slowest file: {slowest.name} ({slowest.pages} pages, {slowest.outcome})",
            f"{slowest.extract_s:.2f} s",
            f"pdftotext {slowest.pdftotext_s:.2f} s",
            times(slowest.ratio),
            "<= 2 s",
            slowest.extract_s <= 2,
        )
    )
    for t in sorted(long, key=lambda t: -t.ratio):
        report.add(
            Row(
                "PDF extraction",
                f"{t.name}: {t.pages} pages, {t.bytes / 1024:,.0f} KiB, {t.outcome}",
                ms(t.extract_s * 1000),
                f"pdftotext {ms(t.pdftotext_s * 1000)}",
                times(t.ratio),
            )
        )
