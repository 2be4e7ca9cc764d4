"""Session sources built directly for pipeline tests (no HTTP): text in, SessionSource out."""

from __future__ import annotations

from uploads import services
from uploads.store import SessionSourceStore
from uploads.types import SessionSource


def sources_from(
    *files: tuple[str, bytes], paste: tuple[str, str] | None = None
) -> tuple[SessionSource, ...]:
    """Extract ``(filename, bytes)`` files (and a paste) exactly as an upload would be."""
    session: dict = {}
    for name, data in files:
        services.add_file(session=session, owner="t", data=data, filename=name)
    if paste:
        services.add_paste(session=session, owner="t", title=paste[0], text=paste[1])
    return tuple(SessionSourceStore(session, "t").sources())
