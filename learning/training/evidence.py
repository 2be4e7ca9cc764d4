"""Learning the criterion evidence model (``assistant/review/criterion_evidence.py``) from labelled drafts.

Each training draft (``data/reviews/training/<author>/``, with ``labels.jsonl``) gives,
for every criterion of its kind, a status and, unless missing, the one sentence of the draft it
rests on. Every (sentence, criterion) pair of a draft is one example: positive when the sentence
is that criterion's labelled evidence, negative otherwise (so a criterion the draft lacks teaches
the model what is *not* evidence). The model is an L2 logistic regression (scikit-learn, lbfgs,
fixed order, so ``manage.py build_evidence_model --check`` can tell a stale committed model).

The threshold is chosen on **out-of-author** probabilities: each author's drafts are scored by a
model trained on the other authors, and the threshold maximises the review's balanced accuracy
over those drafts (gaps flagged plus present criteria passed), so it is set as it will be used,
on drafts by someone the weights never saw.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from sklearn.feature_extraction import DictVectorizer
from sklearn.linear_model import LogisticRegression

from assistant.package.criteria import Criterion, ReviewCriteria
from assistant.retrieval.context_pack import get_context_pack
from assistant.review import criterion_assessment
from assistant.review.criterion_evidence import EvidenceModel
from assistant.review.upload_sentences import Sentence, sentences
from learning import corpora
from uploads.services import load_local

REGULARISATION_C = 0.5


def training_draft_dirs() -> list[Path]:
    """The training review sets of ``data/MANIFEST.json`` (one folder of drafts per author)."""
    return corpora.paths("reviews", "training")


#: Weights smaller than this are dropped: they move no decision and would only bulk the file.
PRUNE = 0.03
THRESHOLDS = (0.01, 0.02, 0.03, 0.05, 0.07, 0.1, 0.15, 0.2, 0.3, 0.4, 0.5, 0.6)


def _flat(text: str) -> str:
    return " ".join(text.split())


@dataclass(frozen=True)
class Draft:
    author: str
    file: str
    criteria: tuple[Criterion, ...]
    statuses: dict[str, str]
    found: tuple[Sentence, ...]
    #: Per criterion name, the index in ``found`` of its labelled evidence (-1 when none matched).
    evidence: dict[str, int]


def _matching(found: Sequence[Sentence], evidence: str) -> int:
    want = _flat(evidence)
    for i, s in enumerate(found):
        got = _flat(s.text)
        if want in got or (len(got) > 30 and got in want):
            return i
    return -1


def drafts(directory: Path, review: ReviewCriteria) -> list[Draft]:
    out = []
    for line in (directory / "labels.jsonl").read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        label = json.loads(line)
        found = tuple(sentences(load_local(files=[directory / label["file"]])))
        criteria = review.for_kind(label["kind"])
        out.append(
            Draft(
                author=label["author"],
                file=label["file"],
                criteria=criteria,
                statuses={name: c["status"] for name, c in label["criteria"].items()},
                found=found,
                evidence={
                    name: _matching(found, c["evidence"]) if c.get("evidence") else -1
                    for name, c in label["criteria"].items()
                },
            )
        )
    return out


def training_drafts() -> list[Draft]:
    review = get_context_pack().review
    return [d for directory in training_draft_dirs() for d in drafts(directory, review)]


def _examples(items: Sequence[Draft]) -> tuple[list[dict[str, float]], list[int]]:
    xs, ys = [], []
    for d in items:
        for criterion in d.criteria:
            if criterion.name not in d.statuses:
                continue
            want = d.evidence.get(criterion.name, -1)
            for i, s in enumerate(d.found):
                xs.append(criterion_assessment.pair_features(s, criterion))
                ys.append(int(i == want))
    return xs, ys


def fit(items: Sequence[Draft], threshold: float = 0.5) -> EvidenceModel:
    xs, ys = _examples(items)
    vectorizer = DictVectorizer()
    matrix = vectorizer.fit_transform(xs)
    lr = LogisticRegression(C=REGULARISATION_C, max_iter=2000, class_weight="balanced")
    lr.fit(matrix, ys)
    weights = {
        name: float(w)
        for name, w in zip(vectorizer.get_feature_names_out(), lr.coef_[0], strict=True)
        if abs(w) >= PRUNE
    }
    return EvidenceModel(weights, float(lr.intercept_[0]), threshold=threshold)


def statuses(model: EvidenceModel, d: Draft, review: ReviewCriteria) -> list[tuple[str, str]]:
    """(labelled, assessed) status per graded criterion of the draft, read with ``model``."""
    checks = criterion_assessment.assess_sentences(review, d.criteria, d.found, model)
    return [
        (d.statuses[c.criterion.name], c.status) for c in checks if c.criterion.name in d.statuses
    ]


def balanced(pairs: Sequence[tuple[str, str]]) -> float:
    """Mean of gaps flagged (missing or contradicted, assessed anything but present) and present
    criteria passed: the review's recall and one minus its false-alarm rate."""
    gaps = [got for want, got in pairs if want in ("missing", "contradicted")]
    present = [got for want, got in pairs if want == "present"]
    recall = sum(got != "present" for got in gaps) / (len(gaps) or 1)
    passed = sum(got == "present" for got in present) / (len(present) or 1)
    return (recall + passed) / 2


def out_of_author_balanced(items: Sequence[Draft], review: ReviewCriteria) -> dict[float, float]:
    """Per candidate threshold, the balanced figure over drafts each read by a model not fitted
    to their author."""
    pairs: dict[float, list[tuple[str, str]]] = {t: [] for t in THRESHOLDS}
    for author in sorted({d.author for d in items}):
        fold = fit([d for d in items if d.author != author])
        for t in THRESHOLDS:
            model = EvidenceModel(fold.weights, fold.intercept, threshold=t)
            for d in items:
                if d.author == author:
                    pairs[t] += statuses(model, d, review)
    return {t: balanced(p) for t, p in pairs.items()}


def _threshold(by_threshold: dict[float, float]) -> float:
    return max(THRESHOLDS, key=lambda t: (by_threshold[t], -t))


def train() -> tuple[EvidenceModel, dict[str, object]]:
    review = get_context_pack().review
    items = training_drafts()
    by_threshold = out_of_author_balanced(items, review)
    threshold = _threshold(by_threshold)
    model = fit(items, threshold)
    about = {
        "authors": sorted({d.author for d in items}),
        "drafts": len(items),
        "out_of_author_balanced": round(by_threshold[threshold], 4),
    }
    return EvidenceModel(model.weights, model.intercept, about, threshold=threshold), about


def fold_for(items: Sequence[Draft], author: str, review: ReviewCriteria) -> EvidenceModel:
    """The model ``author``'s drafts are read with in the evaluation: weights and threshold
    learnt from the other authors only, the threshold on their own out-of-author reads."""
    rest = [d for d in items if d.author != author]
    return fit(rest, _threshold(out_of_author_balanced(rest, review)))
