"""A small harness for real-browser tests: Debian's Chromium driven by Playwright, with guards.

Every page a test opens is watched for three things the product promises: no request leaves the
app's origin (each request is recorded; off-origin ones are also aborted, so a failure cannot
reach the network), no Content Security Policy violation (reported from inside the page by an
init script), and no console error. Tests call :meth:`BrowserSession.assert_clean` at the end.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlsplit

from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Locator,
    Page,
    Request,
    Route,
)

CHROMIUM = os.environ.get("AICD_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"

# Runs in every document before any page script: forwards each CSP violation to the test.
CSP_LISTENER = """
document.addEventListener("securitypolicyviolation", (event) => {
  window.__aicdCspViolation({
    directive: event.violatedDirective,
    blocked: event.blockedURI,
    sample: event.sample,
    source: event.sourceFile,
    line: event.lineNumber,
  });
});
"""


def origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


@dataclass
class BrowserSession:
    """One browser context on the live server, with everything the page did recorded."""

    context: BrowserContext
    page: Page
    app_origin: str
    test_name: str
    requests: list[str] = field(default_factory=list)
    off_origin: list[str] = field(default_factory=list)
    csp_violations: list[dict[str, object]] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    shots: list[Path] = field(default_factory=list)

    def url(self, path: str) -> str:
        return self.app_origin + path

    def goto(self, path: str) -> None:
        self.page.goto(self.url(path))

    def screenshot(self, state: str) -> Path:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.test_name}--{state}.png"
        self.page.screenshot(path=str(path), full_page=True)
        self.shots.append(path)
        return path

    def screenshot_of_view(self, state: str) -> Path:
        """What the person sees without scrolling: the viewport only, as it is scrolled now."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.test_name}--{state}.png"
        self.page.screenshot(path=str(path), full_page=False)
        self.shots.append(path)
        return path

    def screenshot_of(self, locator: Locator, state: str) -> Path:
        """A picture of one element only (a long page's full screenshot is hard to read)."""
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        path = ARTIFACTS / f"{self.test_name}--{state}.png"
        locator.screenshot(path=str(path))
        self.shots.append(path)
        return path

    def sign_in(self, username: str, password: str) -> None:
        """Sign in through the form, as a person would."""
        self.goto("/")
        assert self.page.url.startswith(self.url("/accounts/login/"))
        self.page.get_by_label("Username").fill(username)
        self.page.get_by_label("Password").fill(password)
        self.page.get_by_role("button", name="Sign in").click()
        self.page.wait_for_url(self.url("/"))

    def ask(self, question: str, *, mode_label: str = "Package-only") -> None:
        self.page.get_by_role("radio", name=mode_label).check()
        self.page.get_by_label("Question", exact=True).fill(question)
        with self.page.expect_navigation():
            self.page.get_by_role("button", name="Ask", exact=True).click()

    def open_citations(self) -> None:
        """Expand every citation's disclosure, as a reader clicking each number would."""
        self.page.eval_on_selector_all(
            "li.citation details", "els => els.forEach(d => d.open = true)"
        )

    def horizontal_overflow(self) -> int:
        """How many CSS pixels the page is wider than the viewport (0 when nothing scrolls sideways)."""
        return int(
            self.page.evaluate(
                "document.documentElement.scrollWidth - document.documentElement.clientWidth"
            )
        )

    def assert_no_text(self, *needles: str) -> None:
        """None of ``needles`` appears in the current page's HTML or its visible text."""
        html = self.page.content()
        text = self.page.inner_text("body")
        for needle in needles:
            assert needle not in html and needle not in text, "a secret value reached the page"

    def assert_clean(self) -> None:
        assert self.requests, "the recorder saw no request at all"
        assert self.off_origin == [], f"requests left the app's origin: {self.off_origin}"
        assert self.csp_violations == [], f"CSP violations: {self.csp_violations}"
        assert self.console_errors == [], f"console errors: {self.console_errors}"


def open_session(
    browser: Browser, app_url: str, test_name: str, **context_args: object
) -> BrowserSession:
    """A context on ``app_url`` with the recorders on; ``context_args`` go to ``new_context``."""
    context = browser.new_context(
        base_url=app_url,
        viewport={"width": 1100, "height": 900},
        **context_args,  # type: ignore[arg-type]
    )
    page = context.new_page()
    session = BrowserSession(context, page, origin(app_url), re.sub(r"[^\w.-]+", "_", test_name))

    def record(request: Request) -> None:
        session.requests.append(request.url)
        if (
            not request.url.startswith(("data:", "about:"))
            and origin(request.url) != session.app_origin
        ):
            session.off_origin.append(request.url)

    def only_same_origin(route: Route) -> None:
        if origin(route.request.url) == session.app_origin:
            route.continue_()
        else:
            route.abort("blockedbyclient")

    def console(message: ConsoleMessage) -> None:
        if message.type == "error":
            session.console_errors.append(message.text)

    context.on("request", record)
    context.route("**/*", only_same_origin)

    def violation(report: dict[str, object]) -> None:
        session.csp_violations.append(report)

    context.expose_function("__aicdCspViolation", violation)
    context.add_init_script(CSP_LISTENER)
    page.on("console", console)
    return session
