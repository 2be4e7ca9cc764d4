"""A first-time reviewer's walk in Chromium: a run's address, the answer in view, the reader's
cited passage, history and sources that say what they do, next steps, and the small things.

Each state writes a screenshot to test-artifacts/screenshots/ (git-ignored); the "in view"
ones are of the viewport only, as the person sees it without scrolling. Every test ends with
``assert_clean()``: no off-origin request, no CSP violation, no console error.
"""

from __future__ import annotations

import json
import re
import uuid

import pytest
from django.contrib.auth.models import Permission

from tests.browser.conftest import PASSWORD
from tests.browser.harness import BrowserSession
from tests.registry_review.conftest import nist_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_SCOPE = "who owns each stage gate?"
READINESS = "is there anything we should sort out before engineers start coding the prototype?"
NOT_COVERED = "how do we configure Bedrock guardrails?"
RUN_ADDRESS = re.compile(r"/runs/([0-9a-f-]{36})#result-heading$")
VIEWPORTS = {"desktop": (1366, 900), "phone": (360, 780)}


def run_id_of(session: BrowserSession) -> str:
    found = RUN_ADDRESS.search(session.page.url)
    assert found, f"not at a run's address: {session.page.url}"
    return found.group(1)


def history_count(session: BrowserSession) -> int:
    return session.page.locator("#history .history-item").count()


def focused(session: BrowserSession) -> dict[str, str]:
    return session.page.evaluate(
        "() => { const e = document.activeElement;"
        " return {tag: e.tagName, id: e.id, cls: e.className || '', text: e.textContent}; }"
    )


def add_paste(session: BrowserSession, title: str, text: str) -> None:
    page = session.page
    page.get_by_label("Paste title").fill(title)
    page.get_by_label("Pasted text").fill(text)
    with page.expect_navigation():
        page.get_by_role("button", name="Add pasted text").click()


