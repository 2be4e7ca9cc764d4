"""Which unit of the sent sections answers the question: a learnt score over the unit's named features.

The composer (``assistant/compose/composer.py``) leads with the best unit and adds close ones. Its first
scores were IDF overlap times hand-set weights (``assistant/compose/unit_scoring.py``), set on two
authors' questions. This model learns, from the key facts of the ranker's training questions
(``data/ranking/questions-*.jsonl``), how much each part of that score counts: the
question-term overlap and its share, the heading's, the unit's shape and kind, what the question
asks against what the unit holds (a deciding role, a figure, the sentence defining the term, a
whole list), the section's kind and rank, the unit's place and length, the hand score relative
to the question's best unit, the unit's latent-semantic similarity to the question
(``assistant/retrieval/section_space.py``) and its cosine to the question in the general word
embedding (``assistant/models/word_embedding.py``: "decided by" answers "who approves"), and how much of the key facts the nearest labelled questions
named it holds (``assistant/retrieval/question_memory.py``; a whole list or table apart, since it holds
every item's). A unit's score is the model's probability that it holds a
key fact, so the composer's shares ("a supporting unit scores at least a quarter of the lead")
read on one scale. The weights ship as ``models/unit_ranker.json`` (built by
``manage.py build_unit_ranker``); without that file the hand scores are used.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import numpy as np
from django.conf import settings

from assistant.compose.unit_scoring import Scored, UnitScorer
from assistant.domain.prompt import SourceRef
from assistant.models import word_embedding
from assistant.models.sparse import Shipped, SparseLogistic
from assistant.package.units import LIST, TABLE, unit_text, units
from assistant.retrieval.question_memory import Votes
from assistant.retrieval.section_space import SectionSpace

MODEL_PATH = Path(settings.AICD_MODEL_DIR) / "unit_ranker.json"


def described(
    scorer: UnitScorer,
    refs: tuple[SourceRef, ...],
    space: SectionSpace | None,
    votes: Votes | None = None,
) -> list[tuple[Scored, dict[str, float]]]:
    """Every scored unit of every sent source with its features, the question's own included."""
    rows = [d for i, ref in enumerate(refs) for d in scorer.described(i, ref)]
    best = max((s.score for s, _ in rows), default=0.0) or 1.0
    question = space.question_vector(scorer.query) if space is not None else None
    # The question's embedding is the one the section ranker's candidates read (``Query``).
    asked = scorer.query.embedding
    for scored, feats in rows:
        feats["relative_score"] = scored.score / best
        vectors = _unit_vectors(refs[scored.ref_index].text)
        feats["embedding"] = float(vectors[unit_text(scored.unit)] @ asked)
        if space is not None:
            feats["latent"] = float(question @ space.question_vector(unit_text(scored.unit)))
        if votes is not None and votes.facts:
            total, likeliest = votes.facts_held(unit_text(scored.unit))
            name = (
                "neighbour_facts_whole" if scored.unit.kind in (LIST, TABLE) else "neighbour_facts"
            )
            feats[name] = total
            feats[f"{name}_likeliest"] = likeliest
    return rows


@lru_cache(maxsize=2048)
def _unit_vectors(section_text: str) -> dict[str, np.ndarray]:
    """The word-embedding vector of every unit of a section, once per process: the same
    sections are sent for many questions."""
    texts = list(dict.fromkeys(unit_text(u) for u in units(section_text)))
    return dict(zip(texts, word_embedding.embed(texts), strict=True))


@dataclass(frozen=True)
class UnitRanker(SparseLogistic):
    def rescore(self, rows: list[tuple[Scored, dict[str, float]]]) -> list[Scored]:
        return [Scored(self.probability(feats), s.ref_index, s.unit, s.terms) for s, feats in rows]

    @classmethod
    def from_json(cls, text: str) -> UnitRanker:
        weights, intercept, about, _ = SparseLogistic.parts(text)
        return cls(weights, intercept, about)


SHIPPED: Shipped[UnitRanker] = Shipped("unit_ranker", lambda: MODEL_PATH, UnitRanker.from_json)


def model() -> UnitRanker | None:
    """The unit ranker answers are composed with (None only inside an evaluation's
    ``reading_with(None)``); a missing model raises ``ModelNotReady``."""
    return SHIPPED.get()


def reading_with(fold: UnitRanker | None) -> AbstractContextManager[None]:
    """Answers in this block are composed with ``fold`` (None: hand scores), for the evaluation."""
    return SHIPPED.reading_with(fold)
