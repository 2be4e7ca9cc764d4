"""The review packet: one run, as a document a reviewer takes away (Markdown or DOCX), never stored.

The packet is built from a run body (``Run.to_dict()``, as this session's history holds it) when
it is asked for, written to memory and returned; nothing of it reaches the database or a disk.
Its sections are the seed's: source lanes, citation classes, missing evidence, refusal or
narrowing notes, token/cost summary and the derivative-output label, with the review checklist
when the run reviewed a draft.
"""

from __future__ import annotations

import io
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from assistant.domain.modes import MODE_DISPLAY_NAMES, Mode
from assistant.package.declared_version import VersionLabel
from assistant.web import (
    citation_groups,
    presentation,
    refusal_guidance,
    review_checklist,
    run_details,
)

#: The packet's author, in the document and in the DOCX properties: the packet is derivative
#: output of the assistant, which a reviewer then reads and signs.
AUTHOR = "AICD source-grounded assistant"

MARKDOWN = "md"
DOCX = "docx"
FORMATS = {
    MARKDOWN: "text/markdown; charset=utf-8",
    DOCX: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
}
# Characters XML 1.0 cannot hold (python-docx refuses them); upload text may carry some.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


@dataclass(frozen=True)
class Table:
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]


@dataclass
class Section:
    """A heading with its blocks: paragraphs (str), bullet lists (list of str) and tables."""

    heading: str
    blocks: list[str | list[str] | Table] = field(default_factory=list)


@dataclass(frozen=True)
class Packet:
    title: str
    sections: tuple[Section, ...]
    made_at: datetime = field(default_factory=lambda: datetime.now(UTC))


def filename(run_id: str, fmt: str) -> str:
    return f"review-packet-{run_id[:8]}.{fmt}"


# ------------------------------------------------------------------------ content
def _when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def _version_text(content_hash: str | None, served: VersionLabel | None) -> str:
    """The run's package version: as the package declares it when the run read the package
    this server serves now, else the content hash the run read."""
    if not content_hash:
        return "not read (refused before the package was searched)"
    if served is not None and served.content_hash == content_hash:
        return served.text
    return f"content hash {content_hash}"


def _run_section(
    body: dict[str, Any],
    question: str,
    *,
    made_at: datetime,
    asked_at: datetime | None,
    version: VersionLabel | None,
) -> Section:
    state = {"answered": "answered", "refused": "not answered", "diagnostic": "diagnostic"}
    content_hash = (body["telemetry"].get("source_freshness") or {}).get("package_version")
    facts = [
        f"Question: {question}",
        f"Mode: {MODE_DISPLAY_NAMES[Mode(body['mode'])]}",
        f"Outcome: {state.get(body['state'], body['state'])}",
        f"Run reference: {body['run_id']}",
        f"Package version: {_version_text(content_hash, version)}",
    ]
    if asked_at is not None:
        facts.append(f"Asked: {_when(asked_at)}")
    facts += [f"Packet made: {_when(made_at)}", f"Made by: {AUTHOR}"]
    return Section("This run", [facts])


def _checklist_section(body: dict[str, Any]) -> Section | None:
    checklist = review_checklist.checklist(body)
    if checklist is None:
        return None
    summary = ", ".join(f"{s['count']} {s['label']}" for s in checklist["summary"])
    rows = []
    for row in checklist["rows"]:
        evidence = row["evidence"]
        if evidence:
            where = f"{evidence['display_title']}, {evidence['location']}"
            ids = [evidence["citation_id"], evidence.get("continued_citation_id", "")]
            cited = f" [{', '.join(i for i in ids if i)}]" if evidence["citation_id"] else ""
            shown = f"“{evidence['text']}” ({where}){cited}"
        elif row["status_css"] == "not-covered":
            shown = f"Not covered: {row['evidence_expected']}."
        else:
            shown = f"Not found in the draft. Expected: {row['evidence_expected']}"
        if row.get("reason"):
            shown += f" Why: {row['reason']}."
        if row["rule"]:
            shown += f" Package rule: “{row['rule']['text']}”"
        if row["not_evidence"]:
            shown += f" Not evidence: {_not_evidence_line(row['not_evidence'])}"
        package = row["package"]
        pid = f"[{package['citation_id']}] " if package["citation_id"] else ""
        rows.append(
            (
                row["criterion"],
                row["status_label"],
                shown,
                f"{pid}{package['title']}; "
                + ("next step: " if row["status_css"] == "not-covered" else "decided by ")
                + row["confirmed_by"],
            )
        )
    blocks: list[str | list[str] | Table] = [
        f"{summary} (of {checklist['total']}).",
        Table(("Criterion", "Status", "Evidence in the draft", "Package citation"), tuple(rows)),
    ]
    if checklist["not_evidence"]:
        blocks += [
            "Draft sentences that are not evidence:",
            [_not_evidence_line(n) for n in checklist["not_evidence"]],
        ]
    return Section(f"Review checklist: {checklist['draft_kind']}", blocks)


