"""Deterministic synthetic packages for the retrieval benchmark: rows, a glossary and questions.

Words are pronounceable pseudo-words drawn with Zipf-like frequencies, mixed with English
function words, so the corpus has a realistic long tail without copying any text. The same
``seed`` always gives the same rows, glossary and questions.

    python -m bench.synthetic 1000 > rows.jsonl   # write the 1k-row package's rows as JSON lines
"""

from __future__ import annotations

import itertools
import json
import random
import sys
from collections.abc import Iterator

from assistant.domain.types import PackageRow

SEED = 20261129
VOCABULARY_SIZE = 30_000
_ONSETS = (
    "b",
    "c",
    "d",
    "f",
    "g",
    "l",
    "m",
    "n",
    "p",
    "r",
    "s",
    "t",
    "v",
    "br",
    "cr",
    "st",
    "tr",
    "pl",
)
_VOWELS = ("a", "e", "i", "o", "u", "ai", "ea", "io")
_CODAS = ("", "n", "r", "s", "l", "t", "m", "nd", "rt", "st")
_FUNCTION_WORDS = (
    "the of and to in for is on that by with as at from be this are or an it which not"
).split()


def vocabulary(size: int = VOCABULARY_SIZE, seed: int = SEED) -> list[str]:
    """``size`` distinct pseudo-words of two to four syllables, most frequent first."""
    rng = random.Random(seed)
    words: list[str] = []
    seen: set[str] = set()
    while len(words) < size:
        syllables = rng.choice((2, 2, 3, 3, 4))
        word = "".join(
            rng.choice(_ONSETS) + rng.choice(_VOWELS) + rng.choice(_CODAS) for _ in range(syllables)
        )
        if word not in seen:
            seen.add(word)
            words.append(word)
    return words


class _Sampler:
    """Draws words with probability proportional to 1/rank (a Zipf law with exponent 1)."""

    def __init__(self, words: list[str], rng: random.Random):
        self.words = words
        self.rng = rng
        self.cumulative = list(itertools.accumulate(1.0 / (rank + 1) for rank in range(len(words))))

    def take(self, n: int) -> list[str]:
        return self.rng.choices(self.words, cum_weights=self.cumulative, k=n)


def _sentence(sampler: _Sampler, rng: random.Random) -> str:
    words = sampler.take(rng.randint(6, 16))
    for _ in range(len(words) // 3):
        words.insert(rng.randrange(len(words)), rng.choice(_FUNCTION_WORDS))
    return " ".join(words).capitalize() + "."


def rows(n: int, seed: int = SEED) -> list[PackageRow]:
    """``n`` package rows: 40 topics, each row a section with a heading and 4 to 9 sentences."""
    rng = random.Random(seed + n)
    sampler = _Sampler(vocabulary(seed=seed), rng)
    out = []
    for i in range(n):
        topic = i % 40
        title = " ".join(sampler.take(3)).title()
        heading = " ".join(sampler.take(rng.randint(2, 5))).capitalize()
        text = " ".join(_sentence(sampler, rng) for _ in range(rng.randint(4, 9)))
        path = f"topic-{topic:02d}/artifact-{i // 40:05d}.md"
        anchor = f"section-{i}"
        out.append(
            PackageRow(
                row_id=f"r{i:06d}",
                title=title,
                heading=heading,
                text=text,
                source_path=path,
                anchor=anchor,
                reader_target=f"/html/{path}#{anchor}",
                source_family="synthetic",
                source_quality="synthetic benchmark row",
                claim_boundary="Benchmark data; approves nothing.",
                topic=f"topic {topic}",
            )
        )
    return out


def glossary(seed: int = SEED, terms: int = 60) -> dict[str, list[str]]:
    """Two-word canonical terms with one or two alternative phrasings, like a package glossary."""
    rng = random.Random(seed)
    words = vocabulary(seed=seed)[:3000]
    out: dict[str, list[str]] = {}
    while len(out) < terms:
        term = " ".join(rng.sample(words, 2))
        out[term] = [
            " ".join(rng.sample(words, rng.choice((1, 2)))) for _ in range(rng.choice((1, 2)))
        ]
    return out


def questions(package: list[PackageRow], count: int, seed: int = SEED) -> list[str]:
    """Reviewer-style questions built from words of random rows (so most have an answer)."""
    rng = random.Random(seed * 7 + len(package))
    starts = ("what does", "how should we handle", "who decides on", "why is", "when do we review")
    out = []
    for _ in range(count):
        row = rng.choice(package)
        words = [w.strip(".").lower() for w in row.text.split() if w.lower() not in _FUNCTION_WORDS]
        picked = rng.sample(words, min(len(words), rng.randint(2, 5)))
        out.append(f"{rng.choice(starts)} {' '.join(picked)}?")
    return out


def iter_jsonl(n: int) -> Iterator[str]:
    for row in rows(n):
        yield json.dumps(row.to_dict(), ensure_ascii=False)


if __name__ == "__main__":
    for line in iter_jsonl(int(sys.argv[1])):
        print(line)
