"""A run's citations as the page groups them: by class, then by artifact, each claim boundary once."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from assistant.domain import lanes

CITATION_GROUPS = (
    (lanes.PACKAGE_CITATION, "Package citations", "package"),
    (lanes.CURRENT_CITATION, "Current/public citations", "current"),
    (lanes.UPLOADED_CITATION, "Uploaded/session citations", "uploaded"),
)

CURRENT_GROUP_NOTE = (
    "Current/public sources are not package authority. They are cited separately, may be stale, "
    "incomplete or not approved, and approve nothing; package guidance remains the source of record."
)


def _artifact_key(citation: dict[str, Any]) -> str:
    for key in ("source_path", "session_source_id", "url"):
        if citation.get(key):
            return str(citation[key])
    return citation["title"]


def _artifact_title(citation: dict[str, Any]) -> str:
    if citation.get("display_title"):
        return str(citation["display_title"])
    return str(citation["title"]).split(" — ", 1)[0]


def _entry(citation: dict[str, Any], run_id: str) -> dict[str, Any]:
    title = str(citation["title"])
    section = title.split(" — ", 1)[1] if " — " in title else title
    target = citation.get("reader_target") or ""
    if target:
        path, _, anchor = target.partition("#")
        query = urlencode({"run": run_id, "cite": citation["id"]})
        target = f"{path}?{query}#{anchor}" if anchor else f"{path}?{query}"
    return {**citation, "section": section, "reader_href": target}


def citation_groups(body: dict[str, Any]) -> list[dict[str, Any]]:
    """Citations by class, then by artifact: each artifact's claim boundary appears once."""
    groups = []
    for cls, label, css in CITATION_GROUPS:
        items = [c for c in body["citations"] if c["citation_class"] == cls]
        if not items:
            continue
        artifacts: dict[str, dict[str, Any]] = {}
        for c in items:
            key = _artifact_key(c)
            if key not in artifacts:
                artifacts[key] = {
                    "title": _artifact_title(c),
                    "claim_boundary": c["claim_boundary"],
                    "authority_note": c.get("authority_note", ""),
                    "entries": [],
                }
            artifacts[key]["entries"].append(_entry(c, body["run_id"]))
        groups.append(
            {
                "label": label,
                "css": css,
                "citation_class": cls,
                "artifacts": list(artifacts.values()),
                "count": len(items),
                "note": CURRENT_GROUP_NOTE if cls == lanes.CURRENT_CITATION else "",
            }
        )
    return groups
