"""The labelled-question memory: nearest labelled questions vote for sections and key facts."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.retrieval import question_memory, ranking
from assistant.retrieval.context_pack import get_context_pack
from assistant.retrieval.question_memory import QuestionMemory, Remembered
from learning.evaluation import answers as answer_eval
from learning.training import ranker as ranker_training

GO_LIVE = ("governance-decision-rights.md", "Production go-live")
PILOT = ("capability-lifecycle.md", "Pilot")


def _memory() -> QuestionMemory:
    return QuestionMemory.fit(
        [
            (
                "who signs off on go-live to prod",
                Remembered("ana", (GO_LIVE, PILOT), ("The **product owner** decides",)),
            ),
            ("who gives the final go-live approval", Remembered("ben", (GO_LIVE,), ())),
            ("how long does a pilot run", Remembered("ben", (PILOT,), ("eight weeks",))),
        ]
    )


def test_neighbours_vote_for_the_sections_their_experts_cited() -> None:
    votes = _memory().votes("Who approves the go-live?")
    assert max(votes.sections, key=votes.sections.__getitem__) == GO_LIVE
    # A section cited after the first counts half: the pilot gets less than go-live.
    assert 0 < votes.section(*PILOT) < votes.section(*GO_LIVE)
    assert sum(votes.sections.values()) <= 1.5 + 1e-9
    assert 0 < votes.nearest <= 1.0


def test_votes_for_key_facts_are_read_without_markup() -> None:
    votes = _memory().votes("who signs off go-live")
    total, likeliest = votes.facts_held("At Gate 4 the Product Owner decides.")
    assert total == likeliest > 0
    assert votes.facts_held("The pilot stage starts.") == (0.0, 0.0)


def test_a_question_sharing_no_word_gets_no_votes() -> None:
    assert _memory().votes("zzzzqx") is question_memory.NO_VOTES
    assert QuestionMemory.fit([]).votes("who decides") is question_memory.NO_VOTES


def test_excluding_hides_an_authors_questions_for_the_block_only() -> None:
    memory = _memory()
    with question_memory.excluding({"ben"}):
        hidden = memory.votes("how long does a pilot run")
        with question_memory.excluding({"ana"}):
            assert memory.votes("how long does a pilot run") is question_memory.NO_VOTES
    # The pilot question is ben's: hidden, only ana's question (which cites the pilot) votes.
    assert hidden.nearest < 1.0
    assert memory.votes("how long does a pilot run").nearest == pytest.approx(1.0)


def test_the_shipped_memory_is_the_rankers_training_questions() -> None:
    index = get_context_pack().index
    memory = question_memory.for_index(index)
    asked = [q for path in ranker_training.training_sets() for q in answer_eval.load(path)]
    assert len(memory.remembered) == len(asked)
    q = asked[0]
    assert memory.votes(q.question).nearest == pytest.approx(1.0)
    # Trainers featurise a question with its own author hidden, as a new asker is featurised.
    with question_memory.excluding({q.author}):
        assert memory.votes(q.question).nearest < 0.999


def test_ranker_training_never_lets_a_question_vote_for_itself() -> None:
    index = get_context_pack().index
    q = answer_eval.load(ranker_training.training_sets()[0])[0]
    (example,) = ranker_training.labelled(index, [q])
    column = ranking.rank_features.FEATURES.index("neighbour_vote*nearest_similarity")
    with question_memory.excluding({q.author}):
        expected = question_memory.for_index(index).votes(q.question).nearest
    vote = ranking.rank_features.FEATURES.index("neighbour_vote")
    for row in example.vectors:
        assert row[column] == pytest.approx(row[vote] * expected)


def test_sections_the_memory_votes_for_join_the_candidates() -> None:
    index = get_context_pack().index
    question = "whos on the hook for saying yes to prod"
    votes = question_memory.for_index(index).votes(question)
    assert votes.sections
    result = index.search(question, k=ranking.DEPTH)
    pool = {
        (c.hit.row.source_path, c.hit.row.heading): c
        for c in ranking.candidates(index, question, result)
    }
    best = max(votes.sections, key=votes.sections.__getitem__)
    assert best in pool
    column = ranking.rank_features.FEATURES.index("neighbour_vote")
    assert pool[best].vector[column] == pytest.approx(votes.sections[best])


def test_every_labelled_question_names_sections_the_package_has() -> None:
    # A renamed heading would silently drop the memory's votes and mislabel the evaluation.
    index = get_context_pack().index
    present = {(row.source_path, row.heading) for row in index.rows}
    answers = Path(__file__).resolve().parents[2] / "data" / "answers" / "heldout"
    paths = [*ranker_training.training_sets(), *sorted(answers.glob("*.jsonl"))]
    missing = {
        (path.name, q.id, key)
        for path in paths
        for q in answer_eval.load(path)
        for key in q.sections
        if key not in present
    }
    assert not missing
