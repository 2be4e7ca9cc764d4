"""A question split into the requests it addresses, so each is screened on its own.

A request buried in a long description, the third item of a numbered list or the clause after
"then" is scored on its own words, not diluted by the text around it; text in quotation marks is
the asker's context (a quoted package sentence, say) and is never one of the requests. The
training side splits its corpus the same way (``learning/screening/training.py``), so the model
has learnt what a single request looks like.
"""

from __future__ import annotations

import re

# Quoted spans: straight or curly double quotes, and guillemets, of a few words or more.
_QUOTED = re.compile(r"[\"“”«»„][^\"“”«»„]{12,}[\"“”«»„]")
# Where one request ends and the next begins: a sentence or clause end (. ? ! ; :) followed by
# space; a line break; an enumerator ("2)", "(b)", "iii)"; "3." after a comma) or a bullet; and
# a comma or dash before "then", "also" or "and then".
_SPLIT = re.compile(
    r"(?<=[.?!;:])\s+"
    r"|\n+"
    r"|(?<=,)\s+(?=\(?(?:\d{1,2}|[a-h]|i{1,3}|iv|v)[.)]\s)"
    r"|\s(?=\(?(?:\d{1,2}|[a-h]|i{1,3}|iv|v)\)\s)"
    r"|\s[-•*–]\s"
    r"|[,–—-]\s+(?=(?:and\s+)?(?:then|also)\b)",
    re.IGNORECASE,
)
_ENUMERATOR = re.compile(r"^(?:[-•*–]\s+|\(?(?:\d{1,2}|[a-h]|i{1,3}|iv|v)[.)]\s+)", re.IGNORECASE)
#: A request shorter than this many letters is not scored alone (a heading, "Thanks.").
MIN_LETTERS = 12


def without_quotes(text: str) -> str:
    return _QUOTED.sub(" ", text)


def requests(question: str) -> list[str]:
    """The question's sentences, clauses and list items outside quotation marks, each long
    enough to ask something."""
    parts = [_ENUMERATOR.sub("", p.strip()) for p in _SPLIT.split(without_quotes(question)) if p]
    return [p for p in parts if sum(c.isalpha() for c in p) >= MIN_LETTERS]
