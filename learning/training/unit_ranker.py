"""Learning the unit ranker (``assistant/compose/unit_ranking.py``) from the ranker's labelled questions.

Each training question (``data/ranking/questions-*.jsonl``) is run through the answer
pipeline up to the provider call, so its units are those of the sections the pipeline really
sends. Every scored unit is one example: positive when its rendered text holds one of the
question's verbatim key facts (as ``learning/evaluation/answers.py`` reads them), negative otherwise;
a whole list or table, which holds every fact of its items, is positive only when it holds two
of the facts or the question asks for a list (its author labelled it ``what_must``), so the model
does not learn that longer units answer better.
The model is an L2 logistic regression (scikit-learn, lbfgs, balanced classes, fixed order, so
``manage.py build_unit_ranker --check`` can tell a stale committed model). ``train`` also reports
the cross-author figure: for each author, the share of their questions whose best unit holds a
key fact, read by a model trained on the other authors, against the hand score's.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from assistant.compose.unit_ranking import UnitRanker, described
from assistant.compose.unit_scoring import UnitScorer
from assistant.compose.unit_writing import render
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.package.units import LIST, TABLE
from assistant.pipeline import services
from assistant.providers.base import ProviderResponse
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval import question_memory, section_space
from assistant.retrieval.context_pack import get_context_pack
from learning.evaluation import answers as answer_eval
from learning.training import ranker as ranker_training

REGULARISATION_C = 0.3


#: One scored unit: its features, whether it answers the question, and its hand score.
Unit = tuple[dict[str, float], bool, float]


@dataclass(frozen=True)
class Example:
    author: str
    units: tuple[Unit, ...]


class _Recording(DeterministicProvider):
    """The deterministic provider, keeping the package sources of the last request."""

    refs: tuple[SourceRef, ...] = ()

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        self.refs = request.package_refs
        return super().complete(request)


def answers(facts_held: int, kind: str, qtype: str) -> bool:
    """Whether a unit holding ``facts_held`` of a question's key facts is one that answers it.

    A whole list or table holds every fact of its items, so it answers only a question asking
    for the list (labelled ``what_must``) or one whose facts sit in several of its items.
    """
    if kind in (LIST, TABLE):
        return facts_held >= 2 or (facts_held == 1 and qtype == "what_must")
    return facts_held >= 1


def examples() -> list[Example]:
    index = get_context_pack().index
    space = section_space.for_index(index)
    provider = _Recording()
    out: list[Example] = []
    for path in ranker_training.training_sets():
        for q in answer_eval.load(path):
            provider.refs = ()
            # As for a new asker: the question's own author is not in the labelled-question memory.
            with question_memory.excluding({q.author}):
                services.answer(question=q.question, provider=provider)
            refs = provider.refs
            if not refs:
                continue
            facts = [answer_eval.fact_text(f) for f in q.key_facts]
            scorer = UnitScorer(q.question, index.expansion, index.idf)
            with question_memory.excluding({q.author}):
                votes = question_memory.for_index(index).votes(q.question)
            units: list[Unit] = []
            for scored, feats in described(scorer, refs, space, votes):
                text = answer_eval.plain(render(scored.unit, refs[scored.ref_index]))
                held = sum(f in text for f in facts)
                units.append((feats, answers(held, scored.unit.kind, q.qtype), scored.score))
            out.append(Example(q.author, tuple(units)))
    return out


def fit(items: Sequence[Example]) -> UnitRanker:
    xs = [feats for e in items for feats, _, _ in e.units]
    ys = [int(holds) for e in items for _, holds, _ in e.units]
    vectorizer = DictVectorizer()
    lr = LogisticRegression(C=REGULARISATION_C, max_iter=5000, class_weight="balanced")
    lr.fit(vectorizer.fit_transform(xs), ys)
    weights = dict(
        zip(vectorizer.get_feature_names_out(), (float(w) for w in lr.coef_[0]), strict=True)
    )
    return UnitRanker(weights, float(lr.intercept_[0]), {})


def _best_holds(items: Sequence[Example], score: Callable[[Unit], float]) -> float:
    """The share of questions (with a fact-holding unit) whose best-scoring unit holds a fact."""
    asked = [e for e in items if any(holds for _, holds, _ in e.units)]
    hits = 0
    for e in asked:
        best = max(e.units, key=score)
        hits += best[1]
    return hits / (len(asked) or 1)


def _by(model: UnitRanker) -> Callable[[Unit], float]:
    return lambda u: model.probability(u[0])


def cross_author(items: Sequence[Example]) -> dict[str, dict[str, float]]:
    out = {}
    for author in sorted({e.author for e in items}):
        fold = fit([e for e in items if e.author != author])
        mine = [e for e in items if e.author == author]
        out[author] = {
            "learnt": round(_best_holds(mine, _by(fold)), 3),
            "hand": round(_best_holds(mine, lambda u: u[2]), 3),
        }
    return out
