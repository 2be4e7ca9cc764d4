"""Screening text normalisation: the plain spelling of a question, decided before screening.

A request is decided as its plain spelling would be: Unicode compatibility forms (fullwidth,
ligatures) are folded by NFKC, invisible and format characters (zero-width, soft hyphen, bidi
controls) are dropped, letters that merely look Latin (Cyrillic, Greek and other confusables,
from Unicode's confusables table as packaged by ``confusable-homoglyphs``) become the Latin
letter, digit-for-letter spellings inside words (``p4ssw0rd``) become letters, words spelled
with spaces between their letters (``a p i  k e y``) are joined, and leading Markdown or
punctuation (``**``, ``>``, ``(``) is stripped.
"""

from __future__ import annotations

import json
import re
import unicodedata
from functools import lru_cache
from pathlib import Path

import confusable_homoglyphs

# Digits and symbols that stand for letters inside a word that also has letters.
_LEET = str.maketrans(
    {"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s"}
)
# Only where a digit or symbol stands between letters (p4ssw0rd, s3cr3t), so that model and
# product names ending in digits (gpt4, h100, llama3) keep their spelling.
_LEET_WORD = re.compile(r"(?<![\w@$])(?=[\w@$]*[a-z][0-9@$]+[a-z])[a-z0-9@$]{3,}(?![\w@$])")
# Three or more single letters separated by single spaces (or dots, dashes): "a p i k e y".
_SPACED = re.compile(r"(?<![\w])(?:[a-z][ .\-_*](?! )){2,}[a-z](?![\w])")
_LEADING = re.compile(r"^[\s>*#_`~\-+=|(\[{\"'.,:;!]+")
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=1)
def _confusable_map() -> dict[int, str]:
    """Characters that look like one ASCII letter or digit, mapped to it."""
    path = Path(confusable_homoglyphs.__file__).with_name("confusables.json")
    table: dict[int, str] = {}
    for char, entries in json.loads(path.read_text(encoding="utf-8")).items():
        if len(char) != 1 or char.isascii():
            continue
        for entry in entries:
            target = entry.get("c", "")
            if len(target) == 1 and target.isascii() and target.isalnum():
                table[ord(char)] = target.lower()
                break
    return table


def _is_invisible(char: str) -> bool:
    # Cf: format characters (zero-width space/joiners, soft hyphen, bidi controls, BOM).
    return unicodedata.category(char) == "Cf"


def _unspace(match: re.Match[str]) -> str:
    return re.sub(r"[ .\-_*]", "", match.group(0))


def plain(text: str) -> str:
    """The plain, lower-case spelling of ``text`` that screening decides on."""
    text = unicodedata.normalize("NFKC", text)
    text = "".join(ch for ch in text if not _is_invisible(ch))
    text = text.translate(_confusable_map()).lower()
    # A fold can produce a new compatibility form; the second NFKC pass is cheap and final.
    text = unicodedata.normalize("NFKC", text)
    text = _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), text)
    text = _SPACED.sub(_unspace, text)
    text = _LEADING.sub("", text)
    return _SPACES.sub(" ", text).strip()
