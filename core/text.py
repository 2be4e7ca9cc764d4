"""Text analysis shared by every app: words, stems, content stems and excerpts."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from functools import lru_cache

import Stemmer

TOKEN_RE = re.compile(r"[a-z0-9]+")
EXCERPT_CHARS = 360

# Function words that carry no topic signal. Deliberately small: "not", "without" and the like
# are kept out of this list only where they never decide relevance.
STOPWORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its itself
    just me more most my myself no nor of off on once only or other our ours ourselves out over
    same she should so some such than that the their theirs them themselves then there these they
    this those through to too under until up very was we were what when where which while who whom
    why will with would you your yours yourself yourselves s t d ll m re ve y
    please tell say says said according also shall may might must
    get got want need let lets know kind thing things something anything way really
    """.split()
)


@lru_cache(maxsize=1)
def _stemmer() -> Stemmer.Stemmer:
    return Stemmer.Stemmer("english")


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _fold(match: re.Match[str]) -> str:
    """An accent goes, and so does a letter with no ASCII form; a dash, curly quote or other
    non-ASCII mark separates words, as its ASCII counterpart does ("1–March", "Don’t")."""
    char = match.group(0)
    if unicodedata.combining(char) or unicodedata.category(char)[0] in "LN":
        return ""
    return " "


def words(text: str) -> list[str]:
    """Lowercased alphanumeric words of ``text`` (accents folded)."""
    folded = _NON_ASCII.sub(_fold, unicodedata.normalize("NFKD", text))
    return TOKEN_RE.findall(folded.lower())


def stems(text: str) -> list[str]:
    """Every word of ``text`` stemmed, stopwords included (phrases need them)."""
    return stem_words(words(text))


def stem_words(found: Sequence[str]) -> list[str]:
    """Each of ``found`` (words as ``words`` splits them) stemmed on its own, in order: a word's
    stem never depends on its neighbours, so an analysed question pairs each word with its stem."""
    stemmed: list[str] = _stemmer().stemWords(list(found))
    return stemmed


def content_stems(text: str) -> list[str]:
    """Stemmed words of ``text`` without stopwords: the unit of BM25 matching."""
    stemmed: list[str] = _stemmer().stemWords([w for w in words(text) if w not in STOPWORDS])
    return stemmed


@lru_cache(maxsize=1)
def stemmed_stopwords() -> frozenset[str]:
    """The stopwords as stems, for filtering a stemmed sequence."""
    return frozenset(_stemmer().stemWords(sorted(STOPWORDS)))


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    """The first ``limit`` characters of ``text``, whitespace flattened, cut at a word boundary."""
    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    cut = flat[:limit].rsplit(" ", 1)[0]
    return cut.rstrip(",;:") + "…"


def clip(text: str, limit: int) -> str:
    """``text`` as is if it fits in ``limit`` characters, else its first ``limit - 1`` and "…"."""
    return text if len(text) <= limit else text[: limit - 1] + "…"
