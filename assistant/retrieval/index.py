"""Lexical retrieval over context-pack rows: the BM25 index (bm25s), field weighting, typo correction."""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING

from assistant.domain.types import PackageRow
from assistant.package.expansion import Expansion
from assistant.retrieval import support
from assistant.retrieval.query import Query
from core.text import stemmed_stopwords, stems

if TYPE_CHECKING:
    import bm25s

HEADING_WEIGHT = 3
TITLE_WEIGHT = 2
# Short, term-dense glossary rows would otherwise crowd out the guidance that explains a term.
TOPIC_WEIGHTS = {"glossary": 0.6}
MIN_TYPO_LENGTH = 5
SUPPORT_DEPTH = 3
# Up to this many rows, every row's index tokens are analysed on the first search.
ANALYSED_AHEAD_ROWS = 2000


def analyze(text: str, expansion: Expansion) -> list[str]:
    """Index-side tokens of a text: content stems plus glossary phrase tokens."""
    return analyze_stems(stems(text), expansion)


def analyze_stems(seq: Sequence[str], expansion: Expansion) -> list[str]:
    """``analyze`` of a text already stemmed (an analysed question's ``stems``)."""
    return [s for s in seq if s not in stemmed_stopwords()] + expansion.phrase_tokens(seq)


def row_tokens(row: PackageRow, expansion: Expansion) -> list[str]:
    """Field-weighted tokens for one row: heading and title count more than body text."""
    return (
        analyze(row.text, expansion)
        + analyze(row.heading, expansion) * HEADING_WEIGHT
        + analyze(row.title, expansion) * TITLE_WEIGHT
    )


def _query_tokens_from(seq: Sequence[str], expansion: Expansion) -> list[str]:
    base = [s for s in seq if s not in stemmed_stopwords()]
    return base + expansion.phrase_tokens(seq) + expansion.expand(seq)


_ALPHABET = "abcdefghijklmnopqrstuvwxyz"


def _edits1(word: str) -> set[str]:
    """Every string one deletion, transposition, replacement or insertion away from ``word``."""
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    deletes = {a + b[1:] for a, b in splits if b}
    transposes = {a + b[1] + b[0] + b[2:] for a, b in splits if len(b) > 1}
    replaces = {a + c + b[1:] for a, b in splits if b for c in _ALPHABET}
    inserts = {a + c + b for a, b in splits for c in _ALPHABET}
    return deletes | transposes | replaces | inserts


@dataclass(frozen=True)
class Hit:
    """A ranked row; ``matched_terms`` is filled for the leading rows only (they decide support)."""

    row: PackageRow
    score: float
    matched_terms: tuple[str, ...]


@dataclass(frozen=True)
class SearchResult:
    """Ranked rows and how much of the question they cover (the answerability check reads both)."""

    hits: tuple[Hit, ...]
    query_terms: tuple[str, ...]
    top_score: float
    coverage: float
    coverage_top: float = 0.0
    #: The question's stems as the package spells them (``Index.correct``), which the ranker's
    #: features read again (``rank_features.analyse``) rather than correcting them twice.
    spelled: tuple[str, ...] = ()

    @property
    def top(self) -> Hit | None:
        return self.hits[0] if self.hits else None