def test_asking_redirects_and_reload_or_back_never_asks_again(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    with page.expect_response(lambda r: r.request.method == "POST") as posted:
        session.ask(IN_SCOPE)
    assert posted.value.status == 303
    first = run_id_of(session)
    assert page.locator("#result").get_attribute("data-run-id") == first
    assert history_count(session) == 1
    session.screenshot("01-answered")

    reloaded = page.reload()
    assert reloaded is not None and reloaded.request.method == "GET" and reloaded.status == 200
    assert run_id_of(session) == first
    assert history_count(session) == 1, "a reload asked the question again"

    session.ask("what's the weather in Paris?")
    second = run_id_of(session)
    assert second != first and history_count(session) == 2

    back = page.go_back()
    assert back is not None and back.status == 200 and back.request.method == "GET"
    assert run_id_of(session) == first
    assert page.locator("#result-heading").inner_text() == "Answer"
    assert page.locator("#result").get_attribute("data-run-id") == first
    assert page.get_by_label("Question", exact=True).input_value() == IN_SCOPE
    assert history_count(session) == 2
    session.screenshot("02-back-to-the-first-answer")
    forward = page.go_forward()
    assert forward is not None and forward.status == 200
    assert run_id_of(session) == second and history_count(session) == 2
    session.assert_clean()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_first_line_of_the_answer_is_in_view_after_ask(
    session, browser_reviewer, viewport
) -> None:
    width, height = VIEWPORTS[viewport]
    session.page.set_viewport_size({"width": width, "height": height})
    session.sign_in("rita", PASSWORD)
    page = session.page
    session.ask(IN_SCOPE)
    heading = page.locator("#result-heading").bounding_box()
    first_line = page.locator("section.lane p").first.bounding_box()
    line_height = page.locator("section.lane p").first.evaluate(
        "e => parseFloat(getComputedStyle(e).lineHeight)"
    )
    assert heading is not None and first_line is not None
    assert 0 <= heading["y"] < first_line["y"]
    assert first_line["y"] + line_height <= height, "the answer's first line is below the fold"
    assert session.horizontal_overflow() == 0
    session.screenshot_of_view(f"answer-in-view-{viewport}")
    session.assert_clean()


def test_focus_lands_on_the_answer_and_one_tab_reaches_the_first_citation(
    session, browser_reviewer
) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    session.ask(IN_SCOPE)
    assert focused(session)["id"] == "result-heading"
    page.keyboard.press("Tab")
    now = focused(session)
    assert now["tag"] == "A" and "cite" in now["cls"] and now["text"] == "P1"
    session.screenshot_of_view("tab-to-first-citation")
    session.assert_clean()


def test_ctrl_enter_asks_and_the_shortcut_is_announced(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    box = page.get_by_label("Question", exact=True)
    hint = page.locator("#question-key-hint")
    assert hint.is_visible() and "Ctrl" in hint.inner_text() and "Enter" in hint.inner_text()
    assert "Control+Enter" in (box.get_attribute("aria-keyshortcuts") or "")
    assert "question-key-hint" in (box.get_attribute("aria-describedby") or "").split()
    box.fill("who owns")
    box.press("Enter")  # Enter alone adds a line
    assert box.input_value() == "who owns\n" and page.url == session.url("/")
    box.fill(IN_SCOPE)
    session.screenshot_of_view("shortcut-hint")
    with page.expect_navigation():
        box.press("Control+Enter")
    run_id_of(session)
    assert page.locator("#result-heading").inner_text() == "Answer"
    session.assert_clean()


def test_an_inline_citation_number_opens_its_citation(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    session.ask(IN_SCOPE)
    citation = page.locator("li#cite-P1 details")
    assert citation.get_attribute("open") is None
    page.locator("section.lane a.cite-package", has_text="P1").first.click()
    assert citation.get_attribute("open") is not None
    assert page.locator("li#cite-P1 blockquote").is_visible()
    assert focused(session)["tag"] == "SUMMARY"
    session.screenshot_of_view("inline-citation-opened")
    session.assert_clean()


@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_reader_shows_the_cited_heading_and_marks_every_sentence_used(
    session, browser_reviewer, viewport
) -> None:
    width, height = VIEWPORTS[viewport]
    session.page.set_viewport_size({"width": width, "height": height})
    session.sign_in("rita", PASSWORD)
    page = session.page
    session.ask(READINESS)
    lane = " ".join(page.locator("section.lane").first.inner_text().split())
    used = "Before engineers start coding a prototype or proof of concept, the team should have"
    assert used in lane  # the answer uses a sentence the clipped excerpt leaves out
    item = page.locator("section.citations-package li.citation").first
    item.locator("summary").click()
    excerpt = " ".join(item.locator("blockquote").inner_text().split())
    assert used not in excerpt
    with page.expect_navigation():
        item.get_by_role("link", name="Open in reader").click()
    anchor = page.url.rsplit("#", 1)[1]
    bar = page.locator(".reader-nav").bounding_box()
    heading = page.locator(f"#{anchor}").bounding_box()
    assert bar is not None and heading is not None
    assert heading["y"] >= bar["y"] + bar["height"] - 1, "the sticky bar covers the heading"
    assert heading["y"] + heading["height"] <= height
    marked = " ".join(" ".join(page.locator("mark.cited").all_inner_texts()).split())
    assert used in marked, "a sentence the answer used is not marked"
    for sentence in excerpt.removesuffix("…").split(". ")[:-1]:
        assert sentence in marked
    # The clipped end of the excerpt is marked to its full stop, not cut mid-sentence.
    clipped = excerpt.removesuffix("…").split(". ")[-1]
    holder = next(m for m in page.locator("mark.cited").all_inner_texts() if clipped in m)
    assert holder.rstrip().endswith(".")
    session.screenshot_of_view(f"reader-cited-{viewport}")
    session.assert_clean()


def test_removing_a_source_keeps_its_review_listed_and_asks_first(
    session, browser_reviewer
) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    add_paste(session, "Gate minutes", "The product owner owns the stage gate decision.")
    session.ask("who owns the stage gate decision?")
    review = run_id_of(session)
    card = page.locator(".source-card")
    remove = card.get_by_text("Remove", exact=False).first
    remove.click()  # the first step only says what goes
    step = card.locator(".confirm-body")
    assert step.is_visible()
    assert "Remove “Gate minutes” and its extracted text" in step.inner_text()
    assert "marked “source removed”" in step.inner_text()
    assert page.locator(".source-card").count() == 1
    session.screenshot_of(card, "remove-confirm")
    with page.expect_navigation():
        step.get_by_role("button", name="Yes, remove “Gate minutes”").click()
    assert page.locator(".source-card").count() == 0
    notice = page.locator(".upload-message", has_text="Removed")
    assert notice.inner_text().startswith("Removed “Gate minutes” from this session.")
    assert "session-paste-001" not in notice.inner_text()
    item = page.locator("#history .history-item").first
    assert item.locator(".source-removed").inner_text() == "source removed"
    session.screenshot("source-removed-history")
    with page.expect_navigation():
        item.get_by_role("link").click()
    assert run_id_of(session) == review
    assert (
        page.locator("#result-heading").inner_text() == "This answer went with its session source"
    )
    assert "The product owner owns the stage gate decision." not in page.content()
    session.screenshot_of_view("source-removed-run")
    session.assert_clean()


def test_clear_all_and_clear_history_ask_first_and_say_what_goes(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    add_paste(session, "Gate minutes", "The product owner owns the stage gate decision.")
    session.ask(IN_SCOPE)
    page.get_by_text("Clear all session sources…").click()
    step = page.locator("#clear-sources-confirm .confirm-body")
    assert "(“Gate minutes”)" in step.inner_text()
    assert page.locator(".source-card").count() == 1
    session.screenshot_of(page.locator("#clear-sources-confirm"), "clear-sources-confirm")
    with page.expect_navigation():
        step.get_by_role("button", name="Yes, clear all session sources").click()
    assert page.locator(".source-card").count() == 0
    assert page.get_by_text(
        "Cleared 1 session source from this session: “Gate minutes”."
    ).is_visible()

    limit = page.locator("#history-limit")
    assert "The last 10 questions are kept" in limit.inner_text()
    page.get_by_text("Clear this session's history…").click()
    assert history_count(session) == 1
    assert (
        "forgets the question and answer listed above"
        in page.locator("#clear-history-confirm .confirm-body").inner_text()
    )
    session.screenshot_of(page.locator("#history"), "clear-history-confirm")
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, clear the history").click()
    assert page.locator("#history").count() == 0
    session.assert_clean()


def test_an_unknown_or_another_users_run_is_a_404_in_the_site_frame(
    browser, live_server, session, browser_reviewer, django_user_model
) -> None:
    from tests.browser.harness import open_session

    session.sign_in("rita", PASSWORD)
    session.ask(IN_SCOPE)
    address = session.page.url
    response = session.page.goto(session.url(f"/runs/{uuid.uuid4()}"))
    assert response is not None and response.status == 404
    assert session.page.get_by_role("heading", name="There is no page at this address").is_visible()
    assert session.page.locator(".site-header").is_visible()
    session.screenshot("unknown-run-404")

    django_user_model.objects.create_user(username="olga", password=PASSWORD)
    other = open_session(browser, live_server.url, "other-user")
    try:
        other.sign_in("olga", PASSWORD)
        response = other.page.goto(address)
        assert response is not None and response.status == 404
        assert other.page.locator("[data-run-id]").count() == 0
        other.console_errors.clear()  # Chromium logs the 404 status itself
        other.assert_clean()
    finally:
        other.context.close()
    assert [e.split("status of ")[-1] for e in session.console_errors] == ["404 (Not Found)"]
    session.console_errors.clear()
    session.assert_clean()


def test_dead_ends_say_what_to_do_next(session, browser_reviewer, settings) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    note = page.locator("#id_mode_1-note")
    assert "An operator enables current context on the server" in note.inner_text()
    assert "docs/operations.md" in note.inner_text()
    assert (
        page.get_by_role("radio", name="Package + current context").get_attribute(
            "aria-describedby"
        )
        == "id_mode_1-note"
    )
    session.screenshot_of(page.locator("fieldset.modes"), "current-disabled-says-who")
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    session.ask(NOT_COVERED)
    assert page.locator(".refusal").get_attribute("data-pattern") == "no_package_support"
    step = page.locator(".next-step").inner_text()
    assert "This server also offers Package + current context" in step
    session.screenshot_of(page.locator("#result"), "not-covered-mentions-current")
    session.assert_clean()


def test_the_privacy_notice_folds_after_its_first_reading(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    notice = page.locator("details#privacy-notice")
    assert notice.get_attribute("open") is not None
    assert notice.get_by_text("not added to the approved package corpus", exact=False).is_visible()
    session.screenshot_of(page.locator("aside.workspace-side"), "privacy-first-time")
    session.ask(IN_SCOPE)
    assert notice.get_attribute("open") is None
    assert not notice.get_by_text(
        "not added to the approved package corpus", exact=False
    ).is_visible()
    session.screenshot_of(page.locator("aside.workspace-side"), "privacy-folded")
    notice.locator("summary").click()
    assert notice.get_by_text("not added to the approved package corpus", exact=False).is_visible()
    session.assert_clean()


def test_the_package_version_reads_as_the_package_declares_it(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    session.goto("/html/")
    page = session.page
    assert page.locator(".package-version").inner_text() == "1.4.0"
    assert re.search(r"Content hash of this build: [0-9a-f]{12}", page.inner_text("main"))
    session.screenshot_of(page.locator("main .card").first, "package-version")
    session.goto("/html/build-readiness.md")
    assert page.locator(".package-version").inner_text() == "1.4.0"
    session.assert_clean()


def test_the_registry_report_fits_a_desktop_without_sideways_scrolling(
    session, django_user_model
) -> None:
    owner = django_user_model.objects.create_user(username="sam", password=PASSWORD)
    owner.user_permissions.add(Permission.objects.get(codename="review_registry"))
    page = session.page
    page.set_viewport_size({"width": 1366, "height": 900})
    session.sign_in("sam", PASSWORD)
    session.goto("/registry-review/")
    long_url = "http://www.nist.gov/itl/" + "/".join(["a-long-path-segment"] * 5)
    registry = {"sources": [nist_record(), nist_record(id="plain-http", url=long_url)]}
    page.locator("#id_registry_json").fill(json.dumps(registry, indent=2))
    with page.expect_navigation():
        page.get_by_role("button", name="Validate").click()
    assert page.locator("tr.record").count() == 2
    assert session.horizontal_overflow() == 0
    scroller = page.evaluate(
        "() => { const s = document.querySelector('.table-scroll');"
        " return s.scrollWidth - s.clientWidth; }"
    )
    assert scroller == 0, "the report table scrolls sideways"
    url = page.locator("tr.record td.url code").first.bounding_box()
    assert url is not None and url["width"] >= 150, "the URL wraps one character per line"
    session.screenshot_of(page.locator("#report"), "registry-report-desktop")
    session.assert_clean()
