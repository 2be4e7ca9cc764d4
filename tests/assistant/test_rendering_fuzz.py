"""Fuzzing the safe renderer and the answer gate with arbitrary provider text.

The renderer must never emit markup outside its five tags and their fixed attributes, whatever
it is given; the gate must never raise and must return lanes or problems, never both.
"""

from __future__ import annotations

import re
from html.parser import HTMLParser

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from assistant.domain import lanes
from assistant.domain.modes import Mode
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.verify import answer_check
from assistant.web.rendering import render_prose

ALLOWED = {
    "p": set(),
    "ul": set(),
    "li": set(),
    "span": {("class", "cite-group")},
    "a": {"class", "href", "title"},
}
HREF = re.compile(r"#cite-[PCU]\d{1,3}")
CITE_CLASS = re.compile(r"cite cite-(package|current|uploaded)")

# Text built from the pieces that matter: markup, entities, citation markers, labels, breaks.
pieces = st.sampled_from(
    [
        "<script>alert(1)</script>",
        "<img src=x onerror=alert(1)>",
        '" onmouseover="x',
        "'",
        "&amp;",
        "&lt;b&gt;",
        "[P1]",
        "[p1, C2; U3]",
        "[P1</a><script>]",
        "[X9]",
        "[P1000]",
        "- ",
        "* ",
        "• ",
        "\n",
        "\n\n",
        "Package says",
        "Current/public source says",
        "**Synthesis / implications**",
        "## Divergence / update candidate",
        "javascript:alert(1)",
        "<!--",
        "]]>",
        "\x00",
        "\u202e",
    ]
)
provider_text = st.lists(pieces | st.text(max_size=20), max_size=40).map("".join) | st.text()


class TagCollector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, list[tuple[str, str | None]]]] = []
        self.other: list[str] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_startendtag(self, tag, attrs):
        self.tags.append((tag, attrs))

    def handle_comment(self, data):
        self.other.append("comment")

    def handle_decl(self, decl):
        self.other.append("declaration")

    def handle_pi(self, data):
        self.other.append("processing instruction")

    def unknown_decl(self, data):
        self.other.append("cdata")


def assert_only_allowed_markup(html: str) -> None:
    collector = TagCollector()
    collector.feed(html)
    collector.close()
    assert collector.other == []
    for tag, attrs in collector.tags:
        assert tag in ALLOWED, tag
        if tag in ("p", "ul", "li"):
            assert attrs == []
        if tag == "span":
            assert set(attrs) <= ALLOWED["span"]
        if tag == "a":
            names = dict(attrs)
            assert set(names) == ALLOWED["a"]
            assert HREF.fullmatch(names["href"] or "")
            assert CITE_CLASS.fullmatch(names["class"] or "")
    # Every '<' in the output opens one of the allowed tags; user text can only appear escaped.
    for match in re.finditer(r"<(/?)([a-zA-Z]*)", html):
        assert match.group(2) in ALLOWED, html[match.start() : match.start() + 40]


@settings(max_examples=400, deadline=None)
@given(text=provider_text)
@example(text="<script>alert(1)</script> [P1]")
@example(text='[P1" onclick="x]')
def test_renderer_emits_only_its_own_markup(text: str) -> None:
    html = render_prose(text)
    assert_only_allowed_markup(str(html))


def test_the_markup_check_rejects_what_it_should() -> None:
    for bad in (
        '<p onclick="x">a</p>',
        '<a class="cite cite-package" href="javascript:x" title="t">P1</a>',
        "<b>x</b>",
        "<!-- x -->",
        '<span class="x">y</span>',
    ):
        with pytest.raises(AssertionError):
            assert_only_allowed_markup(bad)


def _request(mode: Mode) -> ProviderRequest:
    ref = SourceRef(citation_id="P1", citation_class=lanes.PACKAGE_CITATION, title="t", text="x")
    cur = SourceRef(citation_id="C1", citation_class=lanes.CURRENT_CITATION, title="c", text="y")
    return ProviderRequest(
        mode=mode,
        question="q",
        lane_order=lanes.required_lanes(mode, with_uploads=False),
        package_refs=(ref,),
        current_refs=(cur,) if mode is Mode.PACKAGE_CURRENT else (),
    )


@settings(max_examples=400, deadline=None)
@given(text=provider_text, mode=st.sampled_from(list(Mode)))
@example(text="Package says\nThe gate has an owner. [P1]", mode=Mode.PACKAGE_ONLY)
def test_gate_never_raises_and_returns_lanes_or_problems(text: str, mode: Mode) -> None:
    request = _request(mode)
    result = answer_check.verify(text, request)
    assert bool(result.lanes) != bool(result.problems)
    sent = {ref.citation_id for ref in request.all_refs()}
    for lane in result.lanes:
        assert lane.label in lanes.allowed_order(mode, with_uploads=False)
        assert set(lane.citation_ids) <= sent
        assert_only_allowed_markup(str(render_prose(lane.text)))
