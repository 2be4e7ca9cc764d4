"""The composed Package says lane: the unit that answers first, clean lists, no repeats, no anti-pattern as guidance."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from assistant.compose import unit_writing
from assistant.domain import lanes
from assistant.domain.modes import RunState
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval import question_types

DEV = Path(__file__).resolve().parents[2] / "data" / "ranking" / "questions-analyst.jsonl"


def _answer(question: str):  # type: ignore[no-untyped-def]
    run = services.answer(question=question, provider=DeterministicProvider())
    assert run.state is RunState.ANSWERED, run.refusal
    text = next(lane.text for lane in run.lanes if lane.label == lanes.PACKAGE_SAYS)
    return run, text


def _headings(run) -> list[str]:  # type: ignore[no-untyped-def]
    return [c.title.split(" — ", 1)[1] for c in run.citations_of_class(lanes.PACKAGE_CITATION)]


def test_build_readiness_question_gets_the_whole_readiness_checklist() -> None:
    run, text = _answer("What must a build-readiness review check?")
    assert _headings(run)[0] == "Readiness checklist"
    for item in ("Problem statement", "Kill criteria", "Security booking", "Model route"):
        assert f"- {item} — Evidence expected:" in text
    assert "Six-question first risk screen with routing" in text


def test_production_go_live_names_the_product_owner_at_gate_4() -> None:
    run, text = _answer("Who decides the production go-live?")
    assert text.startswith("Production go-live is decided by the product owner at Gate 4")
    assert "demo impressed a sponsor" not in text
    assert 1 <= len(run.citations_of_class(lanes.PACKAGE_CITATION)) <= 4


def test_a_line_ending_in_a_colon_brings_its_list() -> None:
    _, text = _answer("Why do server-side provider calls matter?")
    assert text.startswith("Server-side provider calls matter for four reasons: [P1]")
    assert (
        "- Provider credentials never reach a device the enterprise does not control. [P1]" in text
    )


@pytest.mark.parametrize(
    ("question", "opening"),
    [
        ("What is a gate owner?", "A gate owner is the named owner who decides a stage gate"),
        ("What is a source owner?", "A source owner is the person accountable"),
        ("What is a stage gate?", "A stage gate is a decision point"),
    ],
)
def test_definition_questions_lead_with_the_definition(question: str, opening: str) -> None:
    run, text = _answer(question)
    assert text.startswith(opening)
    assert _headings(run)[0] == question.removeprefix("What is a ").rstrip("?").capitalize()


def test_anti_pattern_text_is_only_quoted_as_a_warning() -> None:
    _, text = _answer('What is the "permanent pilot" anti-pattern and how is it fixed?')
    assert "A pilot runs for months with growing use and no go-live decision" in text
    for paragraph in text.split("\n\n"):
        if "Permanent pilot" in paragraph:
            assert paragraph.startswith(unit_writing.WARNS_AGAINST)


def _dev_questions(n: int) -> list[str]:
    lines = DEV.read_text(encoding="utf-8").splitlines()[:n]
    return [json.loads(line)["question"] for line in lines]


def test_answers_are_clean_short_and_never_repeat_a_sentence() -> None:
    for question in _dev_questions(80):
        run = services.answer(question=question, provider=DeterministicProvider())
        if run.state is not RunState.ANSWERED:
            continue
        text = run.lanes[0].text
        assert ";." not in text and ":." not in text, question
        assert not re.search(r":\s*\[P\d+\]\s*$", text), question  # no dangling lead-in at the end
        for paragraph in text.split("\n\n"):
            body = paragraph.strip()
            if body.endswith(":"):
                raise AssertionError(f"dangling ':' in {question!r}")
        quoted = [
            re.sub(r"\s*\[P\d+\]$", "", line.strip("- "))
            for line in text.splitlines()
            if line.strip()
        ]
        assert len(quoted) == len(set(quoted)), question
        assert 1 <= len(run.citations_of_class(lanes.PACKAGE_CITATION)) <= 4


def test_question_types() -> None:
    assert question_types.question_type("Who decides the production go-live?") == question_types.WHO
    assert question_types.question_type("How long is a pilot?") == question_types.FIGURE
    assert (
        question_types.question_type("What must a build-readiness review check?")
        == question_types.LISTING
    )
    assert question_types.question_type("What is a gate owner?") == question_types.DEFINITION
    assert question_types.defined_term('What is "approval creep"?') == "approval creep"


def test_the_rest_of_the_leading_section_follows_the_answer_within_the_budget() -> None:
    from assistant.compose import composer
    from assistant.retrieval.context_pack import get_context_pack

    pack = get_context_pack()
    run, text = _answer("Who decides the production go-live?")
    lead = run.citations_of_class(lanes.PACKAGE_CITATION)[0]
    section = next(r for r in pack.rows if f"{r.title} — {r.heading}" == lead.title)
    sentences = [s for s in re.split(r"(?<=[.!?])\s+", section.text) if len(s) > 40]
    # The direct answer leads, and the section's other sentences follow it in the answer.
    assert text.startswith("Production go-live is decided by the product owner at Gate 4")
    carried = [s for s in sentences if s.rstrip(".") in text]
    assert len(carried) >= min(3, len(sentences)), carried
    assert len(text) <= composer.MAX_CHARS + 200
    # Never a sentence twice, though the lead is also part of the rest of its section.
    assert text.count("Production go-live is decided by the product owner at Gate 4") == 1


def _compose(question: str, sections: list[str]) -> str:
    from assistant.compose.composer import Composer
    from assistant.domain.prompt import SourceRef
    from assistant.retrieval.context_pack import get_context_pack

    index = get_context_pack().index
    refs = tuple(
        SourceRef(f"P{i}", lanes.PACKAGE_CITATION, f"Guide — Part {i}", text)
        for i, text in enumerate(sections, 1)
    )
    return Composer(question, index.expansion, index.idf).compose(refs)


def test_the_rest_of_the_section_includes_sentences_that_share_no_word_with_the_question() -> None:
    section = (
        "One study found that assisted programmers wrote code faster than others.\n\n"
        "Submitted pull requests rose sharply in the assisted group.\n\n"
        "However, successful builds showed no significant difference between the two groups."
    )
    text = _compose("Do coding assistants make programmers faster?", [section])
    assert text.startswith("One study found that assisted programmers wrote code faster")
    # The qualifying sentence shares no word with the question; it is the section's answer too.
    assert "However, successful builds showed no significant difference" in text


def test_a_long_leading_section_is_carried_beyond_the_fixed_limit_up_to_its_own_length() -> None:
    from assistant.compose import composer

    filler = [
        f"Paragraph {n} of the rollback procedure records step {n} for the operator on duty."
        for n in range(1, 40)
    ]
    section = "Rollback is rehearsed before every pilot.\n\n" + "\n\n".join(filler)
    assert len(section) > composer.MAX_CHARS + 400
    text = _compose("When is rollback rehearsed?", [section])
    assert text.startswith("Rollback is rehearsed before every pilot.")
    assert len(text) > composer.MAX_CHARS
    assert "Paragraph 39 of the rollback procedure" in text
    # Never longer than the section quoted whole (with its citation markers).
    assert len(text) <= len(section) + 8 * len(filler)
