"""Deterministic refusal and narrowing decisions, made before any retrieval adapter or provider call."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from assistant.domain.types import Notice
from assistant.retrieval.context_pack import ContextPack
from assistant.retrieval.index import SearchResult
from assistant.screening import answerability, artifact, language, screen
from uploads import boundary


class Pattern(StrEnum):
    """Refusal and narrowing patterns; the values are part of the public API."""

    NO_PACKAGE_SUPPORT = "no_package_support"
    UNSUPPORTED_GENERAL_CHAT = "unsupported_general_chat"
    UNSUPPORTED_APPROVAL_REQUEST = "unsupported_approval_request"
    PRIVATE_INTERNAL_DATA_REQUEST = "private_internal_data_request"
    UPLOADED_SOURCE_BOUNDARY = "uploaded_source_boundary"
    NO_CURRENT_SOURCE_SUPPORT = "no_current_source_support"
    PACKAGE_CURRENT_CONFLICT = "package_current_conflict"
    STALE_OR_WEAK_CURRENT_SOURCE = "stale_or_weak_current_source"
    UPLOADED_SOURCE_TRUNCATED = "uploaded_source_truncated"


# Exact, stable wording. Tests and integrations compare these strings; change them only with a
# release note.
MESSAGES: dict[Pattern, str] = {
    Pattern.NO_PACKAGE_SUPPORT: (
        "No approved package support was found for this question. This assistant answers only "
        "from the approved playbook package, so it cannot answer. Rephrase the question in terms "
        "of the playbook's topics, or ask the package author whether the package should cover it."
    ),
    Pattern.UNSUPPORTED_GENERAL_CHAT: (
        "This is not general chat. Questions must relate to the playbook, architecture, "
        "governance, AI capability formation, or approved package topics."
    ),
    Pattern.UNSUPPORTED_APPROVAL_REQUEST: (
        "This assistant cannot grant or confirm approval for tools, vendors, SaaS, models, data "
        "use, workflows, production use, security, legal, regulatory, GxP or company policy. "
        "The approved playbook package approves nothing, and a generated answer is not approval. "
        "Approval decisions stay with the accountable owners; ask which owner decides and what "
        "evidence they need."
    ),
    Pattern.PRIVATE_INTERNAL_DATA_REQUEST: (
        "This assistant cannot provide private or internal data, secrets, credentials, cookies, "
        "one-time codes, private files or operator-only material. Only content inside the "
        "approved source boundary is available here."
    ),
    Pattern.UPLOADED_SOURCE_BOUNDARY: boundary.REFUSAL,
    Pattern.NO_CURRENT_SOURCE_SUPPORT: (
        "Current/public context was not retrieved for this question, so this answer uses approved "
        "package sources only and makes no current claim."
    ),
    Pattern.PACKAGE_CURRENT_CONFLICT: (
        "The package and a current/public source differ. Both claims are shown with their own "
        "citations; the difference is not resolved by model preference and needs an owner "
        "decision or further evidence."
    ),
    Pattern.STALE_OR_WEAK_CURRENT_SOURCE: (
        "A cited current/public source is stale or of limited trust. Treat it as a historical or "
        "indicative observation, not a current recommendation; package guidance prevails where "
        "the decision depends on playbook doctrine."
    ),
    Pattern.UPLOADED_SOURCE_TRUNCATED: (
        "Uploaded session material was truncated to fit the token budget; only the cited "
        "excerpts were used."
    ),
}

DERIVATIVE_OUTPUT_LABEL = (
    "Generated synthesis is derivative interpretation of the cited sources. It is not source "
    "evidence, policy approval, or production approval."
)


def notice(pattern: Pattern) -> Notice:
    return Notice(pattern=pattern.value, message=MESSAGES[pattern])


@dataclass(frozen=True)
class PolicyDecision:
    """The policy's verdict on a question: a refusal notice, or None when it may be answered.

    ``screening`` says, for the run's telemetry, what decided and with which scores; it never
    holds question text.
    """

    refusal: Notice | None
    screening: dict[str, Any] = field(default_factory=dict)
    #: The refusal is the intent model's reading of the question as general chat, which is
    #: relative to the package: it stands only if the package does not cover the question
    #: (:func:`decide`, after retrieval). A boundary rule's refusal is never overrulable.
    overrulable: bool = False

    @property
    def refused(self) -> bool:
        return self.refusal is not None


#: Refusals the screen keeps in any language: what it asks is refused whoever could read it.
_KEPT_PATTERNS = (
    Pattern.UNSUPPORTED_APPROVAL_REQUEST,
    Pattern.PRIVATE_INTERNAL_DATA_REQUEST,
    Pattern.UPLOADED_SOURCE_BOUNDARY,
)


def screen_intent(question: str) -> PolicyDecision:
    """Refusals decided from the question alone, before any retrieval.

    The explicit source-boundary rules and the learnt intent model
    (:mod:`assistant.screening`) decide on the question's plain spelling. Selected session
    sources do not change the decision: the same question is screened the same with or without
    them (docs/uploads.md).
    """
    screening = artifact.get_screening()
    decision = screen.decide(question, screening.intent)
    telemetry: dict[str, Any] = {
        "model": screening.fingerprint,
        "decided_by": f"rule:{decision.rule}" if decision.rule else "intent_model",
        "intent_scores": decision.scores,
        "intent_thresholds": decision.thresholds,
    }
    pattern = Pattern(decision.pattern) if decision.pattern else None
    kept = pattern in _KEPT_PATTERNS
    refusal = notice(pattern) if pattern is not None and kept else None
    if not kept:
        other = language.other_language(question)
        if other is not None:
            # The package is matched, and the screen learnt what requests look like, in the
            # package's language: a question in another is answered with the notice that says
            # so, before retrieval, whatever it asks. A request the screen recognised as an
            # approval, a private-data or an upload-boundary request keeps its own refusal.
            telemetry["decided_by"] = "language"
            refusal = language_refusal(other)
        elif pattern is not None:
            refusal = notice(pattern)
    overrulable = (
        refusal is not None
        and pattern is Pattern.UNSUPPORTED_GENERAL_CHAT
        and telemetry["decided_by"] == "intent_model"
    )
    return PolicyDecision(refusal=refusal, screening=telemetry, overrulable=overrulable)


def language_refusal(other: str) -> Notice:
    """No package support, saying specifically that the package is in English."""
    return Notice(
        pattern=Pattern.NO_PACKAGE_SUPPORT.value,
        message=f"{language.notice_sentence(other)} {MESSAGES[Pattern.NO_PACKAGE_SUPPORT]}",
    )


def decide(
    question: str,
    search: SearchResult,
    pack: ContextPack,
    *,
    with_sources: bool = False,
    general_chat: Notice | None = None,
) -> PolicyDecision:
    """The refusal that needs retrieval: the package does not cover what the question is about.

    Runs after :func:`screen_intent` and before any adapter or provider call. The answerability
    model (:mod:`assistant.screening.answerability`) weighs the question's specific subjects the package
    never mentions against how well the best rows cover it; the refusal names those subjects.
    ``with_sources``: session sources are selected. When the question then opens by asking for
    a review of them ("review this draft ...") and the package declares review criteria, the run
    reviews the drafts against those criteria, and the rest of the request's wording ("...
    especially accessibility") is not what the package must cover: answerability is not applied.
    Any other question is judged as without uploads: uploaded text never lifts a refusal.

    ``general_chat``: the intent screen read the question as general chat (an overrulable
    :func:`screen_intent` refusal). What is general chat depends on the package: a question
    about secret scanning is off-topic for a delivery playbook and the subject of a security
    handbook. The refusal stands unless the package covers the question, with an answerability
    probability of at least the model's ``covers`` (learnt on out-of-fold decisions across
    packages, ``learning/screening/answerability.py``); then it is judged as any question.
    """
    reviewing = (
        with_sources and bool(pack.review.criteria) and screen.opens_with_review_request(question)
    )
    screening = artifact.get_screening()
    found = answerability.evidence(
        question,
        search,
        vocabulary=pack.index.doc_freq,
        package_text=pack.text,
        correct=pack.index.correct,
    )
    verdict = screening.answerability.judge(found, supported=bool(search.hits))
    telemetry: dict[str, Any] = {
        "answerability": {
            "probability": round(verdict.probability, 4),
            "threshold": screening.answerability.threshold,
            "uncovered_terms": len(found.missing),
            "applied": not reviewing,
        }
    }
    if general_chat is not None:
        covered = verdict.answerable and verdict.probability >= screening.answerability.covers
        telemetry["general_chat_overruled"] = covered
        if not covered:
            return PolicyDecision(refusal=general_chat, screening=telemetry)
    if verdict.answerable or reviewing:
        return PolicyDecision(refusal=None, screening=telemetry)
    other = language.other_language(question)
    if other is not None:
        return PolicyDecision(refusal=language_refusal(other), screening=telemetry)
    message = MESSAGES[Pattern.NO_PACKAGE_SUPPORT]
    if found.missing:
        message = f"{answerability.not_covered_sentence(found.missing)} {message}"
    refusal = Notice(pattern=Pattern.NO_PACKAGE_SUPPORT.value, message=message)
    return PolicyDecision(refusal=refusal, screening=telemetry)
