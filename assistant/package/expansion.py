"""Glossary expansion: the package's own phrases and synonyms, as index and query tokens."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from core.text import stemmed_stopwords, stems

PHRASE_PREFIX = "ph_"


@dataclass(frozen=True)
class Expansion:
    """Glossary-derived phrases and synonyms: the package's own vocabulary for query expansion."""

    phrases: tuple[tuple[str, ...], ...]
    synonyms: dict[tuple[str, ...], tuple[str, ...]]

    @classmethod
    def from_glossary(cls, glossary: dict[str, list[str]]) -> Expansion:
        phrases: set[tuple[str, ...]] = set()
        synonyms: dict[tuple[str, ...], tuple[str, ...]] = {}
        for term, alternatives in glossary.items():
            canonical = tuple(stems(term))
            if not canonical:
                continue
            if len(canonical) > 1:
                phrases.add(canonical)
            for alternative in alternatives:
                alt = tuple(stems(alternative))
                if not alt or alt == canonical:
                    continue
                if len(alt) > 1:
                    phrases.add(alt)
                synonyms.setdefault(alt, canonical)
        return cls(phrases=tuple(sorted(phrases, key=lambda p: (-len(p), p))), synonyms=synonyms)

    def to_json(self) -> dict[str, Any]:
        return {
            "phrases": [list(p) for p in self.phrases],
            "synonyms": [[list(k), list(v)] for k, v in sorted(self.synonyms.items())],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Expansion:
        phrases = tuple(tuple(p) for p in data.get("phrases", []))
        synonyms = {tuple(k): tuple(v) for k, v in data.get("synonyms", [])}
        return cls(phrases=phrases, synonyms=synonyms)

    def phrase_tokens(self, seq: Sequence[str]) -> list[str]:
        """Phrase tokens for every glossary phrase found in a stemmed word sequence."""
        found: list[str] = []
        by_first = self._phrases_by_first
        if not by_first:
            return found
        for i, word in enumerate(seq):
            for phrase in by_first.get(word, ()):
                if tuple(seq[i : i + len(phrase)]) == phrase:
                    found.append(PHRASE_PREFIX + "_".join(phrase))
        return found

    @cached_property
    def _phrases_by_first(self) -> dict[str, tuple[tuple[str, ...], ...]]:
        grouped: dict[str, list[tuple[str, ...]]] = {}
        for phrase in self.phrases:
            grouped.setdefault(phrase[0], []).append(phrase)
        return {k: tuple(v) for k, v in grouped.items()}

    @cached_property
    def _synonyms_by_first(self) -> dict[str, tuple[int, ...]]:
        """Positions in ``self.synonyms`` of the synonyms starting with each word."""
        grouped: dict[str, list[int]] = {}
        for position, alt in enumerate(self.synonyms):
            grouped.setdefault(alt[0], []).append(position)
        return {word: tuple(positions) for word, positions in grouped.items()}

    @cached_property
    def _synonym_items(self) -> tuple[tuple[tuple[str, ...], tuple[str, ...]], ...]:
        return tuple(self.synonyms.items())

    def _synonyms_in(self, seq: Sequence[str]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
        """The synonyms whose first word occurs in ``seq``, in ``self.synonyms`` order."""
        by_first = self._synonyms_by_first
        positions = sorted(p for word in set(seq) for p in by_first.get(word, ()))
        return [self._synonym_items[p] for p in positions]

    def expansions_by_word(self, seq: Sequence[str]) -> dict[str, set[str]]:
        """For each query word inside a synonym occurrence, the canonical tokens it expands to."""
        out: dict[str, set[str]] = {}
        for alt, canonical in self._synonyms_in(seq):
            n = len(alt)
            for i in range(len(seq) - n + 1):
                if tuple(seq[i : i + n]) == alt:
                    tokens = set(canonical)
                    if len(canonical) > 1:
                        tokens.add(PHRASE_PREFIX + "_".join(canonical))
                    for word in alt:
                        out.setdefault(word, set()).update(tokens)
        return out

    def expand(self, seq: Sequence[str]) -> list[str]:
        """Canonical-term tokens for every synonym occurring in a stemmed word sequence."""
        extra: list[str] = []
        for alt, canonical in self._synonyms_in(seq):
            n = len(alt)
            for i in range(len(seq) - n + 1):
                if tuple(seq[i : i + n]) == alt:
                    extra.extend(s for s in canonical if s not in stemmed_stopwords())
                    if len(canonical) > 1:
                        extra.append(PHRASE_PREFIX + "_".join(canonical))
                    break
        return extra
