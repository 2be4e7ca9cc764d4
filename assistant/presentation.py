"""What the chat page shows a person for a run: refusal titles and next steps, citation groups, run details.

Everything here reads the run body (``Run.to_dict()``, the API's shape) and the context pack; it
decides wording and grouping only. The stable refusal messages stay in ``assistant.policy``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from assistant import lanes
from assistant.context_pack import ContextPack
from assistant.modes import MODE_DISPLAY_NAMES, Mode
from assistant.policy import Pattern
from assistant.types import PackageRow

EXAMPLE_COUNT = 4
# "(AICD_SOME_SETTING)" or "(AICD_SOME_SETTING=value)" in an operator-facing detail string.
_SETTING_NAME = re.compile(r"\s*\(AICD_[A-Z0-9_]+(?:=[^)]*)?\)")


def without_setting_names(text: str) -> str:
    """Operator detail as a reviewer reads it: the API's text with setting names taken out."""
    return _SETTING_NAME.sub("", text)


@dataclass(frozen=True)
class Link:
    text: str
    href: str


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

NOTICE_TITLES: dict[str, str] = {
    Pattern.NO_CURRENT_SOURCE_SUPPORT: "No current/public source was used",
    Pattern.PACKAGE_CURRENT_CONFLICT: "The package and a current/public source differ",
    Pattern.STALE_OR_WEAK_CURRENT_SOURCE: "A current/public source is stale or of limited trust",
    Pattern.UPLOADED_SOURCE_TRUNCATED: "Uploaded material was shortened to fit",
}

BEHAVIOR_WORDS: dict[str, str] = {
    "package_only": "Answered from the approved package only",
    "retrieval_skipped": "Current/public retrieval not used",
    "current_retrieval": "Current/public retrieval attempted",
    "provider_called": "Answer provider called",
    "provider_skipped": "Answer provider not called",
    "deterministic_refusal": "Refused by the screening step, before any provider call",
}

LATENCY_WORDS = {
    "total": "Total",
    "screening": "Screening",
    "retrieval": "Package search",
    "current_retrieval": "Current/public retrieval",
    "provider": "Answer provider",
}

TOKEN_WORDS = {
    "package_context_tokens": "Package sources",
    "uploaded_session_source_tokens": "Uploaded sources",
    "current_public_source_tokens": "Current/public sources",
    "user_prompt_tokens": "Question",
    "system_instruction_tokens": "Instructions",
    "completion_tokens": "Answer",
    "total_tokens": "Total",
}

CURRENT_STATE_WORDS = {
    "disabled": "Current/public context is not enabled on this server.",
    "unconfigured": "Current/public context is not set up on this server.",
    "not_retrieved": "No current/public source matched this question.",
    "fail_closed": "Current/public sources could not be fetched safely, so none were used.",
    "skipped": "Current/public context was not used for this question.",
    "retrieved": "Current/public sources were retrieved and are cited separately below.",
}

CITATION_GROUPS = (
    (lanes.PACKAGE_CITATION, "Package citations", "package"),
    (lanes.CURRENT_CITATION, "Current/public citations", "current"),
    (lanes.UPLOADED_CITATION, "Uploaded/session citations", "uploaded"),
)

CURRENT_GROUP_NOTE = (
    "Current/public sources are not package authority. They are cited separately, may be stale, "
    "incomplete or not approved, and approve nothing; package guidance remains the source of record."
)


# ------------------------------------------------------------------------ the package's topics
def _row(pack: ContextPack, topic: str, *heading_words: str) -> PackageRow | None:
    """The first row of ``topic`` whose heading holds every word in ``heading_words``."""
    for row in pack.rows:
        heading = row.heading.lower()
        if row.topic == topic and all(w in heading for w in heading_words):
            return row
    return None


def _section_link(pack: ContextPack, topic: str, *heading_words: str) -> tuple[Link, ...]:
    row = _row(pack, topic, *heading_words)
    if row is None:
        return ()
    return (Link(f"{row.title}: {row.heading}", row.reader_target),)


def topic_links(pack: ContextPack) -> tuple[Link, ...]:
    """Every artifact of the package, as a reader link, in the package's own topic order."""
    artifacts = sorted(
        pack.artifacts, key=lambda a: (a.get("topic_number") is None, a.get("topic_number") or 0)
    )
    return tuple(Link(str(a["title"]), f"/html/{a['source_path']}") for a in artifacts)


def _term(heading: str) -> str:
    """A glossary heading as it reads mid-sentence: 'Stage gate' -> 'stage gate', 'AI ...' kept."""
    if len(heading) > 1 and heading[0].isupper() and heading[1].islower():
        return heading[0].lower() + heading[1:]
    return heading


