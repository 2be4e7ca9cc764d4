"""A chosen unit written into the Package says lane: bullet items for lists and tables, the warning lead for anti-patterns, its citation."""

from __future__ import annotations

from assistant.domain import lanes
from assistant.domain.prompt import SourceRef
from assistant.package import kinds as section_kinds
from assistant.package.units import LIST, SENTENCE, TABLE, Unit, clean_end

WARNS_AGAINST = lanes.WARNS_AGAINST


def render(unit: Unit, ref: SourceRef) -> str:
    """One chosen unit as answer text: lists and tables as bullet items, each cited."""
    cid = f"[{ref.citation_id}]"
    warn = str(ref.meta.get("section_kind", "")) == section_kinds.ANTI_PATTERN
    if unit.kind in (LIST, TABLE):
        intro = unit.intro if unit.intro and not warn else (WARNS_AGAINST if warn else "")
        items = "\n".join(f"- {part} {cid}" for part in unit.parts)
        return f"{intro} {cid}\n\n{items}" if intro else items
    text = (
        clean_end(unit.text) if unit.kind != SENTENCE or not unit.text.endswith(":") else unit.text
    )
    if text.endswith(":"):
        text = clean_end(text)
    if warn:
        return f"{WARNS_AGAINST} {text} {cid}"
    return f"{text} {cid}"
