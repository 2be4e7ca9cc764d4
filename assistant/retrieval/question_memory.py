"""The project's labelled questions as a memory: which sections answered questions like this one.

The ranker's training questions (the ``answers`` training sets of ``data/MANIFEST.json``, each written by
an author who read only the package, with the sections an expert cites and the verbatim key
facts an answer must hold) are kept as TF-IDF vectors of their stems. A new question is compared
with every one; its nearest neighbours vote for the sections their experts cited (the first
cited in full, the others at half weight) and for the key facts they name, each vote weighted
by the cube of the neighbour's cosine (the nearest askers count most). The votes are two more things the section ranker
(``assistant/retrieval/rank_features.py``) and the unit ranker (``assistant/compose/unit_ranking.py``) weigh: a
question asked in words the package never uses ("who's on the hook for go-live") still lands on
the section earlier askers of the same thing were pointed to.

Nothing is learnt at run time and nothing is downloaded: the memory is a built model file
(``AICD_MODEL_DIR/question_memory.jsonl``, written by ``manage.py build_ranker``), read once per
process; serving never reads a labelled-question file. Training must not let a question vote for itself, so
``excluding(authors)`` hides those authors' questions for the duration of a block (the trainers
score each author by the other authors' questions, as a new asker is scored). A package the
questions do not describe gets no votes: every vote names a (file, heading) pair, and pairs the
package lacks are dropped by the callers.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
from django.conf import settings

from assistant.models.store import ModelNotReady
from assistant.retrieval.query import Query
from core.text import content_stems

if TYPE_CHECKING:
    from assistant.retrieval.index import Index

#: The built memory (``manage.py build_ranker`` writes it from the training questions).
MEMORY_FILE = "question_memory.jsonl"
MEMORY_SCHEMA = "answer-set-jsonl-1"
#: How many of the nearest labelled questions vote.
NEIGHBOURS = 20
#: A neighbour's vote is its cosine to this power, so the closest askers count most (the
#: section ranker's cross-author hit@1 rose from power 1 to 2 and was flat from 2 to 5).
SIMILARITY_POWER = 3
#: A cited section after the first counts this much of a first citation.
LATER_SECTION_WEIGHT = 0.5

SectionKey = tuple[str, str]

_hidden: contextvars.ContextVar[frozenset[str]] = contextvars.ContextVar(
    "question_memory_hidden", default=frozenset()
)


@dataclass(frozen=True)
class Remembered:
    author: str
    sections: tuple[SectionKey, ...]
    key_facts: tuple[str, ...]


@dataclass(frozen=True)
class Votes:
    """What the nearest labelled questions say about one new question."""

    #: Each voted section's share of the neighbours' total similarity (0-1).
    sections: dict[SectionKey, float]
    #: Each key fact the neighbours named (in ``plain`` form), with its share (0-1).
    facts: dict[str, float]
    #: The cosine of the nearest neighbour: how closely anyone asked this before.
    nearest: float

    def section(self, path: str, heading: str) -> float:
        return self.sections.get((path, heading), 0.0)

    def facts_held(self, text: str) -> tuple[float, float]:
        """The voted key facts ``text`` holds verbatim: their summed share (0-1) and the share of
        the likeliest one (a long sentence gathers many weak votes; the fact asked for has one
        strong vote)."""
        if not self.facts:
            return 0.0, 0.0
        held = plain(text)
        shares = [share for fact, share in self.facts.items() if fact in held]
        return min(1.0, sum(shares)), max(shares, default=0.0)


NO_VOTES = Votes({}, {}, 0.0)


@dataclass(frozen=True)
class QuestionMemory:
    vectorizer: Any  # None when there is nothing to remember
    matrix: Any
    remembered: tuple[Remembered, ...]
    authors: Any  # numpy array of each remembered question's author
    #: Spelling correction of a stem (``Index.correct``), applied to both sides alike.
    correct: Callable[[str], str]

    @classmethod
    def fit(
        cls, questions: list[tuple[str, Remembered]], correct: Callable[[str], str] = str
    ) -> QuestionMemory:
        from sklearn.feature_extraction.text import TfidfVectorizer

        vectorizer = TfidfVectorizer(
            token_pattern=r"\S+",  # noqa: S106 - a regex, not a password
            sublinear_tf=True,
        )
        texts = [_document(text, correct) for text, _ in questions]
        if not any(texts):
            return cls(None, None, (), np.array([]), correct)
        matrix = vectorizer.fit_transform(texts)
        # Key facts are matched in ``plain`` form: normalised once here, not on every vote.
        remembered = tuple(
            replace(r, key_facts=tuple(filter(None, map(plain, r.key_facts)))) for _, r in questions
        )
        authors = np.array([r.author for r in remembered])
        return cls(vectorizer, matrix, remembered, authors, correct)

    def votes(self, question: str | Query) -> Votes:
        """The nearest neighbours' votes, leaving out the authors ``excluding`` hides.

        ``question`` is the analysed question (``assistant/retrieval/query.py``), or plain
        text, which is analysed here (the tests and the trainers pass text)."""
        if not self.remembered:
            return NO_VOTES
        query = Query.of(question)
        document = " ".join(map(self.correct, query.content_stems))
        vector = self.vectorizer.transform([document])
        if not vector.nnz:
            return NO_VOTES
        similarity = (self.matrix @ vector.T).toarray().ravel()
        hidden = _hidden.get()
        if hidden:
            similarity[np.isin(self.authors, list(hidden))] = 0.0
        order = np.argsort(-similarity, kind="stable")[:NEIGHBOURS]
        near = [
            (int(i), float(similarity[i]) ** SIMILARITY_POWER) for i in order if similarity[i] > 0.0
        ]
        total = sum(s for _, s in near)
        if not near or total <= 0.0:
            return NO_VOTES
        sections: dict[SectionKey, float] = {}
        facts: dict[str, float] = {}
        for i, s in near:
            r = self.remembered[i]
            for rank, key in enumerate(r.sections):
                weight = 1.0 if rank == 0 else LATER_SECTION_WEIGHT
                sections[key] = sections.get(key, 0.0) + s * weight / total
            for fact in r.key_facts:
                facts[fact] = facts.get(fact, 0.0) + s / total
        return Votes(sections, facts, near[0][1])


_MARKUP = re.compile(r"[*_`#>|]+")


def plain(text: str) -> str:
    """Text as a key fact is matched: no Markdown markup, lowercased, single spaces."""
    return " ".join(_MARKUP.sub(" ", text).lower().split())


def _document(text: str, correct: Callable[[str], str]) -> str:
    return " ".join(map(correct, content_stems(text)))


def read(paths: list[Path]) -> list[tuple[str, Remembered]]:
    """The labelled questions of ``paths`` (the answer-set JSONL format of docs/evaluation.md)."""
    out = []
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            raw = json.loads(line)
            out.append(
                (
                    raw["question"],
                    Remembered(
                        author=raw["author"],
                        sections=tuple((s["path"], s["heading"]) for s in raw["sections"]),
                        key_facts=tuple(raw.get("key_facts", ())),
                    ),
                )
            )
    return out


def built() -> Path:
    """The built memory's file; ``ModelNotReady`` when it is missing."""
    found = Path(settings.AICD_MODEL_DIR) / MEMORY_FILE
    if not found.exists():
        raise ModelNotReady("question_memory", f"is not built ({MEMORY_FILE} is missing)")
    return found


@lru_cache(maxsize=8)
def for_index(index: Index) -> QuestionMemory:
    """The built memory's questions, spelled as ``index``'s package spells its words."""
    return QuestionMemory.fit(read([built()]), index.correct)


@contextlib.contextmanager
def excluding(authors: frozenset[str] | set[str]) -> Iterator[None]:
    """Within the block, the memory does not hear these authors' questions."""
    token = _hidden.set(_hidden.get() | frozenset(authors))
    try:
        yield
    finally:
        _hidden.reset(token)
