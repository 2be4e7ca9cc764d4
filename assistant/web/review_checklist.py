"""A criteria review as the chat page and the packet show it: statuses as pass / concern / blocker / missing / not covered."""

from __future__ import annotations

from typing import Any

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
    chip only when the answer shows that citation. ``not_evidence`` lists the draft's sentences
    that are never evidence, each with its note; a row's ``not_evidence`` is the one it would
    have rested on.
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
                "reason": finding.get("reason", ""),
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
                "not_evidence": finding.get("not_evidence"),
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
        "not_evidence": list(review.get("not_evidence") or []),
    }
