"""A question split into the requests it addresses, so each is screened on its own.

A request buried in a long description, or the third of three questions, is scored on its own
words, not diluted by the text around it; text in quotation marks is the asker's context (a
quoted package sentence, say) and is never one of the requests.
"""

from __future__ import annotations

import re

# Quoted spans: straight or curly double quotes, and guillemets, of a few words or more.
_QUOTED = re.compile(r"[\"“”«»„][^\"“”«»„]{12,}[\"“”«»„]")
# Sentence and clause ends: . ? ! ; : and line breaks, followed by space or the end.
_SPLIT = re.compile(r"(?<=[.?!;:])\s+|\n+")
#: A request shorter than this many letters is not scored alone (a heading, "Thanks.").
MIN_LETTERS = 12


def without_quotes(text: str) -> str:
    return _QUOTED.sub(" ", text)


def requests(question: str) -> list[str]:
    """The question's sentences and clauses outside quotation marks, each long enough to ask."""
    parts = [p.strip() for p in _SPLIT.split(without_quotes(question))]
    return [p for p in parts if sum(c.isalpha() for c in p) >= MIN_LETTERS]
