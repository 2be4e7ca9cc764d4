"""Session uploads in a real browser: upload a draft, review it against the package, leak nothing.

Runs once the session-upload store exists (skipped only while ``uploads.store`` is absent). The
page's script sends the file to the session-source API on the same origin; the review that follows
must show uploaded/session citations in their own labelled group, apart from package citations.
"""

from __future__ import annotations

import pytest

from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

pytest.importorskip(
    "uploads.store", reason="the session-upload store (branch `uploads`) is not in this tree"
)

DRAFT = (
    b"# Fraud triage assistant: proof of concept proposal\n\n"
    b"## Stage gates\n\n"
    b"The product owner owns the stage gate decision for this proof of concept and records it.\n\n"
    b"## Data\n\n"
    b"The pilot reads anonymised case notes only.\n"
)


def test_upload_a_draft_and_get_uploaded_citations_in_their_own_group(
    session, browser_reviewer
) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    page.locator("#upload-file").set_input_files(
        {"name": "fraud-triage-poc.md", "mimeType": "text/markdown", "buffer": DRAFT}
    )
    with page.expect_navigation():
        page.get_by_role("button", name="Upload as session source").click()
    card = page.locator(".source-card")
    assert card.count() == 1
    assert "fraud-triage-poc.md" in card.inner_text()
    session.screenshot("uploaded")

    choice = page.locator('input[name="session_source_ids"]')
    assert choice.count() == 1
    choice.check()
    session.ask("who owns the stage gate decision?")
    groups = page.eval_on_selector_all(
        "section.citations",
        "els => els.map(e => [e.getAttribute('aria-label'), e.dataset.citationClass])",
    )
    assert ["Uploaded/session citations", "uploaded/session citation"] in groups
    assert ["Package citations", "package citation"] in groups
    uploaded = page.locator("section.citations-uploaded li.citation")
    assert uploaded.count() >= 1
    assert set(uploaded.locator(".citation-class").all_text_contents()) == {
        "uploaded/session citation"
    }
    assert page.get_by_role("region", name="Uploaded session source says").is_visible()
    styles = page.eval_on_selector_all(
        "section.citations",
        "els => els.map(e => getComputedStyle(e).borderTopStyle)",
    )
    assert len(set(styles)) == len(styles), "each citation group must look different"
    session.screenshot("reviewed")
    assert any("/api/session-sources" in url for url in session.requests)
    session.assert_clean()


def test_a_dropped_file_uploads_with_progress_and_is_confirmed(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    hint = page.locator("#upload-drop-hint")
    assert hint.is_visible()  # shown only when the script can take a drop
    steps: list[str] = []
    page.expose_function("__aicdStep", lambda text: steps.append(text))
    page.evaluate(
        """() => new MutationObserver(() => window.__aicdStep(
             document.getElementById('upload-progress-text').textContent))
           .observe(document.getElementById('upload-progress-text'), {childList: true})"""
    )
    drop = page.evaluate_handle(
        """(text) => { const dt = new DataTransfer();
             dt.items.add(new File([text], 'dropped-poc.md', {type: 'text/markdown'}));
             return dt; }""",
        DRAFT.decode(),
    )
    page.dispatch_event("#upload-drop", "dragenter", {"dataTransfer": drop})
    assert "drop-active" in (page.get_attribute("#upload-drop", "class") or "")
    session.screenshot("drop-hover")
    with page.expect_navigation():
        page.dispatch_event("#upload-drop", "drop", {"dataTransfer": drop})
    page.wait_for_load_state()
    confirmation = page.locator("#upload-added")
    assert confirmation.is_visible()
    assert confirmation.inner_text().startswith("Added dropped-poc.md as session-file-001 (")
    assert page.locator(".source-card").count() == 1
    assert any(s.startswith("Uploading dropped-poc.md") for s in steps), steps
    session.screenshot_of(page.locator("#session-sources"), "dropped-confirmed")
    session.assert_clean()


def test_the_form_path_without_script_confirms_too(browser, live_server, browser_reviewer) -> None:
    from tests.browser.harness import open_session

    context_args = {"java_script_enabled": False}
    session = open_session(browser, live_server.url, "no-script-upload", **context_args)
    try:
        session.sign_in("rita", PASSWORD)
        page = session.page
        assert not page.locator("#upload-drop-hint").is_visible()
        page.locator("#upload-file").set_input_files(
            {"name": "form-poc.md", "mimeType": "text/markdown", "buffer": DRAFT}
        )
        with page.expect_navigation():
            page.get_by_role("button", name="Upload as session source").click()
        message = page.locator(".upload-message").first
        assert message.inner_text().startswith("Added form-poc.md as session-file-001 (")
        assert not any("/api/session-sources" in url for url in session.requests)
        session.screenshot("no-script-confirmed")
        assert session.off_origin == [] and session.console_errors == []
    finally:
        session.context.close()
