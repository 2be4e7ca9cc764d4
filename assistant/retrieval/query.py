"""The question analysed once: built at the door of the answer path and carried down.

Every stage of an answer reads the question's words, its stems, what it asks for and the term
it asks to have defined. Each used to split and stem the text afresh (the index, the ranker's
features four times over, the question memory, the latent space, the unit scorer, the offline
provider); now ``assistant/pipeline/services.py`` builds one ``Query`` from the stripped text
and hands that value to each of them. A part is computed the first time a stage reads it
(``cached_property``), so a question refused before retrieval never pays for its stems or its
embedding.

What depends on the package (the stems as the package spells them, ``Index.search``; the IDF
weights and the nearest labelled questions, ``rank_features.analyse``) is not part of the
question and stays with the stage that learns it. The intent screen (``assistant/screening/``)
reads the raw text for its own spelling and is given ``text``.

It lives in ``retrieval/`` because its question type is ``assistant/retrieval/question_types.py``'s
and its embedding is the word embedding's (``assistant/models/word_embedding.py``), and every
reader (retrieval, review, verify, compose, providers, pipeline) sits at or above this layer;
``domain/prompt.ProviderRequest`` carries it under a type-only import.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from assistant.models import word_embedding
from assistant.retrieval.question_types import defined_term, question_type
from core.text import STOPWORDS, content_stems, stem_words, words

if TYPE_CHECKING:
    import numpy as np


@dataclass(frozen=True)
class Query:
    """One asked question and what it is made of; equal when the text is (parts are derived)."""

    #: The question's text (the pipeline strips it before building the value).
    text: str

    @classmethod
    def of(cls, question: str | Query) -> Query:
        """``question`` itself when it is analysed already, else its analysis: the stages that
        tests and the learning side call with plain text keep taking it."""
        return question if isinstance(question, Query) else cls(question)

    @cached_property
    def words(self) -> tuple[str, ...]:
        """Lowercased alphanumeric words, accents folded (``core.text.words``)."""
        return tuple(words(self.text))

    @cached_property
    def stems(self) -> tuple[str, ...]:
        """Every word stemmed, stopwords kept: glossary phrases and spelling read the sequence."""
        return tuple(stem_words(self.words))

    @cached_property
    def content_stems(self) -> tuple[str, ...]:
        """The stems of the words that are not stopwords, in order (``core.text.content_stems``)."""
        return tuple(
            stem for word, stem in zip(self.words, self.stems, strict=True) if word not in STOPWORDS
        )

    @cached_property
    def question_type(self) -> str:
        """What the question asks for (``assistant/retrieval/question_types.py``)."""
        return question_type(self.text)

    @cached_property
    def defined_term(self) -> str | None:
        """The X of "What is X?", "Define X", "What does X mean?", whatever the question type."""
        return defined_term(self.text)

    @cached_property
    def defined_stems(self) -> frozenset[str]:
        """The content stems of ``defined_term`` (empty without one): a heading or a defining
        sentence names the term when its stems are these."""
        term = self.defined_term
        return frozenset(content_stems(term)) if term else frozenset()

    @cached_property
    def embedding(self) -> np.ndarray:
        """The question's unit vector in the general word embedding; the section ranker's
        candidates and the unit ranker read the same one."""
        vector: np.ndarray = word_embedding.embed([self.text])[0]
        return vector