def _not_evidence_line(note: dict[str, str]) -> str:
    """A draft sentence that is never evidence, where it is and why, as the packet reads it."""
    restates = f" ({note['restates']})" if note.get("restates") else ""
    return (
        f"“{note['text']}” ({note['display_title']}, {note['location']}): {note['note']}{restates}."
    )


def _lanes_section(body: dict[str, Any]) -> Section:
    section = Section("Source lanes")
    if not body["lanes"]:
        section.blocks.append("No answer lanes: this run shows no answer text.")
    for lane in body["lanes"]:
        section.blocks.append(f"{lane['label']}:")
        section.blocks.extend(p.strip() for p in lane["text"].split("\n\n") if p.strip())
    return section


def _citation_line(c: dict[str, Any]) -> str:
    where = []
    if c.get("reader_target"):
        where.append(f"reader {c['reader_target']}")
    if c.get("url"):
        where.append(str(c["url"]))
    if c.get("trust_label"):
        where.append(f"trust {c['trust_label']}, freshness {c.get('freshness_label', '')}")
    if c.get("display_title"):
        where.append(str(c["display_title"]))
    if c.get("anchor_label"):
        where.append(str(c["anchor_label"]))
    suffix = f" ({'; '.join(where)})" if where else ""
    return f"[{c['id']}] {c['title']}{suffix}: “{c['excerpt']}”"


def _citations_section(body: dict[str, Any]) -> Section:
    section = Section("Citation classes")
    groups = citation_groups.citation_groups(body)
    if not groups:
        section.blocks.append("No citations: nothing was cited for this run.")
    for group in groups:
        section.blocks.append(f"{group['label']} ({group['count']}):")
        if group["note"]:
            section.blocks.append(group["note"])
        for artifact in group["artifacts"]:
            section.blocks.append(
                [_citation_line(c) for c in artifact["entries"]]
                + [f"Claim boundary of {artifact['title']}: {artifact['claim_boundary']}"]
            )
    return section


def _missing_section(body: dict[str, Any]) -> Section:
    section = Section("Missing evidence")
    review = body.get("review") or {}
    items = []
    for f in review.get("criteria", []):
        if f["status"] == "present":
            continue
        label = review_checklist.CHECKLIST_STATUS.get(f["status"], ("not covered", ""))[0]
        if f["status"] == "not_covered":
            items.append(f"{f['criterion']} ({label}): {f['confirmed_by']}.")
            continue
        items.append(
            f"{f['criterion']} ({label}): evidence expected: {f['evidence_expected']}; "
            f"decided by {f['confirmed_by']}."
        )
    if items:
        section.blocks.append(items)
        return section
    lane = next((x for x in body["lanes"] if x["label"].startswith("Missing evidence")), None)
    if lane is not None:
        section.blocks.extend(p.strip() for p in lane["text"].split("\n\n") if p.strip())
    elif review:
        section.blocks.append("No criterion is missing evidence in the draft.")
    else:
        section.blocks.append("This run did not review a draft, so no evidence was checked.")
    return section


def _notes_section(body: dict[str, Any]) -> Section:
    section = Section("Refusal or narrowing notes")
    notes = []
    refusal = body.get("refusal")
    if refusal:
        title = refusal_guidance.REFUSAL_TITLES.get(refusal["pattern"], "Not answered")
        notes.append(f"{title} ({refusal['pattern']}): {refusal['message']}")
    for n in body["notices"]:
        title = presentation.NOTICE_TITLES.get(n["pattern"], "Note")
        notes.append(f"{title} ({n['pattern']}): {n['message']}")
    if body.get("diagnostic"):
        notes.append(f"Diagnostic: {body['diagnostic']}")
    section.blocks.append(notes or ["None: the run was neither refused nor narrowed."])
    return section


