"""The review lanes the offline provider writes from a criteria review (``assistant/review/criteria_review.py``, ``assistant/review/findings.py``).

Uploaded session source says: one verbatim uploaded sentence per finding that rests on one,
with its source title and anchor. Assessment / synthesis: one line per criterion, named as the
package names it, with its finding label (pass, concern, blocker, missing evidence) and the P
and U ids it rests on; a blocker quotes the package rule it breaks; an aspect the question asked
about that no criterion covers is "not covered", citing the package's own row for that label.
Missing evidence / owner decision needed: every criterion not evidenced, by name, with its
package citation and the owner who decides, and each not covered aspect with its next step.
"""

from __future__ import annotations

from assistant.domain.lane_labels import neutralise
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.package.sentences import split_sentences
from assistant.review.criterion_assessment import (
    CONTRADICTED,
    MISSING,
    NOT_COVERED,
    PARTIAL,
    PRESENT,
    Check,
)
from assistant.review.findings import FINDING_LABEL


def inert(text: str) -> str:
    """User text made safe to quote in a lane: one line, no bracket that could read as a citation."""
    return " ".join(text.split()).replace("[", "(").replace("]", ")")


def _ref(request: ProviderRequest, cid: str) -> SourceRef | None:
    return next((r for r in request.uploaded_refs if r.citation_id == cid), None)


def _ids(*ids: str) -> str:
    return "[" + ", ".join(i for i in dict.fromkeys(ids) if i) + "]"


def uploaded_lane(request: ProviderRequest, checks: tuple[Check, ...]) -> str:
    paragraphs: list[str] = []
    quoted: set[str] = set()
    for c in checks:
        if c.evidence is None or not c.evidence_id or c.evidence.text in quoted:
            continue
        # A sentence a page break cuts is cited by both excerpts it runs across.
        ref = _ref(request, c.evidence_id)
        title = neutralise(inert(str(ref.meta.get("display_title", ref.title)))) if ref else ""
        quoted.add(c.evidence.text)
        paragraphs.append(
            f'{title}, {inert(c.evidence.anchor)}: "{inert(c.evidence.text)}" '
            f"{_ids(c.evidence_id, c.continued_id)}"
        )
    if not paragraphs:
        # No sentence evidences a criterion (the Assessment lane says so, criterion by criterion):
        # this lane still only says what the upload says, with the first sentence sent, verbatim;
        # in an excerpt of short lines only (no sentence to split), its first line, so that a
        # quote never runs separate lines together as one.
        first = request.uploaded_refs[0]
        title = neutralise(inert(str(first.meta.get("display_title", first.title))))
        sentence = next(iter(split_sentences(first.text)), _first_line(first.text))
        paragraphs.append(
            f'{title}, {inert(str(first.meta.get("anchor", "")))}: "{inert(sentence)}" '
            f"[{first.citation_id}]"
        )
    return "\n\n".join(paragraphs)


def _first_line(text: str) -> str:
    return next((line.strip() for line in text.split("\n") if line.strip()), "")


def _where(c: Check) -> str:
    if c.evidence is None:
        return ""
    if c.evidence_id:
        return f"{_ids(c.evidence_id, c.continued_id)} ({inert(c.evidence.anchor)})"
    return f"at {inert(c.evidence.anchor)}, outside the excerpts sent"


def assessment_lane(request: ProviderRequest, checks: tuple[Check, ...]) -> str:
    lines: list[str] = []
    for c in checks:
        label = FINDING_LABEL[c.status]
        name = f"{c.criterion.name} [{c.pid}]"
        if c.status == NOT_COVERED:
            # The aspect is the asker's words, not a source's: the lane says what the package
            # holds and the review checklist names the aspect (a claim must rest on its sources).
            if not any(line.startswith(f"- {label}:") for line in lines):
                meaning = c.criterion.evidence_expected
                lines.append(
                    f"- {label}: {meaning[:1].lower()}{meaning[1:]} [{c.pid}]; the review "
                    "checklist names what the question asked about."
                )
        elif c.status == CONTRADICTED and c.prohibition is not None:
            lines.append(
                f"- {label}: {name} — contradicted by the upload {_where(c)}; the package rule: "
                f'"{c.prohibition.rule}" {_ids(c.rule_pid or c.pid)}.'
            )
        elif c.status == PRESENT:
            lines.append(f"- {label}: {name} — evidenced in the upload {_where(c)}.")
        elif c.status == PARTIAL:
            lines.append(
                f"- {label}: {name} — only partly evidenced {_where(c)}; evidence expected: "
                f"{c.criterion.evidence_expected}."
            )
        else:
            lines.append(
                f"- {label}: {name} — not found in the upload (every uploaded sentence was read); "
                f"evidence expected: {c.criterion.evidence_expected}."
            )
    # Every line is a finding tied to its citations; that the review approves nothing is said
    # once, in the missing-evidence lane, and by the run's derivative-output label.
    return "\n".join(lines)


def missing_lane(request: ProviderRequest, checks: tuple[Check, ...]) -> str:
    lines = []
    owners: dict[str, str] = {}
    for c in checks:
        if c.status == PRESENT:
            continue
        owner = c.criterion.confirmed_by
        if c.status != NOT_COVERED:
            owners.setdefault(owner, c.pid)
        if c.status == CONTRADICTED:
            lines.append(
                f"- Blocker to resolve: {c.criterion.name} {_ids(c.pid, c.rule_pid)}; decided by {owner}."
            )
        elif c.status == PARTIAL:
            lines.append(
                f"- Evidence to complete: {c.criterion.name} [{c.pid}]; decided by {owner}."
            )
        elif c.status == MISSING:
            lines.append(
                f"- Missing: {c.criterion.name} [{c.pid}], not found in the upload; decided by {owner}."
            )
        elif c.status == NOT_COVERED and not any(x.startswith("- Not covered") for x in lines):
            lines.append(f"- Not covered [{c.pid}]: {owner[0].lower() + owner[1:]}.")
    if not lines:
        first = checks[0].pid
        return (
            f"- No criterion is missing evidence in the upload [{first}].\n\nOwner decision needed: the "
            f"owners named in the criteria [{first}] decide what the findings mean; this review approves nothing."
        )
    if not owners:
        return "\n".join(lines) + (
            f"\n\nOwner decision needed: no declared criterion is missing evidence [{checks[0].pid}]; "
            "the reviewer names the owner who decides each not covered aspect. This review "
            "approves nothing."
        )
    named = ", ".join(f"{owner} [{pid}]" for owner, pid in owners.items())
    return "\n".join(lines) + (
        f"\n\nOwner decision needed: {named}. This review approves nothing; these owners decide "
        "what the findings mean for the proposal."
    )
