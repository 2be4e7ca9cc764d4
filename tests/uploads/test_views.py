"""The chat page's upload panel: notice before upload, limits, cards, Remove / Clear, rejections."""

from __future__ import annotations

import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from tests.uploads.builders import docx_bytes, text_pdf
from tests.uploads.test_review_flow import PRD_PAGES, REVIEW_QUESTION, architecture
from uploads.boundary import PRIVACY_NOTICE


def _page(client) -> str:
    return client.get("/").content.decode()


def _add_file(client, name: str, data: bytes, title: str = ""):
    return client.post(
        "/session-sources/add", {"file": SimpleUploadedFile(name, data), "title": title}
    )


@pytest.mark.django_db
def test_privacy_notice_and_limits_come_before_any_upload_control(logged_in_client) -> None:
    html = _page(logged_in_client)
    notice = html.index(PRIVACY_NOTICE)
    assert notice < html.index('id="upload-form"') < html.index('id="paste-form"')
    for text in (
        "Pasted text: up to 25,000 characters.",
        ".txt and .md files: up to 1 MiB.",
        ".pdf and .docx files: up to 5 MiB and 75 pages or sections.",
        ".csv, .tsv and .json files: up to 2 MiB, 5,000 rows, 100 columns and 250,000 extracted characters.",
        "Per session: 5 files plus 1 pasted text, 20 MiB in total and 120,000 extracted characters.",
    ):
        assert html.index(text) < html.index('id="upload-form"')
    assert 'accept=".txt,.md,.pdf,.docx,.csv,.tsv,.json"' in html
    assert html.index("120,000 of 120,000 extracted characters left") < html.index(
        'id="upload-form"'
    )
    assert '<progress id="upload-progress-bar"' in html and 'src="/static/js/uploads.js"' in html


@pytest.mark.django_db
def test_page_has_no_inline_script_or_style(logged_in_client) -> None:
    html = _page(logged_in_client)
    assert not re.search(r"<script(?![^>]*\bsrc=)[^>]*>", html)
    assert " style=" not in html and "<style" not in html


@pytest.mark.django_db
def test_uploaded_file_gets_an_identity_card_with_every_label(logged_in_client) -> None:
    pdf = text_pdf(PRD_PAGES)
    response = _add_file(logged_in_client, "Draft PRD.pdf", pdf, title="<b>PRD</b> v3")
    assert response.status_code == 302 and response["Location"] == "/#session-sources"
    html = _page(logged_in_client)
    card = html[html.index('id="source-session-file-001"') :]
    card = card[: card.index("</li>")]
    for label in (
        "&lt;b&gt;PRD&lt;/b&gt; v3",
        "User-provided session source",
        "PDF (.pdf)",
        "Status: accepted",
        "Session only",
        "Not approved package corpus",
        "Uploaded/session citation",
        f"{len(pdf)} bytes",
        "Token estimate",
        'action="/session-sources/session-file-001/remove"',
        "csrfmiddlewaretoken",
    ):
        assert label in card, label
    assert "Added &lt;b&gt;PRD&lt;/b&gt; v3 as session-file-001" in html
    assert 'action="/session-sources/clear"' in html
    assert re.search(r'name="session_source_ids" value="session-file-001" checked', html)


@pytest.mark.django_db
def test_rejected_file_is_shown_with_its_reason(logged_in_client) -> None:
    _add_file(logged_in_client, "installer.txt", b"MZ\x90\x00" + bytes(200))
    html = _page(logged_in_client)
    assert re.search(
        r"<strong>Rejected</strong> \(executable\): installer.txt: The file is a Windows executable",
        html,
    )
    assert 'id="source-' not in html


@pytest.mark.django_db
def test_paste_remove_and_clear_through_forms(logged_in_client) -> None:
    logged_in_client.post("/session-sources/add", {"title": "Notes", "text": "Owner: Dana."})
    _add_file(logged_in_client, "a.txt", b"first file")
    html = _page(logged_in_client)
    assert 'id="source-session-paste-001"' in html and 'id="source-session-file-001"' in html
    logged_in_client.post("/session-sources/session-paste-001/remove")
    html = _page(logged_in_client)
    # Notices name a source by its title, never by its internal id.
    assert 'id="source-session-paste-001"' not in html and "Removed “Notes” from this" in html
    assert "Removed session-paste-001" not in html
    logged_in_client.post("/session-sources/clear")
    html = _page(logged_in_client)
    assert 'id="source-' not in html
    assert "Cleared 1 session source from this session: “a.txt”." in html


@pytest.mark.django_db
def test_paste_without_title_is_rejected(logged_in_client) -> None:
    logged_in_client.post("/session-sources/add", {"title": "", "text": "Owner: Dana."})
    assert "A pasted source needs a title." in _page(logged_in_client)


@pytest.mark.django_db
def test_forms_only_accept_post(logged_in_client) -> None:
    assert logged_in_client.get("/session-sources/clear").status_code == 405


