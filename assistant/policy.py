"""Deterministic refusal and narrowing decisions, made before any retrieval adapter or provider call."""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from assistant.retrieval import SearchResult, content_stems
from assistant.types import Notice


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


# ------------------------------------------------------------------------------------ patterns
_SECRET_NOUNS = (
    r"passwords?|passwd|pass ?phrases?|api[ -]?keys?|secret(?: key)?s?|access tokens?|bearer tokens?"
    r"|auth(?:entication)? tokens?|tokens? value|credentials?|creds|private keys?|ssh keys?"
    r"|cookies?|session (?:ids?|cookies?|tokens?)|otp|one[- ]time (?:codes?|passwords?|passcodes?)"
    r"|mfa codes?|2fa codes?|connection strings?|env(?:ironment)? (?:vars?|variables?)|\.env"
    r"|keys? vault|signing keys?|service account keys?"
)
_PRIVATE_NOUNS = (
    r"salar(?:y|ies)|payroll|ssns?|social security numbers?|home address(?:es)?"
    r"|phone numbers?|personal (?:data|details|information) (?:of|for|about)|employee records?"
    r"|hr records?|medical records?|customer (?:list|records|data|emails?)|internal emails?"
    r"|private (?:files?|messages?|channels?|repos?|repositories)|confidential (?:files?|documents?|data)"
    r"|system prompt|hidden (?:instructions?|prompt)|operator(?:-only)? (?:receipts?|notes?|logs?)"
    r"|internal[- ]only (?:content|documents?|data)|audit logs? of|chat (?:logs?|history) of"
    r"|other users?'? (?:questions?|uploads?|files?|sessions?)|user questions? log"
)
_REVEAL = (
    r"show|give|tell|reveal|print|dump|list|display|send|share|read out|leak|expose|paste|export"
    r"|output|retrieve|fetch|look up|lookup|find|provide|disclose|extract|copy|email"
)
_POLICY_WORDS = (
    r"policy|policies|rules?|guidance|practices?|approach|process|handling|handled|handle|way|ways"
    r"|requirements?|standards?|controls?|guidelines?|recommendations?"
)
_GAP = r"(?:(?!(?:" + _POLICY_WORDS + r")\b)[\w'-]+\s+){0,4}"

PRIVATE_DATA_RES = (
    re.compile(
        r"\b(?:" + _REVEAL + r")\b\s+(?:me\s+|us\s+)?(?:all\s+)?(?:of\s+)?(?:the|our|your|my|their|its|any|every|a|an)?\s*"
        + _GAP + r"(?:" + _SECRET_NOUNS + "|" + _PRIVATE_NOUNS + r")\b",
        re.I,
    ),
    re.compile(
        r"\bwhat(?:'s| is| are|s)\s+(?:the|our|your|my|their|its)\s+" + _GAP
        + r"(?:" + _SECRET_NOUNS + "|" + _PRIVATE_NOUNS + r")\b(?!\s+(?:" + _POLICY_WORDS + r")\b)",
        re.I,
    ),
    re.compile(r"\b(?:ignore|disregard|forget)\b.{0,40}\b(?:instructions|rules|guardrails|policy)\b", re.I),
    re.compile(r"\b(?:AICD_[A-Z_]*KEY|DJANGO_SECRET_KEY|AICD_PROVIDER_API_KEY)\b"),
)

