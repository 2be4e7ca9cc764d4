"""A draft review as a checklist on the chat page, and its review packet (Markdown and DOCX).

The packet is built from this session's history when asked for: no database row, no file, and
another user's session does not get it.
"""

from __future__ import annotations

import io
import re
from datetime import UTC, datetime
from html import unescape
from pathlib import Path
from tempfile import gettempdir

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from docx import Document

from assistant.pipeline.policy import DERIVATIVE_OUTPUT_LABEL
from assistant.web import history
from tests.uploads.builders import docx_bytes, text_pdf
from tests.uploads.test_review_flow import PRD_PAGES, REVIEW_QUESTION, architecture

SECTIONS = (
    "Review checklist: architecture proposal",
    "Source lanes",
    "Citation classes",
    "Missing evidence",
    "Refusal or narrowing notes",
    "Token and cost summary",
    "Derivative-output label",
)


def _review(client) -> tuple[str, str]:
    for name, data in (
        ("Draft PRD.pdf", text_pdf(PRD_PAGES)),
        ("Architecture proposal.docx", docx_bytes(architecture)),
    ):
        client.post("/session-sources/add", {"file": SimpleUploadedFile(name, data), "title": ""})
    html = client.post(
        "/",
        {
            "mode": "package_only",
            "question": REVIEW_QUESTION,
            "session_source_ids": ["session-file-001", "session-file-002"],
        },
        follow=True,
    ).content.decode()
    run_id = re.search(r'data-run-id="([^"]+)"', html).group(1)
    return html, run_id


def _cells(row_html: str) -> list[str]:
    cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row_html, re.S)
    return [" ".join(unescape(re.sub(r"<[^>]+>", " ", c)).split()) for c in cells]


@pytest.mark.django_db
def test_a_draft_review_renders_as_a_checklist_with_a_summary_and_the_label(
    logged_in_client,
) -> None:
    html, run_id = _review(logged_in_client)
    body = history.find(logged_in_client.session, run_id)["body"]
    findings = body["review"]["criteria"]
    assert {f["criterion"] for f in findings} >= {"Data boundary", "Integration"}
    checklist = html[html.index('id="checklist"') : html.index("</table>")]
    assert DERIVATIVE_OUTPUT_LABEL in checklist
    # The summary counts each status shown in the table.
    rows = re.findall(r'<tr class="finding[^"]*" data-status="([^"]+)">(.*?)</tr>', checklist, re.S)
    assert len(rows) == len(findings)
    summary = checklist[: checklist.index("<table")]
    for label in {status for status, _ in rows}:
        count = sum(1 for status, _ in rows if status == label)
        assert re.search(rf'<span class="status-count">{count}</span> {label}</li>', summary)
    by_name = {_cells(row)[0]: (status, _cells(row)) for status, row in rows}
    status, cells = by_name["Data boundary"]
    assert status == "concern" and cells[1] == "concern"  # partial -> concern, as text
    assert "Data boundary: the assistant reads contracts classified confidential." in cells[2]
    assert "Draft PRD.pdf, page 2" in cells[2]
    package = next(f for f in findings if f["criterion"] == "Data boundary")["package"]
    assert cells[3].startswith(f"[{package['citation_id']}] EA review criteria")
    assert f'href="{package["reader_target"]}"' in checklist
    assert 'class="cite cite-package" href="#cite-P' in checklist
    assert by_name["Integration"][0] == "pass"


@pytest.mark.django_db
def test_markdown_packet_has_the_seed_sections_and_is_not_cached(
    logged_in_client, tmp_path
) -> None:
    _, run_id = _review(logged_in_client)
    response = logged_in_client.get(f"/runs/{run_id}/packet.md")
    assert response.status_code == 200
    assert response["Content-Type"] == "text/markdown; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="review-packet-{run_id[:8]}.md"'
    )
    assert "no-store" in response["Cache-Control"]
    text = response.content.decode()
    headings = re.findall(r"^## (.+)$", text, re.M)
    assert headings[0] == "This run"
    assert tuple(headings[1:]) == SECTIONS
    assert f"Question: {REVIEW_QUESTION}" in text
    # The version the package declares, with the content hash as detail.
    assert re.search(r"^- Package version: 1\.4\.0 \(content hash [0-9a-f]{12}\)$", text, re.M)
    assert "| Data boundary | concern |" in text
    assert "Package citations (" in text and "Uploaded/session citations (" in text
    missing = text.split("## Missing evidence", 1)[1].split("## ", 1)[0]
    assert "Data boundary (concern): evidence expected:" in missing
    assert "Total" in text.split("## Token and cost summary", 1)[1]
    assert text.rstrip().endswith(DERIVATIVE_OUTPUT_LABEL)


