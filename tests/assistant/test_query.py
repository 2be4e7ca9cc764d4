"""The question analysed once (#27 item 5): one ``Query`` built at the door and read by every stage.

Two properties: the value's parts are what each stage used to compute from the text itself, and
answering a question analyses its text once, in ``assistant/retrieval/query.py``, and nowhere
else on the answer path (the intent screen, which reads the raw text for its own spelling, aside).
"""

from __future__ import annotations

import sys
from collections import Counter
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from assistant.compose.unit_scoring import UnitScorer
from assistant.domain.modes import RunState
from assistant.models import word_embedding
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval import context_pack, index, question_memory, question_types, ranking
from assistant.retrieval.query import Query
from core import text as core_text

QUESTIONS = (
    "Who decides the production go-live?",
    "What is a gate owner?",
    'What is "approval creep"?',
    "What must a build-readiness review check?",
    "How long is a pilot?",
    "Why do we keep validation receipts?",
    "Café owners’ wills: does the naïve 1–March plan hold?",
    "  what are   the  stage gates  ",
    "",
)

#: Every function that splits, stems or classifies a question's text, by the name modules bind.
ANALYSERS: dict[str, Callable[..., Any]] = {
    "words": core_text.words,
    "stems": core_text.stems,
    "stem_words": core_text.stem_words,
    "content_stems": core_text.content_stems,
    "question_type": question_types.question_type,
    "defined_term": question_types.defined_term,
    "analyze": index.analyze,
}


@pytest.mark.parametrize("question", QUESTIONS)
def test_the_parts_are_what_each_stage_computed_from_the_text(question: str) -> None:
    query = Query(question)
    assert query.text == question
    assert list(query.words) == core_text.words(question)
    assert list(query.stems) == core_text.stems(question)
    assert list(query.content_stems) == core_text.content_stems(question)
    assert query.question_type == question_types.question_type(question)
    term = question_types.defined_term(question)
    assert query.defined_term == term
    assert query.defined_stems == (
        frozenset(core_text.content_stems(term)) if term else frozenset()
    )


def test_the_defined_term_and_type_are_read_from_the_question() -> None:
    query = Query('What is "approval creep"?')
    assert query.question_type == question_types.DEFINITION
    assert query.defined_term == "approval creep"
    assert query.defined_stems == frozenset(core_text.content_stems("approval creep"))
    assert Query("Who decides the production go-live?").question_type == question_types.WHO


def test_an_analysed_question_is_passed_on_as_it_is() -> None:
    query = Query("Who decides the production go-live?")
    assert Query.of(query) is query
    assert Query.of("Who decides?") == Query("Who decides?")
    assert np.allclose(query.embedding, word_embedding.embed([query.text])[0])


@pytest.mark.parametrize("question", QUESTIONS[:7])
def test_each_stage_reads_text_and_the_value_alike(question: str) -> None:
    """Tests and the learning side still pass text: the stage analyses it the same way."""
    idx = context_pack.get_context_pack().index
    query = Query(question)
    by_text = ranking.search(idx, question, k=8)
    by_value = ranking.search(idx, query, k=8)
    assert [(h.row.row_id, h.score) for h in by_text.hits] == [
        (h.row.row_id, h.score) for h in by_value.hits
    ]
    assert by_text.spelled == by_value.spelled == tuple(idx.correct(s) for s in query.stems)
    memory = question_memory.for_index(idx)
    assert memory.votes(question) == memory.votes(query)
    assert (
        UnitScorer(question, idx.expansion, idx.idf).terms
        == UnitScorer(query, idx.expansion, idx.idf).terms
    )


def _recording(
    monkeypatch: pytest.MonkeyPatch, question: str
) -> tuple[Counter[tuple[str, str]], Counter[str]]:
    """Wrap every analysing function every loaded ``assistant`` module binds (the screen's
    aside), counting the calls made on ``question``'s text (or its words), by module."""
    calls: Counter[tuple[str, str]] = Counter()
    embedded: Counter[str] = Counter()
    question_words = core_text.words(question)

    def wrap(module: str, name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def recorded(*args: Any, **kwargs: Any) -> Any:
            first = args[0] if args else None
            if first == question or (
                name == "stem_words" and first is not None and list(first) == question_words
            ):
                calls[(module, name)] += 1
            return fn(*args, **kwargs)

        return recorded

    for module_name, module in list(sys.modules.items()):
        if not module_name.startswith("assistant.") or module_name.startswith(
            "assistant.screening"
        ):
            continue
        for name, fn in ANALYSERS.items():
            if getattr(module, name, None) is fn:
                monkeypatch.setattr(module, name, wrap(module_name, name, fn))

    embed = word_embedding.embed

    def recorded_embed(texts: Any) -> Any:
        if question in list(texts):
            embedded["embed"] += 1
        return embed(texts)

    monkeypatch.setattr(word_embedding, "embed", recorded_embed)
    return calls, embedded


@pytest.mark.parametrize(
    "question",
    (
        "Who decides the production go-live?",
        "What is a gate owner?",
        "What must a build-readiness review check?",
    ),
)
def test_answering_a_question_analyses_its_text_once(
    monkeypatch: pytest.MonkeyPatch, question: str
) -> None:
    provider = DeterministicProvider()
    # Every module of the answer path loaded, every model read, before counting starts.
    services.answer(question="How long is a pilot?", provider=provider)
    calls, embedded = _recording(monkeypatch, question)

    run = services.answer(question=question, provider=provider)

    assert run.state is RunState.ANSWERED, run.refusal
    query_module = "assistant.retrieval.query"
    assert dict(calls) == {
        (query_module, "words"): 1,
        (query_module, "stem_words"): 1,
        (query_module, "question_type"): 1,
        (query_module, "defined_term"): 1,
    }
    # The ranker's candidates and the unit ranker read one embedding of the question.
    assert embedded == Counter({"embed": 1})


def test_the_recording_notices_a_stage_that_analyses_the_text_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The check above would see a stage that split the question afresh."""
    question = "Who decides the production go-live?"
    services.answer(question=question, provider=DeterministicProvider())
    calls, _ = _recording(monkeypatch, question)
    index.stems(question)  # what Index.search did before it read the value
    assert calls == Counter({("assistant.retrieval.index", "stems"): 1})