@pytest.mark.django_db
def test_review_renders_uploaded_citations_as_their_own_group(logged_in_client) -> None:
    _add_file(logged_in_client, "Draft PRD.pdf", text_pdf(PRD_PAGES))
    _add_file(logged_in_client, "Architecture proposal.docx", docx_bytes(architecture))
    html = logged_in_client.post(
        "/",
        {
            "mode": "package_only",
            "question": REVIEW_QUESTION,
            "session_source_ids": ["session-file-001", "session-file-002"],
        },
        follow=True,
    ).content.decode()
    for lane in (
        "Package says",
        "Uploaded session source says",
        "Assessment / synthesis",
        "Missing evidence / owner decision needed",
    ):
        assert f"<h3>{lane}</h3>" in html
    group = html[html.index('data-citation-class="uploaded/session citation"') :]
    assert "Uploaded/session citations" in group[:200]
    assert '<span class="label anchor">page 2</span>' in group
    assert '<span class="label anchor">page 3</span>' in group  # one citation per finding
    assert "User-provided session source. Not approved package corpus." in group
    assert re.search(r'class="cite cite-uploaded" href="#cite-U\d+"', html)
    assert html.index('data-citation-class="package citation"') < html.index(
        'data-citation-class="uploaded/session citation"'
    )


@pytest.mark.django_db
def test_unchecked_sources_are_not_used_and_unknown_ones_are_an_error(logged_in_client) -> None:
    _add_file(logged_in_client, "Draft PRD.pdf", text_pdf(PRD_PAGES))
    html = logged_in_client.post(
        "/", {"mode": "package_only", "question": REVIEW_QUESTION}, follow=True
    ).content.decode()
    assert "<h3>Uploaded session source says</h3>" not in html
    assert not re.search(r'value="session-file-001" checked', html)
    html = logged_in_client.post(
        "/",
        {
            "mode": "package_only",
            "question": REVIEW_QUESTION,
            "session_source_ids": ["session-file-009"],
        },
        follow=True,
    ).content.decode()
    assert "No session source with that id exists in this session." in html
    assert "<h3>Package says</h3>" not in html


@pytest.mark.django_db
def test_form_uploads_share_the_uploads_throttle(logged_in_client, reviewer, monkeypatch) -> None:
    from django.core.cache import cache
    from rest_framework.throttling import ScopedRateThrottle

    from core.throttling import SharedScopedRateThrottle

    cache.delete(SharedScopedRateThrottle.cache_format % {"scope": "uploads", "ident": reviewer.pk})
    monkeypatch.setattr(ScopedRateThrottle, "THROTTLE_RATES", {"uploads": "1/min"})
    _add_file(logged_in_client, "a.txt", b"first")
    _add_file(logged_in_client, "b.txt", b"second")
    html = _page(logged_in_client)
    assert 'id="source-session-file-001"' in html and 'id="source-session-file-002"' not in html
    assert "(throttled): b.txt: Too many uploads" in html


@pytest.mark.django_db
def test_the_panel_shows_the_remaining_budget_and_what_a_truncated_source_kept(
    logged_in_client,
) -> None:
    from tests.uploads.test_limits import standards_pdf

    _add_file(logged_in_client, "notes.txt", b"Owner: Dana decides scope.")
    html = _page(logged_in_client)
    assert "119,974 of 120,000 extracted characters left" in html
    assert 'data-remaining-chars="119974"' in html
    _add_file(logged_in_client, "standard.pdf", standards_pdf(74))
    html = _page(logged_in_client)
    assert re.search(
        r"Added standard\.pdf as session-file-002 \([\d,]+ characters, truncated: "
        r"kept pages 1-\d+ of 74",
        html,
    )
    assert re.search(r"Kept: pages 1-\d+ of 74", html)
    assert re.search(
        r"<strong>Remaining:</strong> [\d,]+ of 120,000 extracted characters left", html
    )


@pytest.mark.django_db
def test_the_script_path_lands_on_a_confirmation_worded_from_the_record(logged_in_client) -> None:
    response = logged_in_client.post(
        "/api/session-sources",
        {"file": SimpleUploadedFile("api-draft.md", b"# Draft\n\nThe product owner decides.\n")},
    )
    assert response.status_code == 201
    source_id = response.json()["session_source_id"]
    html = logged_in_client.get(f"/?added={source_id}").content.decode()
    assert re.search(rf'id="upload-added">Added api-draft\.md as {source_id} \(\d', html)
    for probe in ("session-file-999", "<b>x</b>"):
        html = logged_in_client.get("/", {"added": probe}).content.decode()
        assert 'id="upload-added"' not in html and "<b>x</b>" not in html


@pytest.mark.django_db
def test_the_privacy_notice_is_open_the_first_time_a_session_shows_it(logged_in_client) -> None:
    def notice(html: str) -> str:
        return re.search(r'<details class="privacy-notice"[^>]*>', html).group(0)

    first = _page(logged_in_client)
    assert " open" in notice(first) and PRIVACY_NOTICE in first
    again = _page(logged_in_client)
    assert " open" not in notice(again)
    assert PRIVACY_NOTICE in again  # folded, never gone: one click reads it
    assert "Before you upload: what happens to your files</summary>" in again


def test_remove_names_the_title_and_clear_lists_the_titles() -> None:
    from django.contrib.sessions.backends.cache import SessionStore

    from uploads import services

    session = SessionStore()
    services.add_paste(session=session, owner="7", title="Meeting notes", text="Owner: Dana.")
    services.add_file(session=session, owner="7", filename="a.txt", data=b"first file")
    assert services.remove(session=session, owner="7", source_id="session-paste-001") == (
        "Meeting notes"
    )
    assert services.clear_titled(session=session, owner="7") == ("a.txt",)
    assert services.clear_titled(session=session, owner="7") == ()
