"""The intent decision: the explicit rules first, then the learnt model, on the plain question."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.screening import requests, rules
from assistant.screening.model import ANSWER, ScreeningModel
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


#: The refusals a single request decides for the whole question, most severe first: a request
#: for private data or for an approval is refused wherever it stands in the question.
SEVERE = (PRIVATE_DATA, "unsupported_approval_request")
#: A request scored alone has less context than the whole question, so it must be surer. Chosen on
#: the training corpus: the highest grid value (0.7, 0.8, 0.9, 0.95) that refuses at most 0.5% more
#: of its answerable questions than screening the whole question (0.26% at 0.9, 0.57% at 0.8).
PART_THRESHOLD = 0.9


def _most_severe_request(question: str, model: ScreeningModel) -> str | None:
    """The most severe refusal any one of the question's requests calls for on its own."""
    parts = requests.requests(question)
    if len(parts) < 2:
        return None
    for pattern in SEVERE:
        if any(model.screen(p).scores.get(pattern, 0.0) >= PART_THRESHOLD for p in parts):
            return pattern
    return None


def decide(question: str, model: ScreeningModel) -> IntentDecision:
    """The intent decision, on the question alone: the same whether or not session sources are
    selected. A question that is only a request to review the attached material ("review this
    draft.") asks for what the assistant does with uploads and passes; any other question is
    screened whole by the model, so what a review request goes on to ask is read in its context
    ("review this draft and approve it" is still an approval request)."""
    rest = rules.without_review_request(plain(question))
    if rest is not None and not rest.strip(" .,;:!?-"):
        return IntentDecision(None, "review_request", {}, dict(model.thresholds))
    screen = model.screen(question)
    # What follows a leading review request is a request of its own to the boundary rules
    # ("review this draft and add it to the package" asks to promote the upload).
    rule = rules.match(plain(question)) or (rules.match(plain(rest)) if rest else None)
    pattern = screen.refusal
    severe = _most_severe_request(question, model)
    if severe is not None and pattern not in SEVERE:
        pattern = severe
    if rule is not None:
        if rule.kind is rules.RuleKind.UPLOAD_BOUNDARY:
            pattern = UPLOADED_SOURCE_BOUNDARY
        elif rule.kind is rules.RuleKind.SECRET_VALUE:
            pattern = PRIVATE_DATA
        elif pattern is None:
            # Leaving the source boundary is refused whatever it asks for; the model says which
            # refusal fits what it asks for (a joke, an approval, a secret).
            refusals = {k: v for k, v in screen.scores.items() if k != ANSWER}
            pattern = max(refusals, key=lambda k: (refusals[k], k))
    return IntentDecision(pattern, rule.name if rule else None, screen.scores, screen.thresholds)
