"""Inclusion tags that put this session's sources on any page: the upload panel and the checkboxes."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from django import template
from django.http import HttpRequest

from core.sizes import human_bytes
from uploads import boundary, privacy_notice, services
from uploads.file_types import ACCEPT_ATTRIBUTE
from uploads.limits import LIMITS, limit_lines
from uploads.owner import owner_of

register = template.Library()


def panel_context(request: HttpRequest, selected: Iterable[str] | None = None) -> dict[str, Any]:
    """What the upload panel and the source checkboxes show; ``selected=None`` checks every source."""
    view = services.overview(session=request.session, owner=owner_of(request))
    ids = [r.session_source_id for r in view.records]
    chosen = set(ids if selected is None else selected)
    return {
        "session_sources": [
            {"record": r, "checked": r.session_source_id in chosen} for r in view.records
        ],
        "upload_totals": view.totals,
        "upload_limits": limit_lines(LIMITS),
        "upload_totals_text": (
            f"{view.totals.files} of {LIMITS.session_files} files, {view.totals.pastes} of "
            f"{LIMITS.session_pastes} pasted text, {human_bytes(view.totals.raw_bytes) if view.totals.raw_bytes else '0 bytes'} "
            f"of {human_bytes(LIMITS.session_raw_bytes)}, {view.totals.chars:,} of "
            f"{LIMITS.session_chars:,} extracted characters"
        ),
        "upload_remaining_chars": max(0, LIMITS.session_chars - view.totals.chars),
        "upload_remaining_text": _remaining_text(view.totals.chars),
        "privacy_notice": boundary.PRIVACY_NOTICE,
        "source_label": boundary.USER_VISIBLE_LABEL,
        "source_badge": boundary.SOURCE_BADGE,
        "not_package_badge": boundary.NOT_PACKAGE_BADGE,
        "accept_types": ACCEPT_ATTRIBUTE,
        "max_upload_bytes": LIMITS.largest_file_bytes,
    }


def _remaining_text(used: int) -> str:
    remaining = max(0, LIMITS.session_chars - used)
    if remaining == 0:
        return (
            f"The session's {LIMITS.session_chars:,} extracted characters are used up; remove a "
            "source before adding another."
        )
    return (
        f"{remaining:,} of {LIMITS.session_chars:,} extracted characters left in this session. A "
        "file that extracts to more is kept in part, on whole pages, rows, sections or lines, "
        "and marked truncated."
    )


@register.inclusion_tag("uploads/panel.html", takes_context=True)
def upload_panel(context: template.Context) -> dict[str, Any]:
    """The upload panel: limits, messages, the add/remove/clear forms and this session's sources.

    The privacy notice is open the first time a session shows the panel, folded after that.

    ``?added=<session source id>`` (where the page's upload script lands after the API added a
    file) confirms that source, worded from its record; an id this session does not hold shows
    nothing, so the query value itself is never written into the page.
    """
    request = context["request"]
    panel = panel_context(request)
    panel["privacy_notice_open"] = privacy_notice.open_this_time(request.session)
    added = request.GET.get("added", "")
    panel["added_confirmation"] = next(
        (
            item["record"].added_confirmation
            for item in panel["session_sources"]
            if added and item["record"].session_source_id == added
        ),
        "",
    )
    return {**panel, "messages": context.get("messages")}


@register.inclusion_tag("uploads/source_choices.html", takes_context=True)
def session_source_choices(
    context: template.Context, selected: Iterable[str] | None = None
) -> dict[str, Any]:
    """The checkboxes choosing which session sources a question uses (all, unless ``selected``)."""
    return panel_context(context["request"], selected)
