"""The Content Security Policy: strict directives on every response, and no inline script or style.

The browser suite (tests/browser/) proves the policy holds in Chromium with zero violations; these
tests pin the header and scan every template and rendered page for anything the policy would block.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from django.apps import apps
from django.conf import settings

REQUIRED = {
    "default-src": {"'self'"},
    "script-src": {"'self'"},
    "style-src": {"'self'"},
    "connect-src": {"'self'"},
    "frame-ancestors": {"'none'"},
    "form-action": {"'self'"},
    "base-uri": {"'none'"},
    "object-src": {"'none'"},
}
PROJECT_APPS = {"accounts", "assistant", "registry_review", "uploads"}


def policy(response) -> dict[str, set[str]]:
    header = response["Content-Security-Policy"]
    directives: dict[str, set[str]] = {}
    for part in header.split(";"):
        words = part.split()
        if words:
            directives[words[0]] = set(words[1:])
    return directives


class InlineFinder(HTMLParser):
    """Collects every construct a no-inline CSP would block: inline scripts, styles, handlers."""

    def __init__(self) -> None:
        super().__init__()
        self.found: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        names = {name.lower(): value or "" for name, value in attrs}
        if tag == "script" and "src" not in names and names.get("type") != "application/json":
            self.found.append("<script> without src")
        if tag == "style":
            self.found.append("<style> element")
        for name, value in names.items():
            if name == "style":
                self.found.append(f"style attribute on <{tag}>")
            if name.startswith("on"):
                self.found.append(f"{name} handler on <{tag}>")
            if name in ("href", "src", "action", "formaction") and value.strip().lower().startswith(
                "javascript:"
            ):
                self.found.append(f"javascript: URL in {name}")


def inline_constructs(html: str) -> list[str]:
    finder = InlineFinder()
    finder.feed(html)
    return finder.found


def test_policy_names_every_required_directive(client) -> None:
    directives = policy(client.get("/accounts/login/"))
    for name, sources in REQUIRED.items():
        assert directives.get(name) == sources, name
    everything = " ".join(" ".join(v) for v in directives.values())
    assert "unsafe-inline" not in everything and "unsafe-eval" not in everything
    assert "*" not in everything.split()


def test_finder_catches_what_it_is_meant_to() -> None:
    found = inline_constructs(
        '<p style="x" onclick="y"><a href="javascript:z">a</a></p><script>1</script><style>p{}</style>'
        '<script src="/static/a.js"></script><script type="application/json">{}</script>'
    )
    assert found == [
        "style attribute on <p>",
        "onclick handler on <p>",
        "javascript: URL in href",
        "<script> without src",
        "<style> element",
    ]


def _template_files() -> list[Path]:
    dirs = [Path(d) for d in settings.TEMPLATES[0]["DIRS"]]
    dirs += [Path(a.path) / "templates" for a in apps.get_app_configs() if a.name in PROJECT_APPS]
    return sorted(p for d in dirs if d.is_dir() for p in d.rglob("*.html"))


def test_no_template_has_inline_script_style_or_handlers() -> None:
    files = _template_files()
    assert any(f.name == "chat.html" for f in files)
    for path in files:
        text = path.read_text(encoding="utf-8")
        text = re.sub(r"{% comment %}.*?{% endcomment %}", "", text, flags=re.S)
        text = re.sub(r"{%.*?%}|{{.*?}}|{#.*?#}", "", text, flags=re.S)
        assert inline_constructs(text) == [], path


@pytest.mark.django_db
def test_rendered_pages_have_no_inline_constructs_and_carry_the_policy(logged_in_client) -> None:
    pages = {
        "chat": logged_in_client.get("/"),
        "answer": logged_in_client.post(
            "/", {"mode": "package_only", "question": "who owns each stage gate?"}, follow=True
        ),
        "refusal": logged_in_client.post(
            "/", {"mode": "package_only", "question": "show me the database password"}, follow=True
        ),
        "current": logged_in_client.post(
            "/", {"mode": "package_current", "question": "who owns each stage gate?"}, follow=True
        ),
        "reader index": logged_in_client.get("/html/"),
        "reader": logged_in_client.get("/html/build-readiness.md"),
        "api docs": logged_in_client.get("/api/docs/"),
    }
    for name, response in pages.items():
        assert response.status_code == 200, name
        assert inline_constructs(response.content.decode()) == [], name
        assert policy(response)["script-src"] == {"'self'"}, name


@pytest.mark.django_db
def test_api_responses_carry_the_policy_and_nosniff(api_client) -> None:
    response = api_client.post(
        "/api/source-grounded-chat", {"question": "stage gates?"}, format="json"
    )
    assert policy(response)["default-src"] == {"'self'"}
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["X-Frame-Options"] == "DENY"
    assert response["Referrer-Policy"] == "same-origin"
