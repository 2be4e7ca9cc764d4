"""Local, deterministic extraction of session sources: one extractor per type and a dispatcher."""

from uploads.extraction.dispatch import extension, extract_upload
from uploads.extraction.paste import extract_paste

__all__ = ["extension", "extract_paste", "extract_upload"]
