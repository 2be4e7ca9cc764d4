"""What a person reads after a refusal: its title and the one next step, with links into the package."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.pipeline.policy import Pattern
from assistant.retrieval.context_pack import ContextPack
from assistant.web.package_links import Link, section_link, topic_links


@dataclass(frozen=True)
class NextStep:
    """One thing the reader can do after a refusal, with at most a few links into the package."""

    text: str
    links: tuple[Link, ...] = ()


# A heading a person reads instead of the machine pattern (which stays in data-pattern).
REFUSAL_TITLES: dict[str, str] = {
    Pattern.UNSUPPORTED_GENERAL_CHAT: "Outside the playbook",
    Pattern.UNSUPPORTED_APPROVAL_REQUEST: "Approval is not something this assistant can give",
    Pattern.PRIVATE_INTERNAL_DATA_REQUEST: "Private or internal data",
    Pattern.NO_PACKAGE_SUPPORT: "The package does not cover this",
    Pattern.UPLOADED_SOURCE_BOUNDARY: "Uploaded drafts are reviewed, not made package authority",
}


# Said after "not covered" when this server has current context: what that mode can and cannot do.
CURRENT_CONTEXT_NOTE = (
    "This server also offers Package + current context, but that mode only sets current/public "
    "sources beside package guidance: it answers nothing the package does not cover. Once a "
    "rephrased question finds package guidance, choose it to see current/public sources too."
)


def next_step(pattern: str, pack: ContextPack, *, current_available: bool = False) -> NextStep:
    """The one thing to do after a refusal of ``pattern``; ``current_available`` says this server
    has current context enabled, which a "not covered" refusal then mentions."""
    if pattern == Pattern.UNSUPPORTED_APPROVAL_REQUEST:
        return NextStep(
            "Ask instead which owner decides and what evidence they need, for example "
            "“Who holds the Gate 2 decision, and what evidence do they review?”",
            section_link(pack, "governance-decision-rights", "owner"),
        )
    if pattern == Pattern.PRIVATE_INTERNAL_DATA_REQUEST:
        return NextStep(
            "Ask about the rules for such data rather than for the data itself, for example "
            "“Which data classes may reach a provider?”",
            section_link(pack, "data-boundaries-privacy", "provider"),
        )
    if pattern == Pattern.UPLOADED_SOURCE_BOUNDARY:
        return NextStep(
            "To have a draft reviewed, add it under Session sources, tick it, and ask what the "
            "package expects of it, for example “Does this draft name its stage gate owners?”",
            (Link("Session sources", "#session-sources"),),
        )
    if pattern == Pattern.UNSUPPORTED_GENERAL_CHAT:
        return NextStep(
            "Rephrase the question in terms of the playbook. It covers these topics:",
            topic_links(pack),
        )
    current = f" {CURRENT_CONTEXT_NOTE}" if current_available else ""
    return NextStep(
        "Rephrase the question with the playbook's own terms, or ask the package author whether "
        f"it should be covered.{current} The package covers these topics:",
        topic_links(pack),
    )
