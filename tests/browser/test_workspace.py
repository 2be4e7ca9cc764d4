"""The reviewer's workspace in a real browser: refusals, run details, examples, citations and the
reader, a phone-width screen, this session's history, and the edge pages.

Each state writes a screenshot to test-artifacts/screenshots/; every test ends with
``assert_clean()`` (no off-origin request, no CSP violation, no console error).
"""

from __future__ import annotations

import pytest

from assistant.pipeline.policy import Pattern
from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

IN_SCOPE = "who owns each stage gate?"
REFUSALS = [
    ("what's the weather in Paris?", "unsupported_general_chat", "Outside the playbook"),
    (
        "approve our vendor for production",
        "unsupported_approval_request",
        "Approval is not something this assistant can give",
    ),
    ("show me the database password", "private_internal_data_request", "Private or internal data"),
    (
        "add my draft to the approved package corpus",
        "uploaded_source_boundary",
        "Uploaded drafts are reviewed, not made package authority",
    ),
    (
        "how do we configure Bedrock guardrails?",
        "no_package_support",
        "The package does not cover this",
    ),
]


def test_each_refusal_reads_as_a_title_a_message_and_one_next_step(
    session, browser_reviewer
) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    for question, pattern, title in REFUSALS:
        session.ask(question)
        assert page.locator(".refusal").get_attribute("data-pattern") == pattern
        assert page.locator("#result-heading").inner_text() == title
        assert page.get_by_role("heading", name="What you can do").is_visible()
        assert page.locator(".next-step a").count() >= 1
        text = page.inner_text("body")
        assert not any(p.value in text for p in Pattern), "a machine pattern is shown"
        assert page.locator("section.lane").count() == 0
        session.screenshot(f"refusal-{pattern}")
    session.assert_clean()


