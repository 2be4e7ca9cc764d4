"""Browser fixtures: one Chromium per test session, a fresh context (cookies, recorder) per test."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, sync_playwright

from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, BrowserSession, open_session

PASSWORD = "correct-horse-battery"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Chromium for one test module.

    Playwright's sync API keeps an asyncio loop marked running in this thread while it is open,
    which Django's async-safety guard takes for an async context; the ORM calls these tests make
    from this thread are synchronous, so the guard is relaxed for exactly as long as the browser
    is open (module scope, so later test modules run with the guard on).
    """
    if not Path(CHROMIUM).exists():
        pytest.fail(
            f"Chromium is not at {CHROMIUM}: install Debian's package (apt-get install -y chromium) "
            "or set AICD_CHROMIUM; make test installs it when missing."
        )
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture
def session(browser, live_server, request) -> Iterator[BrowserSession]:
    session = open_session(browser, live_server.url, request.node.name)
    yield session
    session.context.close()


@pytest.fixture
def browser_reviewer(django_user_model):
    return django_user_model.objects.create_user(username="rita", password=PASSWORD)
