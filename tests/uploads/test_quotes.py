"""Uploaded quotes are the source's own words: verbatim excerpts, whole sentences, URLs intact.

Generated documents (seeded, so every run reads the same bytes) of wrapped and hyphenated PDF
paragraphs, Word paragraphs and text lines, some sentences ending in a URL, are reviewed through
the one pipeline. Every uploaded citation excerpt and every quote in the uploaded lane must be a
verbatim part of the extracted text; the review must never end as a diagnostic.
"""

from __future__ import annotations

import random
import re
import textwrap

import pytest

from assistant.domain import lanes
from assistant.domain.modes import RunState
from assistant.pipeline import services
from tests.uploads.builders import docx_bytes, text_pdf
from tests.uploads.helpers import sources_from
from tests.uploads.test_review_flow import REVIEW_QUESTION

TOPICS = (
    "data boundary",
    "integration",
    "identity and access",
    "gateway route",
    "owner decision",
    "confidential contracts",
)
VERBS = ("covers", "sends", "checks", "describes", "keeps", "routes", "limits")
QUOTE = re.compile(r': "(.*?)" \[U\d+\]')


WORDS = (
    "auditors archive ledger tenant region backup latency invoice retention vendor schema "
    "replica quota webhook billing consent ticket sandbox payload rollout metric incident "
    "runbook license export cluster mailbox scanner template firmware"
).split()


def _sentence(rng: random.Random, n: int) -> str:
    """A sentence of its own words (sentences that differ only in a number are not prose)."""
    topic, other = rng.sample(TOPICS, 2)
    words = " and ".join(rng.sample(WORDS, 3))
    text = f"The {topic} {rng.choice(VERBS)} {other} for the {words} of release {n}"
    if rng.random() < 0.25:
        return f"{text}, as described at https://example.org/design/{n}/spec"
    return text + rng.choice((".", ".", "!", "?"))


def _paragraphs(rng: random.Random, count: int) -> list[str]:
    """Paragraphs of 2-5 sentences; a URL ends a sentence with a full stop inside a paragraph and
    may end the paragraph without one, as references usually do."""
    out = []
    for i in range(count):
        sentences = [_sentence(rng, i * 10 + j) for j in range(rng.randint(2, 5))]
        sentences[:-1] = [s if s[-1] in ".!?" else s + "." for s in sentences[:-1]]
        out.append(" ".join(sentences))
    return out


def _wrapped_pdf(rng: random.Random) -> bytes:
    """Paragraphs wrapped at 78 characters, long words hyphenated at line ends, a heading each."""
    pages = []
    for page in range(3):
        lines = [f"Section {page + 1} {TOPICS[page]}"]
        for paragraph in _paragraphs(rng, 3):
            lines += textwrap.wrap(paragraph, 78, break_on_hyphens=False)
            lines.append("")
        pages.append(lines)
    return text_pdf(pages)


def _docx(rng: random.Random) -> bytes:
    def build(document) -> None:
        for index, paragraph in enumerate(_paragraphs(rng, 6)):
            if index % 2 == 0:
                document.add_heading(f"Part on {TOPICS[index % len(TOPICS)]}", 1)
            document.add_paragraph(paragraph)

    return docx_bytes(build)


def _text(rng: random.Random) -> bytes:
    return "\n\n".join(_paragraphs(rng, 6)).encode()


BUILDERS = {"generated.pdf": _wrapped_pdf, "generated.docx": _docx, "generated.txt": _text}


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("name", sorted(BUILDERS))
def test_uploaded_excerpts_and_quotes_are_verbatim_and_the_review_is_shown(
    name: str, seed: int
) -> None:
    rng = random.Random(f"{name}-{seed}")
    [source] = sources_from((name, BUILDERS[name](rng)))
    flat = " ".join(source.text.split())
    run = services.answer(question=REVIEW_QUESTION, session_sources=(source,))
    assert run.state is RunState.ANSWERED, run.diagnostic
    uploaded = run.citations_of_class(lanes.UPLOADED_CITATION)
    assert uploaded
    for citation in uploaded:
        assert citation.excerpt.removesuffix("…") in flat
    [lane] = [lane for lane in run.lanes if lane.label == lanes.UPLOADED_SAYS]
    quotes = QUOTE.findall(lane.text)
    # One quote per finding; two findings may quote sentences of the same excerpt.
    assert len(quotes) >= len(uploaded)
    assert {cid for cid in re.findall(r"\[(U\d+)\]", lane.text)} == {c.id for c in uploaded}
    lines = {line.strip() for line in source.text.replace("\f", "\n").split("\n")}
    for quote in quotes:
        quote = quote.removesuffix("…")
        if quote not in flat:
            # Only a heading or label without closing punctuation is quoted with a full stop.
            assert quote.endswith(".") and quote[:-1] in lines, quote
        if re.search(r"https?://\S*\.$", quote):
            assert quote in flat, quote  # the full stop after a URL is the source's own


def test_every_pdf_sentence_is_a_sentence_of_the_text_not_a_line_fragment() -> None:
    from assistant.package.sentences import split_sentences

    rng = random.Random("fragments")
    [source] = sources_from(("generated.pdf", _wrapped_pdf(rng)))
    for sentence in split_sentences(source.text):
        if sentence.startswith("Section "):
            continue  # the headings
        assert sentence in source.text, sentence  # nothing appended
        assert sentence[-1] in ".!?" or re.search(r"/spec$", sentence), sentence


def test_a_sentence_ending_in_a_url_is_quoted_without_an_added_full_stop() -> None:
    text = (
        b"The data boundary design for the gateway is described at https://example.org/design/v2\n"
    )
    run = services.answer(question=REVIEW_QUESTION, session_sources=sources_from(("n.txt", text)))
    assert run.state is RunState.ANSWERED, run.diagnostic
    [lane] = [lane for lane in run.lanes if lane.label == lanes.UPLOADED_SAYS]
    assert (
        '"The data boundary design for the gateway is described at https://example.org/design/v2" [U1]'
        in lane.text
    )
