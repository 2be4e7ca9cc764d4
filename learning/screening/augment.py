"""Training examples shaped like what the screen scores: single requests, and requests set among
other text.

The screen scores a question whole and each of its requests alone
(:func:`assistant.screening.screen.request_probabilities`), so the model must know what one
request looks like, and that the text around a request says nothing about it. From the training
examples only (in a cross-author fold: the fold's training authors), this adds:

- **requests of answerable questions**: every request of a question labelled answerable is
  answerable too (a question that asks for nothing refused asks it in none of its parts);
- **requests among other text**: each question set before, after or between its own author's
  answerable requests and sentences of real packages' text, keeping its label. A request for an
  approval stays one inside a project description, and package text is nobody's request.

The package text comes from the converted public packages (``data/packages/``), never the
sample's, so the sample package's figures read text the augmentation never used. Everything is
drawn with a fixed seed: the same examples give the same augmented set.
"""

from __future__ import annotations

import hashlib
import random
import re
from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path

from assistant.screening import requests
from assistant.screening.model import ANSWER
from learning import corpora
from learning.screening.corpus import Example

SEED = 7
_SENTENCE = re.compile(r"(?<=[.!?])\s+")
_MARKUP = re.compile(r"^[#>*\-|\s\d.]+|\[([^\]]*)\]\([^)]*\)|[`*_]")


@lru_cache(maxsize=1)
def package_sentences() -> tuple[str, ...]:
    """Prose sentences of the converted packages' Markdown, in file order."""
    root = corpora.data_dir() / "packages"
    out: list[str] = []
    for path in sorted(Path(root).glob("*/*.md")):
        text = path.read_text(encoding="utf-8")
        if text.startswith("---"):
            text = text.split("---", 2)[-1]
        for line in text.splitlines():
            line = _MARKUP.sub(lambda m: m.group(1) or "", line).strip()
            for sentence in _SENTENCE.split(line):
                if 40 <= len(sentence) <= 300 and sentence[-1:] in ".!?":
                    out.append(sentence)
    return tuple(out)


def augmented(examples: Sequence[Example]) -> list[Example]:
    """The examples shaped as the module docstring says (not including ``examples`` itself).

    Each example's shapes depend only on the example and its own author's answerable questions,
    so an example is shaped the same in every fold that trains on it (folds hold whole authors
    or whole packages out), and its features can be computed once."""
    plain = [e for e in examples if not e.with_upload]
    pools: dict[str, list[str]] = {}
    out: list[Example] = []
    for example in plain:
        if example.label != ANSWER:
            continue
        parts = requests.requests(example.question)
        if len(parts) >= 2:
            out += [Example(example.author, example.category, p, example.topic) for p in parts]
        pools.setdefault(example.author, []).extend(
            parts if len(parts) >= 2 else [example.question]
        )
    prose = package_sentences()
    for example in plain:
        pool = pools.get(example.author) or list(prose)
        digest = hashlib.sha256(f"{SEED}|{example.question}".encode()).digest()
        rng = random.Random(digest)  # noqa: S311 - a seeded draw of training examples, not a secret
        around = [
            rng.choice(prose) if rng.random() < 0.6 else rng.choice(pool)
            for _ in range(rng.randint(1, 3))
        ]
        around = [t for t in around if t != example.question]
        around.insert(rng.randint(0, len(around)), example.question)
        out.append(Example(example.author, example.category, " ".join(around), example.topic))
    return out
