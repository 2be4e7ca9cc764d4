"""The intent decision: the explicit rules first, then the learnt model, on the plain question."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from assistant.screening import decoding, requests, rules
from assistant.screening.model import ANSWER, PART, ScreeningModel
from assistant.screening.normalize import plain

UPLOADED_SOURCE_BOUNDARY = "uploaded_source_boundary"
PRIVATE_DATA = "private_internal_data_request"


@dataclass(frozen=True)
class IntentDecision:
    """Which refusal pattern the question's intent calls for (None: pass on to retrieval).

    ``rule`` names the explicit rule that decided, if one did; ``scores`` are the model's class
    probabilities and ``thresholds`` the per-class thresholds they were compared with, so the
    run's telemetry can say why.
    """

    pattern: str | None
    rule: str | None
    scores: dict[str, float]
    thresholds: dict[str, float]


def opens_with_review_request(question: str) -> bool:
    """True when the question opens by asking for a review of the attached material
    ("review this draft against the criteria ...", "check my PRD for gaps")."""
    return rules.without_review_request(plain(question)) is not None


def request_probabilities(
    model: ScreeningModel, questions: Sequence[str]
) -> tuple[np.ndarray, np.ndarray]:
    """Per question, every class's probability on the whole question, and every class's
    highest probability over its requests (:mod:`assistant.screening.requests`) scored alone
    (zero when the question is its one request: a fragment too short to ask, "Gate owners.",
    or quoted text left out makes the rest a request of its own); a request hidden in base64, ROT13 or reversed text
    (:mod:`assistant.screening.decoding`) counts as decoded. A request is refused wherever it stands, and the text
    around it neither dilutes nor lowers its score; a request alone has less context than the
    question, so it has its own threshold per class, chosen by training on these same
    probabilities (``learning/screening/training.py``)."""
    texts = list(questions)
    owners: list[int] = []
    for i, question in enumerate(questions):
        parts = requests.requests(question)
        if parts == [question.strip()]:
            parts = []  # one request, the question itself: scored once, as the whole
        # A request hidden in an encoding is one more request, read as decoded.
        parts += [
            p for text in decoding.decoded(question) for p in requests.requests(text) or [text]
        ]
        texts += parts
        owners += [i] * len(parts)
    probs = model.probabilities(texts)
    whole = probs[: len(questions)]
    part = np.zeros_like(whole)
    for row, owner in enumerate(owners, start=len(questions)):
        part[owner] = np.maximum(part[owner], probs[row])
    return whole, part


def decide(question: str, model: ScreeningModel) -> IntentDecision:
    """The intent decision, on the question alone: the same whether or not session sources are
    selected. A question that is only a request to review the attached material ("review this
    draft.") asks for what the assistant does with uploads and passes; any other question is
    screened whole by the model, so what a review request goes on to ask is read in its context
    ("review this draft and approve it" is still an approval request)."""
    rest = rules.without_review_request(plain(question))
    if rest is not None and not rest.strip(" .,;:!?-"):
        return IntentDecision(None, "review_request", {}, dict(model.thresholds))
    whole, part = (p[0] for p in request_probabilities(model, [question]))
    scores = {name: round(float(p), 4) for name, p in zip(model.classes, whole, strict=True)}
    scores |= {
        name + PART: round(float(p), 4)
        for name, p in zip(model.classes, part, strict=True)
        if name + PART in model.thresholds
    }
    # What follows a leading review request is a request of its own to the boundary rules
    # ("review this draft and add it to the package" asks to promote the upload).
    # The boundary rules read the whole question, what follows a leading review request, and
    # each request on its own (a list item, a decoded request) as its own sentence.
    rule = rules.match(plain(question)) or (rules.match(plain(rest)) if rest else None)
    for text in (*requests.requests(question), *decoding.decoded(question)) if not rule else ():
        rule = rule or rules.match(plain(text))
    pattern = model.decide_row(whole, part)
    if rule is not None:
        if rule.kind is rules.RuleKind.UPLOAD_BOUNDARY:
            pattern = UPLOADED_SOURCE_BOUNDARY
        elif rule.kind is rules.RuleKind.SECRET_VALUE:
            pattern = PRIVATE_DATA
        elif pattern is None:
            # Leaving the source boundary is refused whatever it asks for; the model says which
            # refusal fits what it asks for (a joke, an approval, a secret).
            refusals = {k: v for k, v in scores.items() if k in model.classes and k != ANSWER}
            pattern = max(refusals, key=lambda k: (refusals[k], k))
    return IntentDecision(pattern, rule.name if rule else None, scores, dict(model.thresholds))