def _tokens_section(body: dict[str, Any]) -> Section:
    t = body["telemetry"]
    tokens = t.get("tokens") or {}
    rows = tuple(
        (run_details.TOKEN_WORDS.get(k, k.replace("_", " ").capitalize()), str(v))
        for k, v in tokens.items()
    )
    cost = t.get("estimated_cost")
    cost_text = (
        ", ".join(f"{k}: {v}" for k, v in cost.items())
        if isinstance(cost, dict) and cost
        else "Not estimated: no token prices are configured."
    )
    return Section(
        "Token and cost summary",
        [
            Table(("Tokens", "Count"), rows),
            f"Estimated cost: {cost_text}",
            f"Answer provider: {t.get('provider', '')} / {t.get('model', '')}",
        ],
    )


def build(
    body: dict[str, Any],
    *,
    question: str,
    asked_at: datetime | None = None,
    version: VersionLabel | None = None,
    made_at: datetime | None = None,
) -> Packet:
    """The packet's sections for one run body and the question it answered.

    ``asked_at`` is when the run was asked, ``version`` how the package this server serves shows
    its version, ``made_at`` when the packet is made (now, by default).
    """
    made_at = made_at or datetime.now(UTC)
    sections = [_run_section(body, question, made_at=made_at, asked_at=asked_at, version=version)]
    checklist = _checklist_section(body)
    if checklist is not None:
        sections.append(checklist)
    sections += [
        _lanes_section(body),
        _citations_section(body),
        _missing_section(body),
        _notes_section(body),
        _tokens_section(body),
        Section("Derivative-output label", [body["derivative_output_label"]]),
    ]
    return Packet(title="AICD review packet", sections=tuple(sections), made_at=made_at)


# ------------------------------------------------------------------------ writers
def _md_cell(text: str) -> str:
    return " ".join(text.split()).replace("|", "\\|")


def to_markdown(packet: Packet) -> str:
    lines = [f"# {packet.title}", ""]
    for section in packet.sections:
        lines += [f"## {section.heading}", ""]
        for block in section.blocks:
            if isinstance(block, Table):
                lines.append("| " + " | ".join(block.header) + " |")
                lines.append("|" + "---|" * len(block.header))
                lines += ["| " + " | ".join(map(_md_cell, row)) + " |" for row in block.rows]
            elif isinstance(block, list):
                lines += [f"- {' '.join(item.split())}" for item in block]
            else:
                lines.append(block)
            lines.append("")
    return "\n".join(lines)


def _x(text: str) -> str:
    return _NOT_XML.sub("", text)


def to_docx(packet: Packet) -> bytes:
    from docx import Document  # one rare path needs it

    document = Document()
    properties = document.core_properties
    properties.title = packet.title
    properties.author = AUTHOR
    properties.last_modified_by = AUTHOR
    properties.created = packet.made_at
    properties.modified = packet.made_at
    properties.revision = 1
    properties.comments = f"Review packet made by the {AUTHOR}; derivative output, not an approval."
    document.add_heading(packet.title, level=0)
    for section in packet.sections:
        document.add_heading(_x(section.heading), level=1)
        for block in section.blocks:
            if isinstance(block, Table):
                table = document.add_table(rows=1, cols=len(block.header))
                table.style = "Table Grid"
                for cell, text in zip(table.rows[0].cells, block.header, strict=True):
                    cell.text = text
                for row in block.rows:
                    cells = table.add_row().cells
                    for cell, text in zip(cells, row, strict=True):
                        cell.text = _x(text)
            elif isinstance(block, list):
                for item in block:
                    document.add_paragraph(_x(item), style="List Bullet")
            else:
                document.add_paragraph(_x(block))
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def render(
    body: dict[str, Any],
    *,
    question: str,
    fmt: str,
    asked_at: datetime | None = None,
    version: VersionLabel | None = None,
) -> bytes:
    """The packet in ``fmt`` (``md`` or ``docx``) as bytes, built in memory."""
    packet = build(body, question=question, asked_at=asked_at, version=version)
    if fmt == MARKDOWN:
        return to_markdown(packet).encode("utf-8")
    return to_docx(packet)
