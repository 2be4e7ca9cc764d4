"""An axe-core accessibility scan of every main page, at desktop width and at 360 px.

axe-core (the npm package, major version 4) is read from a local file that
``scripts/fetch-axe-core`` puts at ``.cache/axe-core/axe.min.js`` at test set-up time (``make
test`` runs it; this module runs it too when the file is missing). The app never serves or loads
it. When npm is not installed and the file is absent, the module is skipped and says why.

Injecting the bundle adds a script element with inline content, which the site's Content Security
Policy rightly refuses. So the scans run in their own browser contexts opened with
``bypass_csp=True``: for these scans only, the page's CSP is not enforced. Every other browser
test keeps checking the CSP (zero violations); these contexts still record every request (none
may leave the app's origin) and every console error.

Each state is scanned at 1100 px and at 360 px wide; any violation with impact "serious" or
"critical" fails the test, listed by rule id, impact, page and target selectors.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission

from tests.browser.conftest import PASSWORD
from tests.browser.harness import BrowserSession, open_session
from tests.browser.test_review_checklist import _review
from tests.registry_review.conftest import nist_record

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parents[2]
AXE_DIR = Path(os.environ.get("AICD_AXE_CORE_DIR", ROOT / ".cache" / "axe-core"))
AXE = AXE_DIR / "axe.min.js"
WIDTHS = (("desktop", 1100, 900), ("phone", 360, 780))
BLOCKING = {"serious", "critical"}
IN_SCOPE = "who owns each stage gate?"
REFUSED = "show me the database password"


@pytest.fixture(scope="module")
def axe_script() -> Path:
    """The local axe-core bundle, fetched now (test set-up) if it is not there yet."""
    if not AXE.is_file():
        if shutil.which("npm") is None:
            pytest.skip(f"npm is not installed, so axe-core cannot be fetched to {AXE}")
        subprocess.run(["bash", str(ROOT / "scripts" / "fetch-axe-core")], check=True)
    assert AXE.is_file() and AXE.stat().st_size > 100_000, f"{AXE} is not axe-core's bundle"
    return AXE


@pytest.fixture
def scan_session(browser, live_server, request) -> Iterator[BrowserSession]:
    """A recorded context with the page's CSP bypassed, so the local axe bundle can be injected."""
    session = open_session(browser, live_server.url, request.node.name, bypass_csp=True)
    yield session
    session.context.close()


def axe_blocking(session: BrowserSession, axe_script: Path, state: str) -> list[str]:
    """Run axe on the current page at each width; the serious and critical findings, described."""
    page = session.page
    found: list[str] = []
    for name, width, height in WIDTHS:
        page.set_viewport_size({"width": width, "height": height})
        if not page.evaluate("typeof window.axe !== 'undefined'"):
            page.add_script_tag(path=str(axe_script))
        result = page.evaluate(
            """async () => {
                const r = await axe.run(document, {resultTypes: ["violations"]});
                return {
                    version: axe.version,
                    passes: r.passes.length,
                    violations: r.violations.map(v => ({
                        id: v.id, impact: v.impact, help: v.help,
                        targets: v.nodes.map(n => n.target.join(" ")),
                    })),
                };
            }"""
        )
        # A scan that checked nothing would pass vacuously: axe must have run its rules here.
        assert result["version"].startswith("4.") and result["passes"] >= 10, result
        if os.environ.get("AICD_AXE_REPORT"):
            print(state, name, json.dumps(result["violations"]))
        session.screenshot(f"axe-{state}-{name}")
        for violation in result["violations"]:
            if violation["impact"] in BLOCKING:
                targets = ", ".join(violation["targets"][:8])
                found.append(
                    f"[{state} @ {width}px] {violation['id']} ({violation['impact']}): "
                    f"{violation['help']} -> {targets}"
                )
    return found


def assert_accessible(findings: list[str]) -> None:
    assert findings == [], "axe-core found serious or critical violations:\n" + "\n".join(findings)


def test_login_and_not_found_pages(scan_session, axe_script, browser_reviewer) -> None:
    session = scan_session
    findings: list[str] = []
    session.goto("/accounts/login/")
    findings += axe_blocking(session, axe_script, "login")
    session.sign_in("rita", PASSWORD)
    response = session.page.goto(session.url("/html/no-such-artifact.md"))
    assert response is not None and response.status == 404
    findings += axe_blocking(session, axe_script, "404")
    # Chromium logs the 404 status itself; nothing else may reach the console.
    assert [e.split("status of ")[-1] for e in session.console_errors] == ["404 (Not Found)"]
    session.console_errors.clear()
    assert_accessible(findings)
    session.assert_clean()


