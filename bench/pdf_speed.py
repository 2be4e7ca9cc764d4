"""PDF extraction in process against pdftotext: the real-document corpus and generated PDFs, file by file.

Targets (the PDFium issue): over the real PDFs of 10 or more pages, the median of the per-file
ratios app / pdftotext at most ``MEDIAN_RATIO_TARGET``; the slowest real PDF under
``SLOWEST_TARGET_S``. Every real file gets its own row (app and pdftotext times); the generated
PDFs are shown beside them, without a target.

`python -m bench --only pdf` runs these rows alone; `--only uploads` runs them with the upload
rows (``bench/uploads.py``).
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
MEDIAN_RATIO_TARGET = 2.0
SLOWEST_TARGET_S = 0.5


@dataclass(frozen=True)
class PdfTiming:
    name: str
    pages: int
    bytes: int
    extract_s: float
    pdftotext_s: float
    outcome: str

    @property
    def real(self) -> bool:
        """A file of the real corpus, not one generated here."""
        return not self.name.startswith("generated-")

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
    """The PDF extraction rows: the targets' two figures, then every file, real ones first."""
    progress("PDF extraction in process against pdftotext (real corpus and generated PDFs)")
    timings = pdf_corpus(rounds=int(plan["upload_rounds"]))  # type: ignore[call-overload]
    real = [t for t in timings if t.real]
    long = [t for t in real if t.pages >= LONG_PDF_PAGES]
    if long:
        ratio = median(t.ratio for t in long)
        report.add(
            Row(
                "PDF extraction",
                f"in process, median ratio over the {len(long)} real PDFs of {LONG_PDF_PAGES}+ "
                f"pages ({', '.join(t.name for t in long)})",
                times(ratio),
                "pdftotext on the same files",
                times(ratio),
                f"<= {MEDIAN_RATIO_TARGET:g}x",
                ratio <= MEDIAN_RATIO_TARGET,
            )
        )
    slowest = max(real, key=lambda t: t.extract_s)
    report.add(
        Row(
            "PDF extraction",
            f"slowest real file: {slowest.name} ({slowest.pages} pages, {slowest.outcome})",
            ms(slowest.extract_s * 1000),
            f"pdftotext {ms(slowest.pdftotext_s * 1000)}",
            times(slowest.ratio),
            f"< {SLOWEST_TARGET_S:g} s",
            slowest.extract_s < SLOWEST_TARGET_S,
        )
    )
    report.add(
        Row(
            "PDF extraction",
            f"in process, median ratio over all {len(real)} real PDFs",
            times(median(t.ratio for t in real)),
            "pdftotext on the same files",
            times(median(t.ratio for t in real)),
        )
    )
    generated = [t for t in timings if not t.real]
    order = sorted(real, key=lambda t: (-t.pages, t.name)) + generated
    for t in order:
        report.add(
            Row(
                "PDF extraction",
                f"{t.name}: {t.pages} pages, {t.bytes / 1024:,.0f} KiB, {t.outcome}",
                ms(t.extract_s * 1000),
                f"pdftotext {ms(t.pdftotext_s * 1000)}",
                times(t.ratio),
            )
        )
