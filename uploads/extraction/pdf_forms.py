"""A PDF page's filled form fields as text, and its signed signature fields (pypdf objects)."""

from __future__ import annotations

from typing import Any

from uploads.extraction.common import clean_inline, strip_invisible


def _field_text(value: Any) -> str:
    """A field value as text: a byte string is decoded as pypdf decodes PDF strings, else nothing."""
    if isinstance(value, bytes):
        from pypdf.generic import create_string_object

        decoded = create_string_object(bytes(value))
        return "" if isinstance(decoded, bytes) else str(decoded)
    return str(value)


def _inherited(field: Any, key: str) -> Any:
    """A form field's entry, looked up through its /Parent chain as the PDF format inherits it."""
    for _ in range(32):
        if field is None:
            return None
        value = field.get(key)
        if value is not None:
            return value.get_object() if hasattr(value, "get_object") else value
        parent = field.get("/Parent")
        field = parent.get_object() if parent is not None else None
    return None


def form_fields(page: Any) -> tuple[list[str], int]:
    """The page's filled text and choice fields as ``label: value`` lines, and its signed signatures.

    The label is the field's user-facing name (``/TU``) or else its name (``/T``). A field shown by
    several widgets on the page is read once; check boxes and radio buttons (whose values are
    export names, not text) are left out.
    """
    try:
        annots = page.get("/Annots")
        annots = annots.get_object() if annots is not None else None
        if not annots:
            return [], 0
        lines: list[str] = []
        seen: set[str] = set()
        signed = 0
        for ref in annots:
            widget = ref.get_object()
            if widget.get("/Subtype") != "/Widget":
                continue
            kind = _inherited(widget, "/FT")
            value = _inherited(widget, "/V")
            if kind == "/Sig":
                signed += value is not None
                continue
            if kind not in ("/Tx", "/Ch") or value is None:
                continue
            values = value if isinstance(value, list) else [value]
            shown = clean_inline(strip_invisible(", ".join(_field_text(v) for v in values)))
            label = clean_inline(str(_inherited(widget, "/TU") or _inherited(widget, "/T") or ""))
            line = f"{label}: {shown}" if label else shown
            if shown and line not in seen:
                seen.add(line)
                lines.append(line)
        return lines, signed
    except (AttributeError, KeyError, TypeError, ValueError):
        return [], 0
