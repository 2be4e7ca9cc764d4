"""Session sources held in the server-side Django session only: never the database, logs or disk.

The session lives in the cache (Redis when AICD_REDIS_URL is set), so these entries expire with
the session and go with it on logout (Django flushes the session). Each entry keeps a source's
text once plus its record; anchors are rebuilt from the text (uploads.segments), which keeps the
stored form within a few percent of the text's own size. The store also remembers whose it is:
a session that changes owner shows nothing of the previous owner's sources.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from dataclasses import dataclass
from typing import Any

from uploads.types import ExtractionRecord, SessionSource

SESSION_KEY = "aicd_session_sources"
ID_PREFIX = {"file": "session-file-", "paste": "session-paste-"}


@dataclass(frozen=True)
class Totals:
    files: int
    pastes: int
    raw_bytes: int
    chars: int


class SessionSourceStore:
    """Read and change one user's session sources inside one session mapping."""

    def __init__(self, session: MutableMapping[str, Any], owner: str):
        self._session = session
        self._owner = owner
        data = session.get(SESSION_KEY)
        if not isinstance(data, dict) or data.get("owner") != owner:
            data = None
        self._data: dict[str, Any] = data or {
            "owner": owner,
            "next": {"file": 1, "paste": 1},
            "items": [],
        }

    # ------------------------------------------------------------------------- reading
    def sources(self) -> list[SessionSource]:
        return [self._source(item) for item in self._data["items"]]

    def records(self) -> list[ExtractionRecord]:
        return [ExtractionRecord.from_dict(item["record"]) for item in self._data["items"]]

    def get(self, source_id: str) -> SessionSource | None:
        for item in self._data["items"]:
            if item["record"]["session_source_id"] == source_id:
                return self._source(item)
        return None

    def totals(self) -> Totals:
        records = [item["record"] for item in self._data["items"]]
        return Totals(
            files=sum(1 for r in records if r["file_type"] != "paste"),
            pastes=sum(1 for r in records if r["file_type"] == "paste"),
            raw_bytes=sum(r["raw_size_bytes"] for r in records),
            chars=sum(r["extracted_character_count"] for r in records),
        )

    def find_by_digest(self, digest: str) -> ExtractionRecord | None:
        """The record of the source whose raw content has this SHA-256, if the session holds it."""
        for item in self._data["items"]:
            if digest and item.get("sha256") == digest:
                return ExtractionRecord.from_dict(item["record"])
        return None

    def next_id(self, kind: str) -> str:
        return f"{ID_PREFIX[kind]}{self._data['next'][kind]:03d}"

    # ------------------------------------------------------------------------- writing
    def add(self, source: SessionSource, digest: str = "") -> None:
        kind = "paste" if source.record.file_type == "paste" else "file"
        if source.session_source_id != self.next_id(kind):
            raise ValueError("a session source must take the store's next id")
        self._data["next"][kind] += 1
        self._data["items"].append(
            {
                "record": source.record.to_dict(),
                "text": source.text,
                "meta": dict(source.meta),
                "sha256": digest,
            }
        )
        self._save()

    def remove(self, source_id: str) -> bool:
        items = self._data["items"]
        kept = [i for i in items if i["record"]["session_source_id"] != source_id]
        if len(kept) == len(items):
            return False
        self._data["items"] = kept
        self._save()
        return True

    def clear(self) -> int:
        """Drop every source; only the id counters stay, so an id is never reused in a session."""
        removed = len(self._data["items"])
        self._data = {"owner": self._owner, "next": dict(self._data["next"]), "items": []}
        self._save()
        return removed

    def _save(self) -> None:
        self._session[SESSION_KEY] = self._data
        self._mark_modified()

    def _mark_modified(self) -> None:
        if hasattr(self._session, "modified"):
            self._session.modified = True

    @staticmethod
    def _source(item: dict[str, Any]) -> SessionSource:
        return SessionSource(
            record=ExtractionRecord.from_dict(item["record"]), text=item["text"], meta=item["meta"]
        )
