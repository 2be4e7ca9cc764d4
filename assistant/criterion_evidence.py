"""How likely an uploaded sentence is the draft's evidence for a declared criterion, learnt from drafts.

A team states a criterion in its own words ("Goal: cut median arrival-to-fix time from 38 to 15
minutes" is a problem statement that names none of the package's key terms), so matching the
declared terms alone misses evidence and picks the wrong sentence. This model scores a
(sentence, criterion) pair by logistic regression over:

- the sentence's stems and stem pairs, and the stems of the draft heading it sits under, each
  crossed with the criterion's name (what evidence for *this* criterion tends to say);
- features shared by every criterion, so a package with other criteria still gets a score: how
  many of the criterion's declared terms the sentence holds, whether the heading names the
  criterion, whether a label the sentence opens with ("Data boundary: ...") names it, whether the
  sentence holds the criterion's required element or hedges, and length.

The weights are learnt by ``assistant/evidence_training.py`` from labelled drafts
(``assistant/review_data/``) and shipped as ``assistant/review_data/evidence_model.json``; nothing
is downloaded. ``assistant/criterion_assessment.py`` reads the best-scoring sentence per criterion.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from assistant.criteria import Criterion
from assistant.upload_sentences import Sentence
from core.text import content_stems, stems

LEAD_IN_WORDS = 5
MODEL_PATH = Path(__file__).resolve().parent / "review_data" / "evidence_model.json"


def _phrase_positions(seq: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return bool(n) and any(seq[i : i + n] == phrase for i in range(len(seq) - n + 1))


def term_hits(sentence: Sentence, criterion: Criterion) -> int:
    """How many of the criterion's declared key terms the sentence holds (a phrase counts two)."""
    score = 0
    for term in criterion.terms:
        phrase = tuple(stems(term))
        if _phrase_positions(sentence.stems, phrase):
            score += 2 if len(phrase) > 1 else 1
    return score


def _name_stems(criterion: Criterion) -> frozenset[str]:
    return frozenset(content_stems(criterion.name))


def _names(words: frozenset[str], criterion: Criterion) -> bool:
    name = _name_stems(criterion)
    return bool(name) and name <= words


def labelled_for(sentence: Sentence, criterion: Criterion) -> bool:
    """Whether the draft itself files the sentence under the criterion: its heading or its
    opening label names it ("## Data boundary", "Data boundary: ...")."""
    return _names(frozenset(content_stems(sentence.heading)), criterion) or _names(
        frozenset(content_stems(_lead_in(sentence.text))), criterion
    )


def _lead_in(text: str) -> str:
    """A label the sentence opens with ("Data boundary: ..."), or "" when it has none."""
    head, colon, _ = text.partition(":")
    return head if colon and len(head.split()) <= LEAD_IN_WORDS else ""


def features(
    sentence: Sentence, criterion: Criterion, has_element: bool, hedged: bool
) -> dict[str, float]:
    """The pair's named features (a sparse dict), shared and criterion-crossed."""
    name = criterion.name
    words = content_stems(sentence.text)
    heading = frozenset(content_stems(sentence.heading))
    lead = frozenset(content_stems(_lead_in(sentence.text)))
    hits = term_hits(sentence, criterion)
    out: dict[str, float] = {
        "terms": min(hits, 6) / 3.0,
        "any_term": float(hits > 0),
        "heading_names": float(_names(heading, criterion)),
        "heading_terms": float(
            any(set(content_stems(t)) <= heading for t in criterion.terms if content_stems(t))
        ),
        "lead_names": float(_names(lead, criterion)),
        "element": float(has_element),
        "hedged": float(hedged),
        "long": min(len(sentence.stems), 60) / 30.0,
        f"{name}|bias": 1.0,
    }
    for w in set(words):
        out[f"{name}|w:{w}"] = 1.0
    for a, b in zip(words, words[1:], strict=False):
        out[f"{name}|b:{a}_{b}"] = 1.0
    for h in heading:
        out[f"{name}|h:{h}"] = 1.0
    return out


@dataclass(frozen=True)
class EvidenceModel:
    weights: dict[str, float]
    intercept: float
    #: The probability from which a best sentence counts as the criterion's evidence.
    threshold: float
    about: dict[str, Any]

    def probability(self, feats: dict[str, float]) -> float:
        z = self.intercept + sum(self.weights.get(k, 0.0) * v for k, v in feats.items())
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))

    def to_json(self) -> str:
        return json.dumps(
            {
                "about": self.about,
                "intercept": round(self.intercept, 6),
                "threshold": round(self.threshold, 4),
                "weights": {k: round(v, 5) for k, v in sorted(self.weights.items())},
            },
            indent=1,
            sort_keys=True,
        )

    @classmethod
    def from_json(cls, text: str) -> EvidenceModel:
        data = json.loads(text)
        return cls(
            weights={str(k): float(v) for k, v in data["weights"].items()},
            intercept=float(data["intercept"]),
            threshold=float(data["threshold"]),
            about=dict(data.get("about", {})),
        )


@lru_cache(maxsize=1)
def _shipped() -> EvidenceModel | None:
    if not MODEL_PATH.exists():
        return None
    return EvidenceModel.from_json(MODEL_PATH.read_text(encoding="utf-8"))


_reading_with: list[EvidenceModel] = []


def model() -> EvidenceModel | None:
    """The model reviews read evidence with: the shipped one, or None when none is built (the
    assessment then reads declared terms alone)."""
    return _reading_with[-1] if _reading_with else _shipped()


def reload() -> None:
    """Read the shipped model file again (after ``manage.py build_evidence_model`` wrote it)."""
    _shipped.cache_clear()


@contextmanager
def reading_with(fold: EvidenceModel) -> Iterator[None]:
    """Reviews in this block read evidence with ``fold`` (the evaluation's out-of-author reads)."""
    _reading_with.append(fold)
    try:
        yield
    finally:
        _reading_with.pop()
