"""Which language a question is written in, so one in another language than the package's gets a
specific notice instead of a general-chat or no-support refusal.

The profiles (``languages.json`` in the screening artifact) hold each language's most frequent
words and their Zipf frequencies, taken at build time from wordfreq's data (in its wheel; nothing
is downloaded). A question is read as the language whose profile its words are most frequent in;
English is kept unless another language clearly wins, so a terse or misspelt English question
stays English.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from django.conf import settings

from assistant.models.store import ModelNotReady

PROFILE_FILE = "languages.json"
ENGLISH = "en"
#: How much more frequent (mean Zipf) another language's words must be than English's.
MARGIN = 1.0
NAMES = {
    "en": "English",
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "pt": "Portuguese",
    "it": "Italian",
    "nl": "Dutch",
    "pl": "Polish",
}
_WORD = re.compile(r"[^\W\d_]+", re.UNICODE)


@dataclass(frozen=True)
class Profiles:
    words: dict[str, dict[str, float]]  # language -> word -> Zipf frequency

    def language(self, text: str) -> str:
        tokens = [t.lower() for t in _WORD.findall(text)]
        if not tokens:
            return ENGLISH
        scores = {
            lang: sum(table.get(t, 0.0) for t in tokens) / len(tokens)
            for lang, table in self.words.items()
        }
        best = max(scores, key=lambda lang: (scores[lang], lang == ENGLISH))
        if best != ENGLISH and scores[best] >= scores.get(ENGLISH, 0.0) + MARGIN:
            return best
        return ENGLISH


@lru_cache(maxsize=2)
def _load(path: Path) -> Profiles:
    raw = json.loads(path.read_text(encoding="utf-8"))
    return Profiles({k: {w: float(z) for w, z in v.items()} for k, v in raw["languages"].items()})


def profiles() -> Profiles:
    path = Path(settings.AICD_MODEL_DIR) / "screening" / PROFILE_FILE
    if not path.exists():
        raise ModelNotReady("screening", f"has no language profiles ({PROFILE_FILE})")
    return _load(path)


def other_language(question: str, package_language: str = ENGLISH) -> str | None:
    """The language's name when ``question`` is in another language than the package's."""
    found = profiles().language(question)
    return NAMES.get(found, found) if found != package_language else None


def notice_sentence(language: str) -> str:
    return (
        f"This question appears to be written in {language}, and the approved package is written "
        "in English, so it could not be matched to the package. Ask it in English to get an "
        "answer quoted from the package."
    )
