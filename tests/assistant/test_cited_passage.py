"""The reader's cited passage: every sentence of the section the run used, each marked whole."""

from __future__ import annotations

import re
from html import unescape

from assistant.web.cited_passage import mark, used_text

SECTION = (
    "<p>Build readiness is the set of decisions a team settles before coding. Build readiness "
    "is assessed at Gate 2 by the product owner.</p>\n"
    "<p>Before engineers start coding, the team should have settled ten things: a problem "
    "statement, named owners &amp; an exit plan.</p>\n"
    "<ol>\n<li><strong>Header.</strong> Proposal title and version, the target gate and the "
    "review date.</li>\n<li><strong>Findings.</strong> One row per finding with its owner.</li>\n</ol>\n"
    "<p>Nothing here was used by the answer at all today.</p>"
)


def _marked(html: str) -> list[str]:
    """The marked text, one entry per passage (adjacent marks split only by tags joined)."""
    joined = re.sub(r"</mark>((?:<[^>]+>)*)<mark[^>]*>", r"\1", html)
    return [
        " ".join(unescape(re.sub(r"<[^>]+>", "", m)).split())
        for m in re.findall(r"<mark[^>]*>(.*?)</mark>", joined, re.S)
    ]


def test_a_clipped_excerpt_marks_its_last_sentence_to_the_full_stop() -> None:
    excerpt = (
        "Build readiness is the set of decisions a team settles before coding. Build readiness "
        "is assessed at Gate 2 by…"
    )
    html, count = mark(SECTION, excerpt.removesuffix("…"), first_id="cited")
    assert count == 2
    assert _marked(html) == [
        "Build readiness is the set of decisions a team settles before coding. Build readiness "
        "is assessed at Gate 2 by the product owner."
    ]
    assert html.count('id="cited"') == 1


def test_a_sentence_the_answer_used_beyond_the_excerpt_is_marked_too() -> None:
    used = (
        "Build readiness is the set of decisions a team settles before coding.\n"
        "Before engineers start coding, the team should have settled ten things: a problem "
        "statement, named owners & an exit plan."
    )
    html, count = mark(SECTION, used, first_id="cited")
    assert count == 2
    assert _marked(html) == [
        "Build readiness is the set of decisions a team settles before coding.",
        "Before engineers start coding, the team should have settled ten things: a problem "
        "statement, named owners & an exit plan.",
    ]
    assert "named owners &amp; an exit plan." in html  # the entity stays as the page wrote it


def test_a_list_item_with_a_bold_lead_in_is_marked_whole_without_splitting_a_tag() -> None:
    used = "1. Header. Proposal title and version, the target gate and the review date."
    html, count = mark(SECTION, used, first_id="cited")
    assert count == 1
    assert _marked(html) == [
        "Header. Proposal title and version, the target gate and the review date."
    ]
    assert '<strong><mark class="cited" id="cited">Header.</mark></strong>' in html
    # Removing the marks gives back the page exactly: only whole text runs were wrapped.
    assert re.sub(r"</?mark[^>]*>", "", html) == SECTION


def test_text_the_run_did_not_use_and_words_shared_by_chance_are_not_marked() -> None:
    html, count = mark(SECTION, "The product owner decides the gate.", first_id="cited")
    assert (html, count) == (SECTION, 0)
    assert mark(SECTION, "", first_id="cited") == (SECTION, 0)


def test_headings_are_never_marked() -> None:
    section = "<h3>Build readiness is assessed at Gate 2.</h3><p>Other words here entirely.</p>"
    assert mark(section, "Build readiness is assessed at Gate 2.", first_id="x") == (section, 0)


def test_used_text_is_the_excerpt_and_the_answer_paragraphs_that_cite_it() -> None:
    body = {
        "citations": [
            {"id": "P1", "excerpt": "First sentence of the section. Then a clipped…"},
            {"id": "P2", "excerpt": "Another section entirely."},
        ],
        "lanes": [
            {
                "label": "Package says",
                "text": "The answer's own sentence. [P1]\n\n- A listed item. [P2, P1]\n\n"
                "Only from the other one. [P2]",
            }
        ],
    }
    assert used_text(body, "P1") == (
        "First sentence of the section. Then a clipped\nThe answer's own sentence.\n"
        "- A listed item."
    )
    assert "Only from the other one." in used_text(body, "P2")
    assert used_text(body, "P9") == ""