class Index:
    """A BM25 index over the context-pack rows, built once and loaded from disk afterwards."""

    def __init__(
        self,
        rows: Sequence[PackageRow],
        expansion: Expansion,
        bm25: bm25s.BM25,
        doc_freq: dict[str, int],
    ):
        self.rows = list(rows)
        self.expansion = expansion
        self._bm25 = bm25
        self.doc_freq = doc_freq

    @classmethod
    def build(cls, rows: Sequence[PackageRow], expansion: Expansion) -> Index:
        import bm25s  # with numpy, imported on first use: start-up never builds or loads an index

        bm25 = bm25s.BM25()
        corpus = [row_tokens(row, expansion) or [""] for row in rows]
        bm25.index(corpus, show_progress=False)
        doc_freq: dict[str, int] = {}
        for tokens in corpus:
            for token in set(tokens):
                doc_freq[token] = doc_freq.get(token, 0) + 1
        return cls(rows, expansion, bm25, doc_freq)

    def save(self, directory: Path) -> None:
        directory.mkdir(parents=True, exist_ok=True)
        self._bm25.save(str(directory / "bm25"))
        (directory / "expansion.json").write_text(json.dumps(self.expansion.to_json()))
        (directory / "doc_freq.json").write_text(json.dumps(self.doc_freq))

    @classmethod
    def load(cls, directory: Path, rows: Sequence[PackageRow]) -> Index:
        import bm25s

        bm25 = bm25s.BM25.load(str(directory / "bm25"))
        expansion = Expansion.from_json(json.loads((directory / "expansion.json").read_text()))
        doc_freq = json.loads((directory / "doc_freq.json").read_text())
        return cls(rows, expansion, bm25, doc_freq)

    def idf(self, term: str) -> float | None:
        """BM25's IDF for a term, or None when the package never uses it."""
        df = self.doc_freq.get(term)
        if not df:
            return None
        n = len(self.rows)
        return math.log((n - df + 0.5) / (df + 0.5) + 1.0)

    @cached_property
    def longest_word(self) -> int:
        """The length of the package's longest plain word (phrase tokens excluded)."""
        return max((len(t) for t in self.doc_freq if t.isalpha()), default=0)

    def correct(self, stem: str) -> str:
        """A stem the package never uses, corrected to the most common package stem one edit away."""
        if len(stem) < MIN_TYPO_LENGTH or stem in self.doc_freq or not stem.isalpha():
            return stem
        if len(stem) > self.longest_word + 1:
            # One edit changes the length by at most one: no package word can be one edit away,
            # so a very long word (a pasted blob) costs nothing instead of 100k candidates.
            return stem
        # Sorted, so that among equally frequent candidates the alphabetically first wins in every
        # process (a set's order changes with the hash seed); map and max run in C, which matters
        # for long questions with several unknown words.
        candidates = sorted(_edits1(stem))
        dfs = list(map(self.doc_freq.get, candidates, itertools.repeat(0)))
        best_df = max(dfs, default=0)
        if best_df <= 0:
            return stem
        return candidates[dfs.index(best_df)]

    def spelled(self, query: Query) -> tuple[str, ...]:
        """The question's stems, each corrected to the package's spelling (``correct``)."""
        return tuple(self.correct(s) for s in query.stems)

    def search(self, question: str | Query, *, k: int = 5) -> SearchResult:
        """Rank rows for ``question``, with how much of it the leading rows cover.

        ``question`` is the analysed question (``assistant/retrieval/query.py``); plain text, as
        tests and the learning side pass it, is analysed here."""
        seq = self.spelled(Query.of(question))
        terms = _query_tokens_from(seq, self.expansion)
        known = [t for t in terms if t in self._bm25.vocab_dict]
        if not known or not self.rows:
            return SearchResult((), tuple(terms), 0.0, 0.0, spelled=seq)
        ranked = self._rank(known, k)
        if not ranked:
            return SearchResult((), tuple(terms), 0.0, 0.0, spelled=seq)
        # Only the leading rows decide support; the others need no term analysis.
        leading = self._terms_in_rows([doc_id for _, doc_id in ranked[:SUPPORT_DEPTH]], set(terms))
        hits: list[Hit] = []
        for rank, (score, doc_id) in enumerate(ranked):
            matched = tuple(sorted(leading[rank])) if rank < SUPPORT_DEPTH else ()
            hits.append(Hit(row=self.rows[doc_id], score=score, matched_terms=matched))
        top = hits[0]
        words = support.question_words(seq, self.expansion)
        coverage = support.coverage(words, set(top.matched_terms), self.idf)
        union = {t for h in hits[:SUPPORT_DEPTH] for t in h.matched_terms}
        coverage_top = support.coverage(words, union, self.idf)
        return SearchResult(
            tuple(hits), tuple(terms), top.score, coverage, coverage_top, spelled=seq
        )

    def _rank(self, known: list[str], k: int) -> list[tuple[float, int]]:
        """The top ``k`` (topic-weighted score, row) pairs, best first, ties by row order.

        BM25 picks the ``depth`` best rows (bm25s's own selection: one ``argpartition``); the
        topic weights then reorder those. Scores and row ids leave numpy as Python lists in one
        call each, which is most of the cost for a small package.
        """
        import numpy as np

        scores = self._bm25.get_scores(known)
        depth = min(len(self.rows), max(k * 3, 20))
        best = np.argpartition(scores, -depth)[-depth:]
        weights = self._topic_weights
        ranked = [
            (score * weights[doc_id], doc_id)
            for score, doc_id in zip(scores[best].tolist(), best.tolist(), strict=True)
            if score > 0
        ]
        ranked.sort(key=lambda pair: (-pair[0], pair[1]))
        return ranked[:k]

    @cached_property
    def _topic_weights(self) -> list[float]:
        return [TOPIC_WEIGHTS.get(row.topic, 1.0) for row in self.rows]

    def _terms_in_rows(self, doc_ids: list[int], terms: Iterable[str]) -> list[list[str]]:
        """For each row, those of ``terms`` that are among its index tokens (``row_tokens``).

        A row's tokens are analysed once per process (see ``_row_terms``).
        """
        wanted = list(terms)
        return [[t for t in wanted if t in self._tokens_of(d)] for d in doc_ids]

    @cached_property
    def _row_terms(self) -> dict[int, frozenset[str]]:
        """Row id -> the row's index tokens. A package of up to ``ANALYSED_AHEAD_ROWS`` rows is
        analysed on the first search (a few MiB at most); a larger one row by row, when a row
        first leads a search."""
        if len(self.rows) > ANALYSED_AHEAD_ROWS:
            return {}
        return {i: frozenset(row_tokens(row, self.expansion)) for i, row in enumerate(self.rows)}

    def _tokens_of(self, doc_id: int) -> frozenset[str]:
        tokens = self._row_terms.get(doc_id)
        if tokens is None:
            tokens = frozenset(row_tokens(self.rows[doc_id], self.expansion))
            self._row_terms[doc_id] = tokens
        return tokens
