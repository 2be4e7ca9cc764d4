"""The narrow safe renderer never lets provider or package text through as HTML."""

from assistant.web.rendering import render_prose


def test_html_is_escaped_and_markers_become_links() -> None:
    html = render_prose('<img src=x onerror=alert(1)> says "hi" [P1]')
    assert "<img" not in html
    assert "&lt;img src=x onerror=alert(1)&gt;" in html
    assert '<a class="cite cite-package" href="#cite-P1"' in html


def test_marker_lookalikes_cannot_inject_attributes() -> None:
    html = render_prose('[P1" onmouseover="x] and [U2]')
    assert 'onmouseover="x' not in html
    assert 'href="#cite-U2"' in html


def test_lists_and_paragraphs() -> None:
    html = render_prose("One [C1].\n\n- a\n- b")
    assert html.startswith("<p>One")
    assert "<ul><li>a</li><li>b</li></ul>" in html
    assert "cite-current" in html