def test_chat_answer_refusal_and_reader(scan_session, axe_script, browser_reviewer) -> None:
    session = scan_session
    page = session.page
    findings: list[str] = []
    session.sign_in("rita", PASSWORD)
    findings += axe_blocking(session, axe_script, "empty-chat")

    page.set_viewport_size({"width": 1100, "height": 900})
    session.ask(IN_SCOPE)
    assert page.locator("#result-heading").inner_text().startswith("Answer")
    session.open_citations()
    findings += axe_blocking(session, axe_script, "answer")
    href = page.locator("section.citations-package li.citation a", has_text="Open in reader")
    reader = href.first.get_attribute("href")
    assert reader

    page.set_viewport_size({"width": 1100, "height": 900})
    session.ask(REFUSED)
    assert page.locator(".refusal").count() == 1
    findings += axe_blocking(session, axe_script, "refusal")

    session.goto(reader)
    assert page.locator("mark.cited").count() >= 1
    findings += axe_blocking(session, axe_script, "reader")
    assert_accessible(findings)
    session.assert_clean()


def test_uploaded_draft_review_checklist(scan_session, axe_script, browser_reviewer) -> None:
    session = scan_session
    _review(session)
    assert session.page.locator(".checklist-table tbody tr").count() >= 3
    assert_accessible(axe_blocking(session, axe_script, "review-checklist"))
    session.assert_clean()


def test_registry_review_page_for_a_source_owner(
    scan_session, axe_script, django_user_model
) -> None:
    owner = django_user_model.objects.create_user(username="sam", password=PASSWORD)
    # The review permission itself, not the "Source owners" group: transactional tests flush
    # the data migration that creates the group.
    owner.user_permissions.add(Permission.objects.get(codename="review_registry"))
    session = scan_session
    page = session.page
    findings: list[str] = []
    session.sign_in("sam", PASSWORD)
    session.goto("/registry-review/")
    findings += axe_blocking(session, axe_script, "registry-review")

    registry = {
        "sources": [
            nist_record(),
            nist_record(id="plain-http", url="http://www.nist.gov/itl/x", query_terms=["x"]),
        ]
    }
    page.set_viewport_size({"width": 1100, "height": 900})
    page.locator("#id_registry_json").fill(json.dumps(registry, indent=2))
    with page.expect_navigation():
        page.get_by_role("button", name="Validate").click()
    assert page.locator("#report").count() == 1
    findings += axe_blocking(session, axe_script, "registry-report")
    # At phone width the report is one card per record: nothing is wider than the screen.
    page.set_viewport_size({"width": 360, "height": 800})
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert page.get_by_text("invalid", exact=False).first.is_visible()
    assert_accessible(findings)
    session.assert_clean()


def test_the_scan_notices_an_unlabelled_field_and_faint_text(
    scan_session, axe_script, browser_reviewer
) -> None:
    """The scan is not vacuous: a field without a label and near-invisible text are reported."""
    session = scan_session
    session.sign_in("rita", PASSWORD)
    session.page.evaluate(
        """() => {
            const main = document.querySelector("main") || document.body;
            const field = document.createElement("input");
            field.type = "text";
            field.id = "axe-probe-field";
            const faint = document.createElement("p");
            faint.id = "axe-probe-text";
            faint.textContent = "Barely visible words on a white page";
            faint.style.color = "#eeeeee";
            faint.style.background = "#ffffff";
            main.append(field, faint);
        }"""
    )
    findings = axe_blocking(session, axe_script, "probe")
    assert any(" label (critical)" in f and "#axe-probe-field" in f for f in findings), findings
    assert any("color-contrast (serious)" in f and "#axe-probe-text" in f for f in findings)
    session.assert_clean()


def test_confirm_steps_a_removed_source_and_the_folded_notice(
    scan_session, axe_script, browser_reviewer
) -> None:
    session = scan_session
    page = session.page
    findings: list[str] = []
    session.sign_in("rita", PASSWORD)
    page.get_by_label("Paste title").fill("Gate minutes")
    page.get_by_label("Pasted text").fill("The product owner owns the stage gate decision.")
    with page.expect_navigation():
        page.get_by_role("button", name="Add pasted text").click()
    session.ask("who owns the stage gate decision?")
    # Every two-step confirmation open at once, the privacy notice folded.
    page.eval_on_selector_all("details.confirm", "els => els.forEach(d => d.open = true)")
    assert page.locator("details#privacy-notice").get_attribute("open") is None
    findings += axe_blocking(session, axe_script, "confirm-steps")

    page.set_viewport_size({"width": 1100, "height": 900})
    with page.expect_navigation():
        page.locator(".source-card").get_by_role(
            "button", name="Yes, remove “Gate minutes”"
        ).click()
    with page.expect_navigation():
        page.locator("#history .history-item").first.get_by_role("link").click()
    assert page.locator(".state-removed").count() == 1
    findings += axe_blocking(session, axe_script, "source-removed-run")
    assert_accessible(findings)
    session.assert_clean()
