"""A derived criterion's key phrases and the element it asks for, read from the package's own text.

Derived criteria (``checklist_criteria.py``, ``rule_criteria.py``) have no declared ``terms`` or
``requires``: both are read from the text that states the criterion, the same way for any package.
Key phrases are the runs of content words between stopwords and punctuation, as one- and two-word
spans, weighted by how rare their words are across the package (a word every section uses names
the package, not the criterion).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from core.text import STOPWORDS, content_stems, stems

CLAUSE_BREAK = re.compile(r"[,;:.()—–!?]|\s-\s")
_WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’-]*")
# What a criterion asks for, in the order they are tried; the first that the text names wins.
_ASKS_FOR = (
    (
        "person",
        re.compile(
            r"\bnamed\b|\bowners?\b|\bwho\b|\baccountable\b|\bresponsible (?:person|lead)\b", re.I
        ),
    ),
    ("date", re.compile(r"\bdates?\b|\bdeadlines?\b|\bdue\b|\bby when\b", re.I)),
    ("amount", re.compile(r"\bcosts?\b|\bbudgets?\b|\bprice\b|\bspend\b", re.I)),
    ("confirmation", re.compile(r"\bsign(?:ed)?[- ]off\b|\bapprov(?:al|ed)\b", re.I)),
)


def asks_for(text: str) -> str:
    """The element a criterion asks a draft to hold (person, date, amount, confirmation), or ""."""
    found = [(m.start(), element) for element, p in _ASKS_FOR if (m := p.search(text))]
    return min(found)[1] if found else ""


@dataclass(frozen=True)
class Weights:
    """How rare each stem is across a set of package texts (its idf)."""

    document_frequency: Counter[str]
    documents: int

    @classmethod
    def of(cls, texts: Iterable[str]) -> Weights:
        documents = [set(content_stems(text)) for text in texts]
        frequency: Counter[str] = Counter(s for doc in documents for s in doc)
        return cls(frequency, len(documents))

    def idf(self, stem: str) -> float:
        return math.log((1 + self.documents) / (1 + self.document_frequency[stem]))

    def weight(self, word: str, excluded: set[str]) -> float:
        """A word's mean idf over its stems; nothing for a word holding an ``excluded`` stem."""
        found = stems(word)
        if not found or excluded & set(found):
            return 0.0
        return sum(self.idf(s) for s in found) / len(found)

    def key_phrases(self, text: str, excluded: set[str], limit: int) -> tuple[str, ...]:
        """The text's best one- and two-word content spans, rarest first (position breaks ties);
        a span holding an ``excluded`` stem is never one."""
        scored: dict[str, tuple[float, int]] = {}
        position = 0
        for run in content_runs(text):
            weights = [self.weight(w, excluded) for w in run]
            for i, word in enumerate(run):
                spans = [([word], weights[i])]
                if i + 1 < len(run):
                    spans.append(([word, run[i + 1]], weights[i] + weights[i + 1]))
                for words, weight in spans:
                    if min(weights[i : i + len(words)]) <= 0:
                        continue
                    phrase = " ".join(words).lower()
                    scored.setdefault(phrase, (weight, position))
                    position += 1
        ranked = sorted(scored.items(), key=lambda kv: (-kv[1][0], kv[1][1]))
        return tuple(phrase for phrase, _ in ranked[:limit])


def content_runs(text: str) -> list[list[str]]:
    """The runs of content words between stopwords and punctuation ("Identify timeline of
    attack" -> [["Identify", "timeline"], ["attack"]]); numbers and one-letter words end a run."""
    runs: list[list[str]] = []
    for clause in CLAUSE_BREAK.split(text):
        run: list[str] = []
        for token in _WORD.findall(clause):
            word = token.strip("'’-")
            if not word or word.lower() in STOPWORDS or word.isdigit() or len(word) < 2:
                if run:
                    runs.append(run)
                run = []
                continue
            run.append(word)
        if run:
            runs.append(run)
    return runs
