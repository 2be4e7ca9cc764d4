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

The weights are learnt by ``learning/training/evidence.py`` from labelled drafts
(``data/reviews/training/``) and shipped as ``models/evidence_model.json``; nothing
is downloaded. ``assistant/review/criterion_assessment.py`` reads the best-scoring sentence per criterion.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings

from assistant.models.sparse import Shipped, SparseLogistic
from assistant.package.criteria import Criterion
from assistant.review.upload_sentences import Sentence
from core.text import content_stems, stems

LEAD_IN_WORDS = 5
MODEL_PATH = Path(settings.AICD_MODEL_DIR) / "evidence_model.json"


def _phrase_positions(seq: tuple[str, ...], phrase: tuple[str, ...]) -> bool:
    n = len(phrase)
    return bool(n) and any(seq[i : i + n] == phrase for i in range(len(seq) - n + 1))


@dataclass(frozen=True)
class SentenceParts:
    """What the features read of one sentence, worked out once for every criterion."""

    words: tuple[str, ...]
    heading: frozenset[str]
    lead: frozenset[str]
    #: Every stem of the sentence, for a quick "can this phrase be here at all".
    stems: frozenset[str]

    @classmethod
    def of(cls, sentence: Sentence) -> SentenceParts:
        return cls(
            tuple(content_stems(sentence.text)),
            frozenset(content_stems(sentence.heading)),
            frozenset(content_stems(_lead_in(sentence.text))),
            frozenset(sentence.stems),
        )


@dataclass(frozen=True)
class _CriterionParts:
    name: frozenset[str]
    phrases: tuple[tuple[str, ...], ...]
    term_words: tuple[frozenset[str], ...]


@lru_cache(maxsize=256)
def _criterion_parts(criterion: Criterion) -> _CriterionParts:
    """A declared criterion's name and terms as stems (package data, the same for every draft)."""
    return _CriterionParts(
        frozenset(content_stems(criterion.name)),
        tuple(p for t in criterion.terms if (p := tuple(stems(t)))),
        tuple(w for t in criterion.terms if (w := frozenset(content_stems(t)))),
    )


def _holds(seq: tuple[str, ...], present: frozenset[str], phrase: tuple[str, ...]) -> bool:
    if not present.issuperset(phrase):
        return False
    n = len(phrase)
    return n == 1 or any(seq[i : i + n] == phrase for i in range(len(seq) - n + 1))


def term_hits(sentence: Sentence, criterion: Criterion, parts: SentenceParts | None = None) -> int:
    """How many of the criterion's declared key terms the sentence holds (a phrase counts two)."""
    present = parts.stems if parts is not None else frozenset(sentence.stems)
    return sum(
        2 if len(p) > 1 else 1
        for p in _criterion_parts(criterion).phrases
        if _holds(sentence.stems, present, p)
    )


def _names(words: frozenset[str], criterion: Criterion) -> bool:
    name = _criterion_parts(criterion).name
    return bool(name) and name <= words


def labelled_for(
    sentence: Sentence, criterion: Criterion, parts: SentenceParts | None = None
) -> bool:
    """Whether the draft itself files the sentence under the criterion: its heading or its
    opening label names it ("## Data boundary", "Data boundary: ...")."""
    parts = parts or SentenceParts.of(sentence)
    return _names(parts.heading, criterion) or _names(parts.lead, criterion)


def _lead_in(text: str) -> str:
    """A label the sentence opens with ("Data boundary: ..."), or "" when it has none."""
    head, colon, _ = text.partition(":")
    return head if colon and len(head.split()) <= LEAD_IN_WORDS else ""


def features(
    sentence: Sentence,
    criterion: Criterion,
    has_element: bool,
    hedged: bool,
    parts: SentenceParts | None = None,
) -> dict[str, float]:
    """The pair's named features (a sparse dict), shared and criterion-crossed."""
    parts = parts or SentenceParts.of(sentence)
    name = criterion.name
    words = parts.words
    hits = term_hits(sentence, criterion, parts)
    out: dict[str, float] = {
        "terms": min(hits, 6) / 3.0,
        "any_term": float(hits > 0),
        "heading_names": float(_names(parts.heading, criterion)),
        "heading_terms": float(
            any(w <= parts.heading for w in _criterion_parts(criterion).term_words)
        ),
        "lead_names": float(_names(parts.lead, criterion)),
        "element": float(has_element),
        "hedged": float(hedged),
        "long": min(len(sentence.stems), 60) / 30.0,
        f"{name}|bias": 1.0,
    }
    for w in set(words):
        out[f"{name}|w:{w}"] = 1.0
    for a, b in zip(words, words[1:], strict=False):
        out[f"{name}|b:{a}_{b}"] = 1.0
    for h in parts.heading:
        out[f"{name}|h:{h}"] = 1.0
    return out


@dataclass(frozen=True)
class EvidenceModel(SparseLogistic):
    #: The probability from which a best sentence counts as the criterion's evidence.
    threshold: float = 0.5

    def fields_json(self) -> dict[str, Any]:
        return {"threshold": round(self.threshold, 4)}

    @classmethod
    def from_json(cls, text: str) -> EvidenceModel:
        weights, intercept, about, data = SparseLogistic.parts(text)
        return cls(weights, intercept, about, threshold=float(data["threshold"]))


SHIPPED: Shipped[EvidenceModel] = Shipped(
    "evidence_model", lambda: MODEL_PATH, EvidenceModel.from_json
)


def model() -> EvidenceModel | None:
    """The model reviews read evidence with (None only inside an evaluation's
    ``reading_with(None)``, where the assessment reads declared terms alone); a missing model
    raises ``ModelNotReady``."""
    return SHIPPED.get()


def reading_with(fold: EvidenceModel | None) -> AbstractContextManager[None]:
    """Reviews in this block read evidence with ``fold`` (the evaluation's out-of-author reads)."""
    return SHIPPED.reading_with(fold)
