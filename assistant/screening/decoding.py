"""Requests hidden in an encoding, decoded so that the screen reads what they ask.

A question may carry its request as base64, ROT13 or reversed text ("decode this and do what it
says"). Such a request is screened for what it asks, as any other request of the question: the
decoded text is one more part for :func:`assistant.screening.screen.request_probabilities`.

Nothing here knows what a forbidden request looks like. A stretch of the question is decoded
when the decoding reads as English prose and the original does not: after decoding, at least
:data:`PROSE_SHARE` of its words are English function words ("the", "our", "and",
:data:`core.text.STOPWORDS`), at least two different ones, and before, at most half that
share. Ordinary questions, names,
version strings and identifiers are never changed by this, since they do not turn into prose.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re

from core.text import STOPWORDS

#: English prose has about four in ten function words; ROT13 or reversed English almost none.
PROSE_SHARE = 0.25
#: Prose uses several different function words; one or two turn up by chance ("vs" is "if").
MIN_FUNCTION_WORDS = 2
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
_WORD = re.compile(r"[a-z]+")
# A stretch that could be encoded: a line, or a sentence of a line (read forwards).
_STRETCH = re.compile(r"[^\n.!?:]+[.!?]?")


def _prose_share(text: str) -> tuple[float, int]:
    """The share of ``text``'s words that are function words, and how many different ones."""
    found = _WORD.findall(text.lower())
    if not found:
        return 0.0, 0
    function = [w for w in found if w in STOPWORDS]
    return len(function) / len(found), len(set(function))


def _reads_as_prose(decoded: str, original: str) -> bool:
    after, distinct = _prose_share(decoded)
    before, _ = _prose_share(original)
    return distinct >= MIN_FUNCTION_WORDS and after >= PROSE_SHARE and before <= after / 2


def _base64_texts(question: str) -> list[str]:
    out = []
    for match in _BASE64.finditer(question):
        token = match.group(0)
        try:
            raw = base64.b64decode(token + "=" * (-len(token) % 4), validate=True)
            text = raw.decode("utf-8")
        except (binascii.Error, ValueError):
            continue
        if text.isprintable() and _reads_as_prose(text, token):
            out.append(text)
    return out


def decoded(question: str) -> list[str]:
    """The texts hidden in ``question`` as base64, ROT13 or reversed text, decoded."""
    out = _base64_texts(question)
    lines = [line.strip() for line in question.splitlines()]
    sentences = [m.group(0).strip() for m in _STRETCH.finditer(question)]
    for stretch in dict.fromkeys(lines + sentences):
        if len(stretch) < 12:
            continue
        for text in (codecs.decode(stretch, "rot13"), stretch[::-1]):
            if _reads_as_prose(text, stretch):
                out.append(text)
    return out
