"""Deterministic refusal and narrowing decisions, made before any retrieval adapter or provider call."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from assistant import intent
from assistant.retrieval import SearchResult
from assistant.types import Notice
from core.text import content_stems


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
    Pattern.UPLOADED_SOURCE_BOUNDARY: (
        "I can use uploaded material only as a user-provided session source. It is not approved "
        "package corpus, not durable corpus ingestion, and not enterprise source authority unless "
        "separately approved."
    ),
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


# Words that place a question in the package's subject area even when retrieval is weak; a
# question with none of them and no package support is general chat, not a package gap.
DOMAIN_WORDS = """
ai artificial intelligence machine learning ml model models llm llms gpt genai generative
assistant assistants chatbot chatbots copilot agent agents prompt prompts token tokens tokenomics
retrieval rag grounding grounded citation citations cite source sources package playbook corpus
context pack architecture architect architectural governance govern risk risks nist rmf iso 42001
evaluation eval evals validation validate test testing benchmark pilot poc proof concept prototype
lifecycle stage gate gates owner owners ownership approval approvals approve sign vendor vendors
supplier data privacy retention pii personal security secret secrets credential credentials key
keys provider providers gateway deployment deploy production release rollback change control
pull request issue receipt drift monitoring monitor decommission decommissioning retire
sustainment sustain budget cost costs spend compliance gxp regulated regulatory legal hallucination
hallucinations injection jailbreak guardrail guardrails refusal refuse refusals upload uploads
session prd proposal review reviewer reviews criteria readiness build engineering platform cloud
csp csrf throttling rate limit scale telemetry logging audit incident escalation raci decision
decisions policy policies trust freshness stale claim boundary boundaries glossary capability
capabilities enterprise stakeholder stakeholders roadmap requirements evidence finding findings
blocker concern metric metrics kpi accuracy latency quality fairness bias
transparency accountability framework frameworks control controls temperature wording
nondeterminism deterministic capability capabilities iteration stop freshness quote quoted
roll rollback rollbacks deterministic answerer lane lanes registry registries dpo cab prd poc rag
pii price prices pricing recertify recertification escalate incident incidents inference gpu gpus
kubernetes server servers infrastructure hosting deploy configuration config environment
environments staging prod api apis endpoint sdk integration integrations neutrality gdpr hipaa fda
pentest threat threats artifact artifacts receipt receipts packet packets sponsor finops sprint
dataset datasets finetune embedding embeddings vector summarization classifier classification
automation workflow workflows procurement contract saas hallucinate grounding answer answers
wcag accessibility carbon sustainability emissions tax vat lora hyperparameter hyperparameters
"""
_DOMAIN_STEMS = frozenset(content_stems(DOMAIN_WORDS))


@dataclass(frozen=True)
class PolicyDecision:
    """The policy's verdict on a question: a refusal notice, or None when it may be answered."""

    refusal: Notice | None

    @property
    def refused(self) -> bool:
        return self.refusal is not None


def screen_intent(question: str) -> Pattern | None:
    """Refusals decided from the question alone, before any retrieval (see assistant/intent.py)."""
    found = intent.screen(question)
    return Pattern(found.value) if found else None


def has_domain_vocabulary(question: str, correct: Callable[[str], str] | None = None) -> bool:
    """True when any word (typo-corrected against the package when ``correct`` is given) is a
    word of the package's subject area."""
    for stem in content_stems(question):
        if stem in _DOMAIN_STEMS or (correct is not None and correct(stem) in _DOMAIN_STEMS):
            return True
    return False


def decide(
    question: str, search: SearchResult, correct: Callable[[str], str] | None = None
) -> PolicyDecision:
    """The refusals that need retrieval: general chat and missing package support.

    Runs after :func:`screen_intent` (the pipeline calls that first, before retrieval) and before
    any adapter or provider call.
    """
    pattern: Pattern | None = None
    if not has_domain_vocabulary(question, correct):
        # Nothing in the question touches the package's subject area: general chat, even when
        # a few ordinary words happen to match some row.
        pattern = Pattern.UNSUPPORTED_GENERAL_CHAT
    elif not search.supported:
        pattern = Pattern.NO_PACKAGE_SUPPORT
    return PolicyDecision(refusal=notice(pattern) if pattern else None)