def example_questions(pack: ContextPack, count: int = EXAMPLE_COUNT) -> list[str]:
    """A few questions the package answers, made from its glossary terms, spread across it.

    Without a glossary, the artifact titles serve instead.
    """
    terms = [row.heading for row in pack.rows if row.topic == "glossary"]
    if terms:
        step = max(1, len(terms) // count)
        return [f"What does “{_term(t)}” mean?" for t in terms[::step][:count]]
    titles = [link.text for link in topic_links(pack)][:count]
    return [f"What does the package say about {t.lower()}?" for t in titles]


def next_step(pattern: str, pack: ContextPack) -> NextStep:
    """The one thing to do after a refusal of ``pattern``."""
    if pattern == Pattern.UNSUPPORTED_APPROVAL_REQUEST:
        return NextStep(
            "Ask instead which owner decides and what evidence they need, for example "
            "“Who holds the Gate 2 decision, and what evidence do they review?”",
            _section_link(pack, "governance-decision-rights", "owner"),
        )
    if pattern == Pattern.PRIVATE_INTERNAL_DATA_REQUEST:
        return NextStep(
            "Ask about the rules for such data rather than for the data itself, for example "
            "“Which data classes may reach a provider?”",
            _section_link(pack, "data-boundaries-privacy", "provider"),
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
    return NextStep(
        "Rephrase the question with the playbook's own terms, or ask the package author whether "
        "it should be covered. The package covers these topics:",
        topic_links(pack),
    )


# ------------------------------------------------------------------------ the review checklist
# A criteria review's status as the checklist shows it: (text label, css suffix), worst first.
CHECKLIST_STATUS: dict[str, tuple[str, str]] = {
    "contradicted": ("blocker", "blocker"),
    "missing": ("missing", "missing"),
    "partial": ("concern", "concern"),
    "present": ("pass", "pass"),
    "not_covered": ("not covered", "not-covered"),
}

DRAFT_KIND_WORDS = {
    "poc_proposal": "proof-of-concept proposal",
    "architecture_proposal": "architecture proposal",
    "prd": "product requirements document",
}


def _cite_href(citation_id: str, shown: set[str]) -> str:
    return f"#cite-{citation_id}" if citation_id in shown else ""


def checklist(body: dict[str, Any]) -> dict[str, Any] | None:
    """A criteria review as a checklist: a summary of counts by status, then one row per criterion.

    None when the run carries no structured review. A package or upload citation id links to its
    chip only when the answer shows that citation.
    """
    review = body.get("review")
    if not review:
        return None
    shown = {c["id"] for c in body["citations"]}
    rows = []
    css_of = dict(CHECKLIST_STATUS.values())  # label -> css, worst first
    counts = dict.fromkeys(css_of, 0)
    for finding in review["criteria"]:
        label, css = CHECKLIST_STATUS.get(finding["status"], ("not covered", "not-covered"))
        counts[label] += 1
        evidence = finding.get("evidence")
        package = finding["package"]
        rule = finding.get("rule")
        rows.append(
            {
                "criterion": finding["criterion"],
                "status_label": label,
                "status_css": css,
                "evidence": evidence,
                "evidence_href": _cite_href(evidence["citation_id"], shown) if evidence else "",
                "evidence_expected": finding["evidence_expected"],
                "confirmed_by": finding["confirmed_by"],
                "package": {
                    **package,
                    "section": package["title"].split(" — ", 1)[-1],
                    "href": _cite_href(package["citation_id"], shown),
                },
                "rule": rule,
            }
        )
    summary = [
        {"label": label, "css": css_of[label], "count": n} for label, n in counts.items() if n
    ]
    return {
        "draft_kind": DRAFT_KIND_WORDS.get(review["draft_kind"], review["draft_kind"]),
        "rows": rows,
        "summary": summary,
        "total": len(rows),
    }


# ------------------------------------------------------------------------ the run card
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


def _pairs(values: dict[str, Any] | None, words: dict[str, str], unit: str) -> list[str]:
    out = []
    for key, value in (values or {}).items():
        if value in (0, 0.0, None) and key != "total":
            continue
        out.append(f"{words.get(key, key.replace('_', ' ').capitalize())}: {value}{unit}")
    return out


def _screening(body: dict[str, Any]) -> str:
    screening = body["telemetry"].get("screening") or {}
    decided = str(screening.get("decided_by", ""))
    refusal = body.get("refusal")
    outcome = "refused the question" if refusal else "let the question through"
    if decided.startswith("rule:"):
        how = f"A fixed rule ({decided.removeprefix('rule:').replace('_', ' ')})"
    elif decided:
        how = "The screening model"
    else:
        return ""
    answerability = screening.get("answerability")
    text = f"{how} {outcome}."
    if answerability and answerability.get("applied", True):
        text += (
            f" Package coverage score {answerability['probability']:.2f}"
            f" (needed {answerability['threshold']:.2f})."
        )
    elif answerability:
        text += " The package's review criteria answer a review of the selected drafts."
    return text


def run_details(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The run's telemetry as (label, text) rows a reviewer can read; shown behind "Run details"."""
    t = body["telemetry"]
    rows: list[tuple[str, str]] = [("Run reference", body["run_id"])]
    rows.append(("Mode", MODE_DISPLAY_NAMES[Mode(body["mode"])]))
    screening = _screening(body)
    if screening:
        rows.append(("Screening decision", screening))
    rows.append(("What happened", "; ".join(BEHAVIOR_WORDS.get(b, b) for b in t["behaviors"])))
    current = body["current_context"]
    rows.append(("Current/public context", without_setting_names(current["detail"])))
    rows.append(("Answer provider", f"{t['provider']} / {t['model']}"))
    rows.append(("Tokens", ", ".join(_pairs(t.get("tokens"), TOKEN_WORDS, "")) or "none"))
    cost = t.get("estimated_cost")
    if cost:
        rows.append(("Estimated cost", ", ".join(_pairs(cost, {}, ""))))
    else:
        rows.append(("Estimated cost", "Not estimated: no token prices are configured."))
    counts = t.get("citation_class_counts") or {}
    rows.append(("Citations", ", ".join(f"{k}s: {v}" for k, v in counts.items() if v) or "none"))
    rows.append(("Time taken", ", ".join(_pairs(t.get("latency_ms"), LATENCY_WORDS, " ms"))))
    rows.append(
        (
            "Kept after this page",
            "Only in this session's history, until you clear it or sign out; never in the "
            "database or logs (durable logging is not enabled).",
        )
    )
    return rows


def run_card(body: dict[str, Any], pack: ContextPack) -> dict[str, Any]:
    """The template context for one run, from its API body."""
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
        card["next_step"] = next_step(refusal["pattern"], pack)
    return card
