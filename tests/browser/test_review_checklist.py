"""A draft review in a real browser: the checklist (desktop and phone width) and the packet download."""

from __future__ import annotations

import io

import pytest
from docx import Document

from assistant.pipeline.policy import DERIVATIVE_OUTPUT_LABEL
from tests.browser.conftest import PASSWORD
from tests.uploads.builders import docx_bytes, text_pdf
from tests.uploads.test_review_flow import PRD_PAGES, REVIEW_QUESTION, architecture

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _upload(page, name: str, mime: str, data: bytes) -> None:
    page.locator("#upload-file").set_input_files({"name": name, "mimeType": mime, "buffer": data})
    with page.expect_navigation():
        page.get_by_role("button", name="Upload as session source").click()


def _review(session) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    _upload(page, "Draft PRD.pdf", "application/pdf", text_pdf(PRD_PAGES))
    _upload(
        page,
        "Architecture proposal.docx",
        "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        docx_bytes(architecture),
    )
    for box in page.locator('input[name="session_source_ids"]').all():
        box.check()
    session.ask(REVIEW_QUESTION)


def test_review_reads_as_a_checklist_and_downloads_as_a_packet(session, browser_reviewer) -> None:
    _review(session)
    page = session.page
    checklist = page.get_by_role("region", name="Review checklist: architecture proposal")
    assert checklist.is_visible()
    statuses = checklist.locator("tbody tr").evaluate_all("rows => rows.map(r => r.dataset.status)")
    assert "pass" in statuses and "concern" in statuses and "missing" in statuses
    # Each status is a text label with its own colour.
    colours = {
        s: checklist.locator(f"td .status-{s}").first.evaluate("e => getComputedStyle(e).color")
        for s in ("pass", "concern", "missing")
    }
    assert len(set(colours.values())) == 3
    summary = checklist.locator(".checklist-summary").inner_text()
    assert f"{statuses.count('missing')} missing" in summary
    assert DERIVATIVE_OUTPUT_LABEL in checklist.inner_text()
    checklist.scroll_into_view_if_needed()
    session.screenshot("checklist")
    session.screenshot_of(checklist, "checklist-table")

    with page.expect_download() as md:
        page.get_by_role("link", name="Download packet (Markdown)").click()
    assert md.value.suggested_filename.startswith("review-packet-")
    text = open(md.value.path(), encoding="utf-8").read()
    assert "## Review checklist: architecture proposal" in text
    assert "## Token and cost summary" in text
    with page.expect_download() as docx:
        page.get_by_role("link", name="Download packet (Word)").click()
    assert docx.value.suggested_filename.endswith(".docx")
    document = Document(io.BytesIO(open(docx.value.path(), "rb").read()))
    assert "Missing evidence" in [p.text for p in document.paragraphs]
    session.assert_clean()


def test_checklist_is_one_card_per_criterion_at_phone_width(session, browser_reviewer) -> None:
    _review(session)
    page = session.page
    page.set_viewport_size({"width": 360, "height": 780})
    assert session.horizontal_overflow() == 0
    rows = page.locator(".checklist-table tbody tr")
    first, second = rows.nth(0).bounding_box(), rows.nth(1).bounding_box()
    assert first and second and second["y"] >= first["y"] + first["height"]
    assert first["width"] <= 360
    assert page.locator(".checklist-table thead").bounding_box()["height"] <= 1
    page.locator("#checklist").scroll_into_view_if_needed()
    session.screenshot("phone-checklist")
    session.screenshot_of(page.locator("#checklist"), "phone-checklist-cards")
    session.assert_clean()