_APPROVE_VERBS = (
    r"approve|sign[- ]?off(?: on)?|certify|authori[sz]e|green[- ]?light|bless|sanction|okay|ok"
    r"|accredit|endorse|rubber[- ]?stamp|clear|whitelist|allowlist"
)
_APPROVED_STATES = (
    r"approved|certified|authori[sz]ed|compliant|cleared|allowed|permitted|sanctioned|ok|okay"
    r"|gxp[- ]?(?:ready|compliant|validated)|good to go|fine to use|safe to use|legal|endorsed"
)
APPROVAL_RES = (
    # Asking the assistant itself to approve: "can you approve...", "please sign off..."
    re.compile(
        r"\b(?:can|could|will|would)\s+you\s+(?:please\s+|just\s+)?(?:" + _APPROVE_VERBS + r")\b", re.I
    ),
    re.compile(r"(?:^|[.!?]\s+|\bplease\s+|\bjust\s+)(?:" + _APPROVE_VERBS + r")\s+(?:our|my|the|this|that|these|it|us|them|a|an)\b", re.I),
    re.compile(r"\bi\s+(?:need|want|would like)\s+(?:you\s+)?(?:to\s+)?(?:get\s+)?(?:your\s+)?(?:" + _APPROVE_VERBS + r"|approval|sign-?off|go-?ahead)\b", re.I),
    re.compile(
        r"\b(?:give|grant|issue)\s+(?:us|me|them)?\s*(?:the\s+|an?\s+|your\s+)?(?:formal\s+|final\s+)?"
        r"(?:approval|sign-?off|go-?ahead|green ?light|permission|authori[sz]ation|certification|blessing)\b",
        re.I,
    ),
    # Asking for an approval status: "is our vendor approved for production?"
    re.compile(
        r"\b(?:is|are)\s+(?:our|the|this|that|my|these|those|we|it|they|\w+'s)\s+(?:[\w-]+\s+){0,6}"
        r"(?:" + _APPROVED_STATES + r")\b(?:\s+(?:for|to|in|under|by|with)\b|\s*\?|$)",
        re.I,
    ),
    re.compile(
        r"\b(?:are|am)\s+(?:we|i)\s+(?:" + _APPROVED_STATES + r"|allowed|permitted|cleared)\s+to\b", re.I
    ),
    re.compile(
        r"\b(?:can|may|could)\s+(?:we|i)\s+(?:now\s+|just\s+|go ahead and\s+)?(?:go live|deploy|launch|ship|roll out|release|use|put|run|move)\b"
        r".{0,80}\b(?:production|prod|live|customers|patients|real users|go-?live)\b",
        re.I,
    ),
    re.compile(r"\b(?:confirm|verify|declare|state|certify)\s+(?:that\s+)?(?:our|the|this|my|we|it)\b.{0,80}\b(?:" + _APPROVED_STATES + r"|ready for production|production[- ]ready)\b", re.I),
)
_PROCESS_QUESTION = re.compile(
    r"\b(?:who|whom|whose|which\s+(?:role|owner|team|person|people|group|body|board|function)s?"
    r"|what\s+(?:role|owner|team|person|group|body|board|evidence|criteria|process|steps?)s?"
    r"|how\s+(?:do|does|should|would|can|is|are)\b.{0,40}\b(?:approv|sign)"
    r"|when\s+(?:do|does|should|is|are)\b)",
    re.I,
)

_UPLOAD_NOUNS = (
    r"uploads?|uploaded (?:\w+ ){0,2}?(?:files?|documents?|drafts?|pdfs?|docx|prds?|proposals?|material|text|sources?)"
    r"|session sources?|pasted (?:text|source)s?"
    r"|(?:my|this|our) (?:uploaded )?(?:files?|documents?|drafts?|pdfs?|docx|prds?|proposals?|paste)"
)
UPLOAD_BOUNDARY_RES = (
    re.compile(
        r"\b(?:add|ingest|import|promote|store|save|persist|keep|index|load|merge|publish|commit|put)\b"
        r".{0,60}\b(?:upload(?:ed)?|session source|my (?:file|document|draft|pdf|docx)|this (?:file|document|draft|pdf|upload)|pasted (?:text|source))"
        r".{0,60}\b(?:package|corpus|context[- ]pack|registry|source set|database|vector|knowledge base|permanent|permanently|durable|playbook)\b",
        re.I,
    ),
    re.compile(
        r"\btreat\b.{0,60}\b(?:upload(?:ed)?|file|document|draft|pasted)\b.{0,40}\bas\b.{0,30}\b(?:approved|package|authority|authoritative|corpus|policy)\b",
        re.I,
    ),
    re.compile(r"\b(?:make|mark)\b.{0,40}\b(?:upload(?:ed)?|file|document|draft)\b.{0,30}\b(?:approved|authoritative|part of the (?:package|playbook|corpus))\b", re.I),
    # Ingesting, persisting, promoting or publishing an upload, with or without a destination.
    re.compile(
        r"\b(?:ingest|persist|promote|publish)\b.{0,40}\b(?:" + _UPLOAD_NOUNS + r")\b", re.I
    ),
    # Keeping an upload beyond the session.
    re.compile(
        r"\b(?:keep|save|store|retain|remember)\b.{0,40}\b(?:" + _UPLOAD_NOUNS + r")\b.{0,40}"
        r"\b(?:after|beyond|past|across|between)\b.{0,20}\b(?:session|sessions|logout|log out|today|restart)"
        r"|\b(?:keep|save|store|retain)\b.{0,40}\b(?:" + _UPLOAD_NOUNS + r")\b.{0,20}\b(?:permanently|forever|for good)\b",
        re.I,
    ),
    # Citing an upload as package authority.
    re.compile(
        r"\b(?:use|cite|count|accept)\b.{0,40}\b(?:" + _UPLOAD_NOUNS + r")\b.{0,30}\bas\b.{0,20}"
        r"\b(?:package citations?|source of record|approved (?:source|corpus|package|guidance)|authority|doctrine)\b",
        re.I,
    ),
)