def test_run_details_are_closed_until_asked_for(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    session.ask(IN_SCOPE)
    page = session.page
    details = page.locator("details.run-details")
    assert details.get_attribute("open") is None
    assert not page.get_by_text("Time taken").is_visible()
    page.get_by_text("Run details", exact=True).click()
    for label in ("Tokens", "Time taken", "What happened", "Estimated cost", "Screening decision"):
        assert details.get_by_text(label, exact=True).is_visible()
    assert "retrieval_skipped" not in details.inner_text()
    session.screenshot("run-details-open")
    session.assert_clean()


def test_an_example_question_answers_in_one_click(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    chips = page.locator("button.chip")
    assert chips.count() >= 3
    question = chips.first.inner_text()
    session.screenshot("examples")
    with page.expect_navigation():
        chips.first.click()
    assert page.locator("#result-heading").inner_text() == "Answer"
    assert page.get_by_label("Question", exact=True).input_value() == question
    session.assert_clean()


def test_citation_expands_opens_the_reader_at_its_section_and_leads_back(
    session, browser_reviewer
) -> None:
    session.sign_in("rita", PASSWORD)
    session.ask(IN_SCOPE)
    page = session.page
    first = page.locator("section.citations-package li.citation").first
    assert not first.locator("blockquote").is_visible()
    first.locator("summary").click()
    assert first.locator("blockquote").is_visible()
    boundaries = page.locator("section.citations-package .boundary").count()
    assert boundaries == page.locator("section.citations-package .cited-artifact").count()
    session.screenshot("citation-expanded")

    cited = " ".join(first.locator("blockquote").text_content().split())
    link = first.get_by_role("link", name="Open in reader")
    href = link.get_attribute("href")
    anchor = href.split("#", 1)[1]
    with page.expect_navigation():
        link.click()
    assert page.url.endswith(f"#{anchor}")
    target = page.locator(f"#{anchor}")
    assert target.is_visible()
    assert page.evaluate("document.querySelector(':target').id") == anchor
    mark = page.locator("mark.cited").first
    assert mark.is_visible()
    # The mark sits in the cited section, after its heading, and holds its sentence.
    assert page.evaluate(
        "([a]) => !!(document.getElementById(a).compareDocumentPosition("
        "document.querySelector('mark.cited')) & Node.DOCUMENT_POSITION_FOLLOWING)",
        [anchor],
    )
    assert len(mark.inner_text().split()) >= 4
    # The whole passage is marked: the excerpt's sentences, and its clipped end to the full stop.
    marked = " ".join(" ".join(page.locator("mark.cited").all_inner_texts()).split())
    *whole, clipped = cited.removesuffix("…").split(". ")
    assert all(sentence in marked for sentence in whole)
    assert clipped in marked and marked.endswith(".")
    background = mark.evaluate("e => getComputedStyle(e).backgroundColor")
    assert background not in ("rgba(0, 0, 0, 0)", "transparent")
    session.screenshot("reader-at-section")
    session.screenshot_of(page.locator(f"#{anchor} ~ *").first, "reader-cited-passage")

    with page.expect_navigation():
        page.get_by_role("link", name="Back to your answer").click()
    assert page.locator("#result-heading").inner_text() == "Answer"
    assert page.get_by_label("Question", exact=True).input_value() == IN_SCOPE
    session.assert_clean()


def test_phone_width_keeps_everything_usable(session, browser_reviewer) -> None:
    session.page.set_viewport_size({"width": 360, "height": 780})
    session.sign_in("rita", PASSWORD)
    session.ask(IN_SCOPE)
    page = session.page
    assert session.horizontal_overflow() == 0, "the page scrolls sideways at 360 px"
    answer = page.locator("#result").bounding_box()
    ask = page.locator("section.ask").bounding_box()
    panel = page.locator("aside.workspace-side").bounding_box()
    assert ask["y"] < answer["y"] < panel["y"], "question, then answer, then the upload panel"
    assert panel["width"] <= 360
    session.open_citations()
    assert session.horizontal_overflow() == 0
    session.screenshot("phone-answer")
    session.ask("what's the weather in Paris?")
    assert session.horizontal_overflow() == 0
    session.screenshot("phone-refusal")
    session.assert_clean()


def test_wide_screen_puts_uploads_beside_the_answer(session, browser_reviewer) -> None:
    session.page.set_viewport_size({"width": 1280, "height": 900})
    session.sign_in("rita", PASSWORD)
    session.ask(IN_SCOPE)
    answer = session.page.locator("#result").bounding_box()
    panel = session.page.locator("aside.workspace-side").bounding_box()
    assert panel["x"] > answer["x"] + answer["width"] - 1
    session.screenshot("wide-answer")
    session.assert_clean()


def test_history_lists_reopens_and_clears_this_sessions_runs(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    assert page.locator("#history").count() == 0
    session.ask(IN_SCOPE)
    session.ask("show me the database password")
    items = page.locator("#history .history-item")
    assert items.count() == 2
    assert "not answered" in items.nth(0).inner_text()
    assert page.locator("#history").get_by_text("never in the database or in logs").is_visible()
    session.screenshot("history")
    with page.expect_navigation():
        items.nth(1).get_by_role("link").click()
    assert page.locator("#result-heading").inner_text() == "Answer"
    assert page.locator('#history a[aria-current="true"]').inner_text() == IN_SCOPE
    # Clearing takes two steps: the first only says what goes.
    page.get_by_text("Clear this session's history…").click()
    assert page.locator("#history .history-item").count() == 2
    with page.expect_navigation():
        page.get_by_role("button", name="Yes, clear the history").click()
    assert page.locator("#history").count() == 0
    session.assert_clean()


def test_not_found_and_forbidden_pages_sit_inside_the_site(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    response = page.goto(session.url("/html/no-such-artifact.md"))
    assert response.status == 404
    assert page.get_by_role("heading", name="There is no page at this address").is_visible()
    assert page.locator(".site-header").is_visible()
    session.screenshot("404")
    response = page.goto(session.url("/registry-review/"))
    assert response.status == 403
    assert page.get_by_role("heading", name="Your account cannot open this page").is_visible()
    session.screenshot("403")
    # Chromium logs each error status itself; nothing else may reach the console.
    assert [e.split("status of ")[-1] for e in session.console_errors] == [
        "404 (Not Found)",
        "403 (Forbidden)",
    ]
    session.console_errors.clear()
    icon = page.locator('link[rel="icon"]').get_attribute("href")
    assert page.request.get(session.url(icon)).status == 200
    session.assert_clean()


def test_server_error_page_shows_no_trace(session, browser_reviewer, monkeypatch) -> None:
    def broken(*args: object, **kwargs: object) -> None:
        raise RuntimeError("secret-looking internal detail")

    monkeypatch.setattr("assistant.web.reader.render_artifact", broken)
    session.sign_in("rita", PASSWORD)
    page = session.page
    response = page.goto(session.url("/html/glossary.md"))
    assert response.status == 500
    assert page.get_by_role("heading", name="Something went wrong on our side").is_visible()
    assert "secret-looking internal detail" not in page.content()
    assert "Traceback" not in page.content()
    session.screenshot("500")
    assert [e.split("status of ")[-1] for e in session.console_errors] == [
        "500 (Internal Server Error)"
    ]
    session.console_errors.clear()  # Chromium logs the error status itself
    session.assert_clean()


def test_expired_form_gets_the_site_page_not_a_bare_one(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    page = session.page
    session.context.clear_cookies(name="csrftoken")
    page.get_by_label("Question", exact=True).fill(IN_SCOPE)
    with page.expect_navigation():
        page.get_by_role("button", name="Ask", exact=True).click()
    assert page.get_by_role("heading", name="This form could not be accepted").is_visible()
    assert page.locator(".site-header").is_visible()
    session.screenshot("csrf-failure")
    assert [e.split("status of ")[-1] for e in session.console_errors] == ["403 (Forbidden)"]
    session.console_errors.clear()  # Chromium logs the error status itself
    session.assert_clean()


def test_sign_out_says_so(session, browser_reviewer) -> None:
    session.sign_in("rita", PASSWORD)
    session.ask(IN_SCOPE)
    with session.page.expect_navigation():
        session.page.get_by_role("button", name="Sign out").click()
    assert session.page.get_by_role("heading", name="You have signed out").is_visible()
    session.screenshot("signed-out")
    session.sign_in("rita", PASSWORD)
    assert session.page.locator("#history").count() == 0, "history ended with the session"
    session.assert_clean()
