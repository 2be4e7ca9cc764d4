"""The chat page's card for one run: its notices, citation groups, run details, checklist and refusal help.

Everything here reads the run body (``Run.to_dict()``, the API's shape) and the context pack; it
decides wording and grouping only. Each part of the card is built in its own module:
``assistant/web/refusal_guidance.py``, ``assistant/web/citation_groups.py``, ``assistant/web/run_details.py``,
``assistant/web/review_checklist.py``; links into the package and example questions are
``assistant/web/package_links.py``. The stable refusal messages stay in ``assistant.pipeline.policy``.
"""

from __future__ import annotations

from typing import Any

from assistant.domain.modes import MODE_DISPLAY_NAMES, Mode
from assistant.pipeline.policy import Pattern
from assistant.retrieval.context_pack import ContextPack
from assistant.web.citation_groups import citation_groups
from assistant.web.refusal_guidance import REFUSAL_TITLES, next_step
from assistant.web.review_checklist import checklist
from assistant.web.run_details import run_details

NOTICE_TITLES: dict[str, str] = {
    Pattern.NO_CURRENT_SOURCE_SUPPORT: "No current/public source was used",
    Pattern.PACKAGE_CURRENT_CONFLICT: "The package and a current/public source differ",
    Pattern.STALE_OR_WEAK_CURRENT_SOURCE: "A current/public source is stale or of limited trust",
    Pattern.UPLOADED_SOURCE_TRUNCATED: "Uploaded material was shortened to fit",
}

CURRENT_STATE_WORDS = {
    "disabled": "Current/public context is not enabled on this server.",
    "unconfigured": "Current/public context is not set up on this server.",
    "not_retrieved": "No current/public source matched this question.",
    "fail_closed": "Current/public sources could not be fetched safely, so none were used.",
    "skipped": "Current/public context was not used for this question.",
    "retrieved": "Current/public sources were retrieved and are cited separately below.",
}


def run_card(
    body: dict[str, Any], pack: ContextPack, *, current_available: bool = False
) -> dict[str, Any]:
    """The template context for one run, from its API body; ``current_available`` says this
    server has current context enabled (a refusal's next step may mention it)."""
    refusal = body.get("refusal")
    card: dict[str, Any] = {
        "body": body,
        "mode_name": MODE_DISPLAY_NAMES[Mode(body["mode"])],
        "notices": [
            {**n, "title": NOTICE_TITLES.get(n["pattern"], "Note")} for n in body["notices"]
        ],
        "citation_groups": citation_groups(body),
        "details": run_details(body),
        "current_words": CURRENT_STATE_WORDS.get(body["current_context"]["state"], ""),
        "checklist": checklist(body),
    }
    if refusal:
        card["refusal_title"] = REFUSAL_TITLES.get(refusal["pattern"], "Not answered")
        card["next_step"] = next_step(refusal["pattern"], pack, current_available=current_available)
    return card
