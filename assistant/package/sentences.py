"""Sentence splitting and query-overlap scoring, for extractive (quoted) answers."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache

from core.text import content_stems

_ITEM_MARKER = re.compile(r"^(?:- |\d{1,3}\. )")
_SPLIT = re.compile(r"(?<=[.!?])[\"')\]]?\s+(?=[A-Z0-9\"'(*`])")
MIN_SENTENCE_CHARS = 25
_REFERENCE_LINES = ("See:", "Also called:")
MAX_SENTENCE_CHARS = 600
# A full stop after a URL would read as part of it.
_ENDS_IN_URL = re.compile(r"(?:https?://|www\.)\S+$", re.I)
# A sentence ends at its punctuation, also when closing quotes or brackets follow it ("stand.'").
_ENDED = re.compile(r"[.!?:][\"'\u201d\u2019)\]]*$")


def split_sentences(text: str) -> list[str]:
    """Sentences of a plain-text block; each line is split separately, table rows are skipped.

    A list item's marker ("- ", "1. ") is dropped, and an item ending in ";" or "," ends in "."
    """
    out: list[str] = []
    for line in text.splitlines():
        line = _ITEM_MARKER.sub("", line.strip())
        if not line or " | " in line or line.startswith(_REFERENCE_LINES) or "Also called:" in line:
            continue
        for sentence in _SPLIT.split(line):
            sentence = sentence.strip().rstrip(";,").rstrip()
            if MIN_SENTENCE_CHARS <= len(sentence) <= MAX_SENTENCE_CHARS:
                ended = _ENDED.search(sentence) or _ENDS_IN_URL.search(sentence)
                out.append(sentence if ended else sentence + ".")
    return out


def best_sentences(
    text: str,
    terms: Iterable[str],
    *,
    limit: int,
    shared: bool = False,
    split: Callable[[str], list[str]] | None = None,
) -> list[str]:
    """Up to ``limit`` sentences with the most query terms, returned in their original order.

    ``shared=True`` is for approved package text only: its sentence analysis is the same for
    every question and is remembered. Any other text is analysed afresh and kept nowhere.
    ``split`` reads the text's sentences another way (uploads: ``upload_sentences.quotable``).
    """
    wanted = set(terms)
    scored = []
    if split is not None:
        analysed = tuple((s, frozenset(content_stems(s))) for s in split(text))
    else:
        analysed = _analysed_shared(text) if shared else _analysed(text)
    for position, (sentence, sentence_stems) in enumerate(analysed):
        overlap = len(wanted.intersection(sentence_stems))
        scored.append((overlap, -position, sentence))
    top = sorted(scored, reverse=True)[:limit]
    chosen = [s for s in top if s[0] > 0] or top[:1]
    return [s[2] for s in sorted(chosen, key=lambda s: -s[1])]


def _analysed(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    return tuple(
        (sentence, frozenset(content_stems(sentence))) for sentence in split_sentences(text)
    )


@lru_cache(maxsize=2048)
def _analysed_shared(text: str) -> tuple[tuple[str, frozenset[str]], ...]:
    return _analysed(text)