GENERAL_CHAT_RES = (
    re.compile(
        r"\b(?:write|compose|draft|make up|create|generate|give me|tell me|sing|come up with)\b.{0,30}\b"
        r"(?:poem|limerick|haiku|sonnet|song|lyrics|rap|story|short story|joke|riddle|fairy tale|bedtime story|pun|toast|love letter)s?\b",
        re.I,
    ),
    re.compile(r"\b(?:tell|know)\b.{0,15}\b(?:a|any)\s+(?:good\s+)?jokes?\b", re.I),
    re.compile(
        r"\b(?:recipe|weather|forecast|horoscope|lottery|football|soccer|basketball|cricket|baseball|world cup|super bowl"
        r"|movie|film|netflix|celebrity|boyfriend|girlfriend|dating|vacation|holiday destination|restaurant|cocktail|"
        r"crossword|sudoku|chess move|stock tips?|crypto(?:currency)? price|bitcoin price)s?\b",
        re.I,
    ),
    re.compile(r"\b(?:pretend|act as|role-?play|you are now|imagine you are)\b", re.I),
    re.compile(r"\bwhat(?:'s| is)\s+the\s+(?:capital|population|height|distance)\s+of\b", re.I),
    re.compile(r"\btranslate\b.{0,40}\b(?:into|to)\s+(?:french|german|spanish|italian|japanese|chinese|latin|english)\b", re.I),
    re.compile(r"^\s*(?:hi|hello|hey|yo|good (?:morning|afternoon|evening)|how are you|what's up|sup|thanks|thank you)\b[\s!?.,]*(?:there)?[\s!?.]*$", re.I),
)

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
blocker concern metric metrics kpi accuracy latency quality fairness bias explainability
transparency accountability framework frameworks control controls
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
    """Refusals decided from the question alone, before any retrieval: data, approval, upload, chat."""
    text = " ".join(question.split())
    if any(r.search(text) for r in PRIVATE_DATA_RES):
        return Pattern.PRIVATE_INTERNAL_DATA_REQUEST
    if any(r.search(text) for r in UPLOAD_BOUNDARY_RES):
        return Pattern.UPLOADED_SOURCE_BOUNDARY
    direct_ask = APPROVAL_RES[0].search(text) or APPROVAL_RES[2].search(text) or APPROVAL_RES[3].search(text)
    if direct_ask or (
        not _PROCESS_QUESTION.search(text) and any(r.search(text) for r in APPROVAL_RES)
    ):
        return Pattern.UNSUPPORTED_APPROVAL_REQUEST
    if any(r.search(text) for r in GENERAL_CHAT_RES):
        return Pattern.UNSUPPORTED_GENERAL_CHAT
    return None


def has_domain_vocabulary(question: str) -> bool:
    return any(s in _DOMAIN_STEMS for s in content_stems(question))


def decide(question: str, search: SearchResult) -> PolicyDecision:
    """Refuse deterministically, or allow an answer: runs before any adapter or provider call."""
    pattern = screen_intent(question)
    if pattern is None and not search.supported:
        pattern = (
            Pattern.NO_PACKAGE_SUPPORT
            if has_domain_vocabulary(question)
            else Pattern.UNSUPPORTED_GENERAL_CHAT
        )
    return PolicyDecision(refusal=notice(pattern) if pattern else None)
