"""The API docs page and the admin site in a real browser: local assets only, no CSP violations."""

from __future__ import annotations

import pytest

from tests.browser.conftest import PASSWORD

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_swagger_ui_renders_the_chat_operation_from_local_assets(session, browser_reviewer) -> None:
    session.goto("/api/docs/")
    assert session.page.url.startswith(session.url("/accounts/login/"))
    session.sign_in("rita", PASSWORD)
    session.goto("/api/docs/")
    operation = session.page.locator(".opblock-summary-path", has_text="/api/source-grounded-chat")
    operation.wait_for(timeout=10_000)
    assert session.page.locator(".opblock-post").count() >= 1
    session.screenshot("api-docs")
    statics = [u for u in session.requests if "/static/drf_spectacular_sidecar/" in u]
    assert any(u.endswith("swagger-ui-bundle.js") for u in statics)
    assert any("/api/schema/" in u for u in session.requests)
    session.assert_clean()


def test_admin_site_holds_the_policy_for_staff(session, django_user_model) -> None:
    django_user_model.objects.create_superuser("ada", password=PASSWORD)
    session.goto("/admin/")
    session.page.get_by_label("Username").fill("ada")
    session.page.get_by_label("Password").fill(PASSWORD)
    with session.page.expect_navigation():
        session.page.get_by_role("button", name="Log in").click()
    assert session.page.url == session.url("/admin/")
    session.goto("/admin/auth/user/")
    session.page.get_by_role("link", name="ada").first.click()
    session.page.wait_for_load_state()
    session.screenshot("admin-user-change")
    session.assert_clean()
