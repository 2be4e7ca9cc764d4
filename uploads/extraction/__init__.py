"""Local, deterministic extraction of session sources: one extractor per type and a dispatcher."""

from uploads.extraction.dispatch import extension, extract_paste, extract_upload

__all__ = ["extension", "extract_paste", "extract_upload"]
