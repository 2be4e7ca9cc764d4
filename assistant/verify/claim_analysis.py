"""Claim text analysis: source sentences and claims in stems, glossary synonyms and package words.

A sent source is read once into its sentences (table rows included, as the offline answer quotes
them), each with the facts that must agree exactly (numbers, durations, roles, modals, negation
scopes). Stemming comes from ``core.text``, synonyms from ``assistant.package.expansion``; an analyzer
memoises sentences per process.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Container, Iterable
from dataclasses import dataclass, field

from assistant.domain.prompt import SourceRef
from assistant.package.expansion import Expansion
from assistant.package.units import ROW, units
from assistant.verify.claims import (
    MODAL_WORDS,
    durations,
    flat,
    modals,
    negation_scopes,
    numbers_counted,
    roles,
)
from assistant.verify.output_rails import plain_text
from core.text import content_stems, stems, words

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"'(*`])")


@dataclass(eq=False)
class Sentence:
    text: str
    terms: frozenset[str]
    tokens: frozenset[str]
    numbers: Counter[str] = field(default_factory=Counter)
    durations: set[str] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)
    modals: Counter[str] = field(default_factory=Counter)
    negations: Counter[str] = field(default_factory=Counter)


class Analyzer:
    """Text analysis shared by every claim of one answer: stems, glossary synonyms, package words."""

    MEMO_SIZE = 50_000

    def __init__(self, expansion: Expansion, vocabulary: Container[str] = ()) -> None:
        self.expansion = expansion
        self.vocabulary = vocabulary
        # The same package rows are sent again and again: a sentence is analysed once per
        # process (read-only afterwards), not on every answer.
        self._sentences: dict[str, Sentence] = {}

    def terms(self, text: str) -> list[str]:
        """Content stems, without modal and negation words (those are checked on their own)."""
        return [s for s in content_stems(text) if s not in _structural_stems()]

    def tokens(self, text: str) -> frozenset[str]:
        """What a source offers for matching: its stems, glossary phrases and canonical terms."""
        seq = stems(text)
        expanded = {t for ts in self.expansion.expansions_by_word(seq).values() for t in ts}
        return frozenset(seq) | frozenset(self.expansion.phrase_tokens(seq)) | expanded

    def claim_alternatives(self, text: str) -> dict[str, set[str]]:
        """For each claim stem inside a glossary synonym, the canonical tokens it may match."""
        return self.expansion.expansions_by_word(stems(text))

    def sentence(self, text: str) -> Sentence:
        found = self._sentences.get(text)
        if found is None:
            if len(self._sentences) >= self.MEMO_SIZE:
                self._sentences.clear()
            found = self._sentences[text] = self._analyse(text)
        return found

    def _analyse(self, text: str) -> Sentence:
        return Sentence(
            text=text,
            terms=frozenset(self.terms(text)),
            tokens=self.tokens(text),
            numbers=numbers_counted(text),
            durations=durations(text),
            roles=roles(text),
            modals=modals(text),
            negations=negation_scopes(text),
        )

    def same_phrase(self, phrase: str, known: Iterable[str]) -> bool:
        """Whether ``phrase`` is one of ``known``, or a glossary synonym of one of them."""
        mine = tuple(stems(phrase))
        canonical = self.expansion.synonyms.get(mine, mine)
        for other in known:
            theirs = tuple(stems(other))
            if (
                theirs in (mine, canonical)
                or self.expansion.synonyms.get(theirs, theirs) == canonical
            ):
                return True
        return False

    def name_known(
        self,
        name: str,
        known_words: frozenset[str],
        source_tokens: frozenset[str],
        alternatives: dict[str, set[str]],
    ) -> bool:
        """Whether a capitalised name occurs in the sources, itself or as (part of) a glossary
        synonym of a term the sources use ("BAU owner" for "sustainment owner")."""
        if set(words(name)) <= known_words:
            return True
        return all(alternatives.get(stem, set()) & source_tokens for stem in stems(name))

    def known_word(self, word: str) -> bool:
        stem = content_stems(word)
        return not stem or stem[0] in self.vocabulary


_STRUCTURAL: frozenset[str] | None = None


def _structural_stems() -> frozenset[str]:
    global _STRUCTURAL
    if _STRUCTURAL is None:
        _STRUCTURAL = frozenset(content_stems(" ".join(MODAL_WORDS)))
    return _STRUCTURAL


@dataclass
class SourceText:
    """One sent source, analysed: its sentences and the words of its text, title and metadata."""

    citation_id: str
    sentences: list[Sentence]
    header: Sentence
    words: frozenset[str]
    flat: str
    header_words: frozenset[str] = frozenset()
    #: The text alone, flattened, without the title and metadata that ``flat`` ends with.
    text_flat: str = ""
    #: Each of its sentences, flattened and without final punctuation (``whole_sentence``).
    sentence_flats: frozenset[str] = frozenset()

    @classmethod
    def of(cls, ref: SourceRef, analyzer: Analyzer) -> SourceText:
        text = plain_text(ref.text)
        header_text = plain_text(" ".join([ref.title, *(str(v) for v in ref.meta.values())]))
        sentences = [
            analyzer.sentence(s)
            for line in text.splitlines()
            if line.strip()
            for s in _SENTENCE_SPLIT.split(line.strip())
            if s.strip()
        ]
        sentences += [analyzer.sentence(plain_text(row)) for row in row_readings(ref.text)]
        header = analyzer.sentence(header_text)
        return cls(
            citation_id=ref.citation_id,
            sentences=sentences,
            header=header,
            words=frozenset(words(text + " " + header_text)),
            # The source as written, too: a verbatim quote of it is a quote whatever markup it
            # holds (a Markdown link a lane quotes with round brackets, say).
            flat=flat(text + "\n" + ref.text + "\n" + header_text),
            header_words=frozenset(words(header_text)),
            text_flat=flat(text),
            sentence_flats=frozenset(whole_sentence(s.text) for s in sentences),
        )


def whole_sentence(text: str) -> str:
    """A sentence as :class:`SourceText` keeps it for comparison: flattened, final punctuation
    aside."""
    return flat(text).rstrip(".;:,!? ")


def row_readings(text: str) -> list[str]:
    """Each table row of a source as the offline answer quotes it, with its header ("Pilot —
    Gate owner: Product owner"): a quoted row is read against the row it quotes."""
    return [u.text for u in units(text) if u.kind == ROW]


_ANALYZERS: dict[tuple[int, int], Analyzer] = {}


def analyzer_for(expansion: Expansion, vocabulary: Container[str] = ()) -> Analyzer:
    """One analyzer per (expansion, vocabulary) pair in use: the pack's, in the app."""
    key = (id(expansion), id(vocabulary))
    found = _ANALYZERS.get(key)
    if found is None or found.expansion is not expansion or found.vocabulary is not vocabulary:
        if len(_ANALYZERS) >= 8:
            _ANALYZERS.clear()
        found = _ANALYZERS[key] = Analyzer(expansion, vocabulary)
    return found