@pytest.mark.django_db
def test_docx_packet_parses_back_with_its_sections_and_checklist(logged_in_client) -> None:
    _, run_id = _review(logged_in_client)
    response = logged_in_client.get(f"/runs/{run_id}/packet.docx")
    assert response.status_code == 200
    assert response["Content-Type"].startswith(
        "application/vnd.openxmlformats-officedocument.wordprocessingml"
    )
    assert response["Content-Disposition"] == (
        f'attachment; filename="review-packet-{run_id[:8]}.docx"'
    )
    assert "no-store" in response["Cache-Control"]
    document = Document(io.BytesIO(response.content))
    headings = [p.text for p in document.paragraphs if p.style.name == "Heading 1"]
    assert tuple(headings[1:]) == SECTIONS
    checklist = document.tables[0]
    assert [c.text for c in checklist.rows[0].cells] == [
        "Criterion",
        "Status",
        "Evidence in the draft",
        "Package citation",
    ]
    rows = {r.cells[0].text: r.cells[1].text for r in checklist.rows[1:]}
    assert rows["Data boundary"] == "concern" and rows["Integration"] == "pass"
    assert document.paragraphs[-1].text == DERIVATIVE_OUTPUT_LABEL


@pytest.mark.django_db
def test_packet_is_built_on_request_and_never_stored(logged_in_client, settings) -> None:
    from django.apps import apps
    from django.db import connection

    _, run_id = _review(logged_in_client)
    models = [m for m in apps.get_models() if m._meta.managed]
    before = {m._meta.label: m.objects.count() for m in models}
    with connection.execute_wrapper(_no_writes):
        for fmt in ("md", "docx"):
            assert logged_in_client.get(f"/runs/{run_id}/packet.{fmt}").status_code == 200
    assert {m._meta.label: m.objects.count() for m in models} == before
    for folder in (Path(settings.BASE_DIR), Path(settings.BASE_DIR) / "var", Path(gettempdir())):
        assert not list(folder.glob("review-packet-*")), folder


def _no_writes(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
    assert not sql.lstrip().upper().startswith(("INSERT", "UPDATE", "DELETE")), sql
    return execute(sql, params, many, context)


@pytest.mark.django_db
def test_another_users_session_does_not_get_the_packet(logged_in_client, django_user_model) -> None:
    _, run_id = _review(logged_in_client)
    other = Client()
    other.force_login(django_user_model.objects.create_user(username="otto", password="x-y-z-w"))
    for fmt in ("md", "docx"):
        response = other.get(f"/runs/{run_id}/packet.{fmt}")
        assert response.status_code == 404
        assert REVIEW_QUESTION not in response.content.decode()
    anonymous = Client().get(f"/runs/{run_id}/packet.md")
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


@pytest.mark.django_db
def test_packet_goes_with_the_history_and_takes_only_known_formats(logged_in_client) -> None:
    _, run_id = _review(logged_in_client)
    assert logged_in_client.get(f"/runs/{run_id}/packet.pdf").status_code == 404
    assert logged_in_client.post(f"/runs/{run_id}/packet.md").status_code == 405
    logged_in_client.post("/history/clear")
    assert logged_in_client.get(f"/runs/{run_id}/packet.md").status_code == 404


@pytest.mark.django_db
def test_a_refused_run_packet_carries_its_refusal_note(logged_in_client) -> None:
    html = logged_in_client.post(
        "/", {"mode": "package_only", "question": "approve our vendor for production"}, follow=True
    ).content.decode()
    run_id = re.search(r'data-run-id="([^"]+)"', html).group(1)
    text = logged_in_client.get(f"/runs/{run_id}/packet.md").content.decode()
    notes = text.split("## Refusal or narrowing notes", 1)[1].split("## ", 1)[0]
    assert "Approval is not something this assistant can give" in notes
    assert "Review checklist" not in text
    assert "This run did not review a draft" in text


@pytest.mark.django_db
def test_packets_carry_their_dates_and_the_assistant_as_author(logged_in_client) -> None:
    _, run_id = _review(logged_in_client)
    text = logged_in_client.get(f"/runs/{run_id}/packet.md").content.decode()
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d UTC"
    assert re.search(rf"^- Asked: {stamp}$", text, re.M)
    assert re.search(rf"^- Packet made: {stamp}$", text, re.M)
    assert "- Made by: AICD source-grounded assistant" in text
    properties = Document(
        io.BytesIO(logged_in_client.get(f"/runs/{run_id}/packet.docx").content)
    ).core_properties
    assert properties.author == "AICD source-grounded assistant"
    assert properties.last_modified_by == "AICD source-grounded assistant"
    assert "python-docx" not in f"{properties.author} {properties.comments}"
    made = datetime.now(UTC)
    assert properties.created is not None and abs((made - properties.created).total_seconds()) < 120
    assert properties.title == "AICD review packet"
