"""The reader marks the cited passage, chosen by run and citation id; nothing of the URL is written."""

from __future__ import annotations

import re
from html import unescape

import pytest

from assistant.retrieval import context_pack
from assistant.web import history
from assistant.web.reader import highlight, render_artifact


def _answer(client) -> dict:
    client.post("/", {"mode": "package_only", "question": "who owns each stage gate?"}, follow=True)
    return history.entries(client.session)[0]["body"]


def _reader_link(client, body: dict, cid: str) -> str:
    html = client.get(f"/runs/{body['run_id']}").content.decode()
    found = re.search(rf'id="cite-{cid}".*?class="reader-link" href="([^"]+)"', html, re.S)
    return unescape(found.group(1))


def _marks(html: str) -> list[str]:
    return [
        unescape(re.sub(r"\s+", " ", m))
        for m in re.findall(r'<mark class="cited"[^>]*>(.*?)</mark>', html, re.S)
    ]


@pytest.mark.django_db
def test_open_in_reader_marks_the_cited_sentences_inside_the_cited_section(
    logged_in_client,
) -> None:
    body = _answer(logged_in_client)
    citation = body["citations"][0]
    link = _reader_link(logged_in_client, body, citation["id"])
    assert f"cite={citation['id']}" in link and link.endswith(
        "#" + citation["reader_target"].split("#")[1]
    )
    html = logged_in_client.get(link).content.decode()
    marks = _marks(html)
    assert marks, "the cited excerpt is not marked"
    excerpt = citation["excerpt"]
    # Every sentence of the excerpt is marked, and the clipped last one to its full stop.
    marked = " ".join(marks)
    *whole, clipped = excerpt.removesuffix("…").split(". ")
    for sentence in whole:
        assert sentence in marked
    holding = next(m for m in marks if clipped in m)
    assert holding.rstrip().endswith(".") and not holding.rstrip().endswith(clipped)
    assert html.count('id="cited-passage"') == 1
    section = html.index(f'id="{citation["reader_target"].split("#")[1]}"')
    assert section < html.index('<mark class="cited"')
    assert 'href="#cited-passage"' in html  # the note leads to it


@pytest.mark.django_db
def test_unknown_run_or_citation_marks_nothing_and_reflects_nothing(logged_in_client) -> None:
    body = _answer(logged_in_client)
    path = body["citations"][0]["source_path"]
    probe = '<script>alert(1)</script>"onmouseover='
    for query in (
        {"run": body["run_id"], "cite": "P99"},
        {"run": "not-a-run", "cite": "P1"},
        {"run": body["run_id"], "cite": probe},
    ):
        html = logged_in_client.get(f"/html/{path}", query).content.decode()
        assert "<mark" not in html
        assert "alert(1)" not in html and "onmouseover" not in html
    other_path = next(
        a["source_path"]
        for a in context_pack.get_context_pack().artifacts
        if a["source_path"] != path
    )
    html = logged_in_client.get(
        f"/html/{other_path}", {"run": body["run_id"], "cite": "P1"}
    ).content.decode()
    assert "<mark" not in html  # a citation marks only its own artifact


def test_highlight_wraps_only_text_the_page_holds() -> None:
    html = (
        '<h2 id="a" class="section-heading">A</h2><p>The product owner decides.\nEach gate has an owner named '
        'in writing.</p><h2 id="b" class="section-heading">B</h2><p>Each gate has an owner named in writing.</p>'
    )
    marked, count = highlight(
        html, "a", "Each gate has an owner named in writing. Not in the page at all here."
    )
    assert count == 1
    assert marked.count("<mark") == 1
    assert marked.index("<mark") < marked.index('id="b"')  # the cited section only
    assert highlight(html, "missing", "Each gate has an owner named in writing.") == (html, 0)
    # Markup inside a sentence is marked too, one mark per stretch of text: no tag is split.
    split = '<h2 id="a" class="section-heading">A</h2><p>Each <strong>gate</strong> has an owner named.</p>'
    marked, count = highlight(split, "a", "Each gate has an owner named.")
    assert count == 1
    assert marked == (
        '<h2 id="a" class="section-heading">A</h2><p><mark class="cited" id="cited-passage">Each '
        '</mark><strong><mark class="cited">gate</mark></strong><mark class="cited"> has an owner '
        "named.</mark></p>"
    )


def test_render_artifact_without_a_citation_marks_nothing() -> None:
    pack = context_pack.get_context_pack()
    page = render_artifact(pack, pack.artifacts[0]["source_path"])
    assert page is not None and page.highlighted == 0 and "<mark" not in page.html
