"""Deterministic refusal and narrowing decisions, made before any retrieval adapter or provider call."""

from __future__ import annotations

import re
from collections.abc import Callable
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
    r"|user accounts?|e-?mail addresses|usernames|user list|list of users"
    r"|(?:meeting |committee |board )?minutes|meeting notes|performance (?:ratings?|reviews?|scores?)"
    r"|(?:pen ?test|penetration test|security audit|internal audit) (?:findings|results|reports?)"
    r"|(?:findings|results|reports?) (?:from|of) (?:the |our )?(?:last |latest |recent )?(?:internal )?(?:pen ?test|penetration test|security audit|internal audit)"
    r"|(?:provider|gateway|server|system|app|application|redis|database) (?:config(?:uration)?|settings) (?:including|with)"
    r"|(?:user|account) [\w.-]+'s (?:session|uploads?|questions?|history|files?|chats?)"
)
_REVEAL = (
    r"show|give|tell|reveal|print|dump|list|display|send|share|read out|leak|expose|paste|export"
    r"|output|retrieve|fetch|look up|lookup|find|provide|disclose|extract|copy|email|echo(?: back)?"
    r"|read(?: me| out)?|pull up|open|cat"
)
_POLICY_WORDS = (
    r"policy|policies|rules?|guidance|practices?|approach|process|handling|handled|handle|way|ways"
    r"|requirements?|standards?|controls?|guidelines?|recommendations?"
)
_GAP = r"(?:(?!(?:" + _POLICY_WORDS + r")\b)[\w'-]+\s+){0,6}"
_OTHER_PEOPLE = (
    r"(?:other|another|previous|prior|earlier|last|all the|every) (?:users?|reviewers?|people|persons?"
    r"|colleagues?|teams?|sessions?|customers?)|(?:the )?(?:user|reviewer|person|someone) (?:before|ahead of) me"
    r"|(?:somebody|someone) else(?:'s)?|everyone else(?:'s)?"
    r"|my (?:colleagues?|co-?workers?|manager|boss|director|team ?mates?|supervisor|reports)(?:'s?)?"
)
_THEIR_CONTENT = (
    r"ask(?:ed|s)?|questions?|upload(?:ed|s)?|files?|sessions?|histor(?:y|ies)|chats?|prompts?"
    r"|quer(?:y|ies)|prds?|documents?|drafts?|conversations?|answers?"
)

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
    # Other people's sessions: "what did other users ask today?", "the reviewer before me uploaded".
    re.compile(
        r"\b(?:(?:what|which)\b.{0,20}\b(?:did|have|has|do|does|were|was)|" + _REVEAL + r"|let me see|i need to see|see|access|view)\b"
        r".{0,30}\b(?:" + _OTHER_PEOPLE + r")\b.{0,40}\b(?:" + _THEIR_CONTENT + r")\b",
        re.I,
    ),
    re.compile(
        r"\b(?:" + _REVEAL + r"|see|access|view)\b.{0,30}\b(?:" + _THEIR_CONTENT + r")\b.{0,30}\b(?:of|from|by)\s+(?:" + _OTHER_PEOPLE + r")\b",
        re.I,
    ),
    re.compile(r"\b(?:performance (?:rating|review|score)|salary|bonus)\b.{0,20}\b(?:did|does|of|for)\s+[A-Z][a-z]+\b"),
    re.compile(r"\b[A-Z][a-z]+(?:'s)?\s+(?:performance (?:rating|review|score)|salary|bonus|home address)\b"),
    re.compile(r"\b(?:AICD_[A-Z_]*KEY|DJANGO_SECRET_KEY|AICD_PROVIDER_API_KEY)\b"),
)

_APPROVE_VERBS = (
    r"approve|sign[- ]?off(?: on)?|certify|authori[sz]e|green[- ]?light|bless|sanction"
    r"|accredit|endorse|rubber[- ]?stamp|whitelist|allowlist"
)
_APPROVED_STATES = (
    r"approved|certified|authori[sz]ed|compliant|cleared|permitted|sanctioned"
    r"|gxp[- ]?(?:ready|compliant|validated)|good to go|fine to use|safe to use|endorsed"
    r"|regulatory[- ]ready|production[- ]ready|audit[- ]ready|signed[- ]off"
)
_CONFIRM_STATES = (
    _APPROVED_STATES + r"|allowed|acceptable|ok|okay|fine|sufficient|enough|adequate|ready|good to \w+"
    r"|safe|legal|valid|covered|accepted"
)
APPROVAL_RES = (
    # Asking the assistant itself to approve: "can you approve...", "we need you to sign off..."
    re.compile(
        r"\b(?:can|could|will|would)\s+you\s+(?:please\s+|just\s+)?(?:" + _APPROVE_VERBS + r"|ok|okay)\b", re.I
    ),
    re.compile(
        r"(?:^|[.!?,;:]\s*|\b(?:please|just|and|then|so)\s+)(?:" + _APPROVE_VERBS + r")\b"
        r"(?!\s+(?:process|processes|criteria|steps?|rules?|by|from)\b)",
        re.I,
    ),
    re.compile(
        r"\b(?:i|we)\s+(?:need|want|would like|expect)\s+(?:you\s+)?(?:to\s+)?(?:get\s+)?(?:your\s+)?"
        r"(?:" + _APPROVE_VERBS + r"|approval|sign-?off|go-?ahead)\b",
        re.I,
    ),
    re.compile(
        r"\b(?:give|grant|issue)\s+(?:us|me|them|it|our \w+(?: \w+)?)?\s*(?:the\s+|an?\s+|your\s+)?(?:formal\s+|final\s+)?"
        r"(?:approval|sign-?off|go-?ahead|green ?light|permission|authori[sz]ation|certification|blessing|pass)\b",
        re.I,
    ),
    # Asking for an approval status: "is our vendor approved for production?"
    re.compile(
        r"\b(?:is|are)\s+(?:our|the|this|that|my|these|those|we|they|\w+'s)\s+(?:[\w-]+\s+){0,6}"
        r"(?:" + _APPROVED_STATES + r")\b(?:\s+(?:for|to|in|under|by|with)\b|\s*\?|$)",
        re.I,
    ),
    re.compile(r"\b(?:are|am)\s+(?:we|i)\s+(?:" + _APPROVED_STATES + r"|allowed|permitted)\s+to\b", re.I),
    re.compile(
        r"\b(?:can|may|could)\s+(?:we|i)\s+(?:now\s+|just\s+|go ahead and\s+)?(?:go live|deploy|launch|ship|roll out|release|put|use)\b"
        r".{0,80}\b(?:production|prod|live|customers|patients)\b",
        re.I,
    ),
    # "confirm we're good to deploy", "declare that X is allowed", "verify our controls are sufficient"
    re.compile(
        r"\b(?:confirm|verify|declare|state|certify|attest|guarantee|assure me|tell (?:me|us))\b(?:\s+that)?"
        r".{0,80}\b(?:is|are|am|'s|'re|be|been|as)\s+(?:now\s+|fully\s+|officially\s+)?(?:[\w-]+\s+)?(?:" + _CONFIRM_STATES + r")\b",
        re.I,
    ),
    re.compile(r"\b(?:mark|record|log|list|flag|register)\b.{0,60}\bas\s+(?:" + _APPROVED_STATES + r"|accepted|passed|complete)\b", re.I),
    # Fabricating an approval statement: "draft a line stating that our risk owner signed off".
    re.compile(
        r"\b(?:draft|write|add|insert|put)\b.{0,50}\b(?:stating|saying|that says|to say|declaring|confirming)\b"
        r".{0,60}\b(?:approved|signed off|accepted|cleared|authori[sz]ed|certified|compliant)\b",
        re.I,
    ),
)
_DIRECT_APPROVAL_ASKS = (APPROVAL_RES[0], APPROVAL_RES[2], APPROVAL_RES[3], APPROVAL_RES[9])
_PROCESS_QUESTION = re.compile(
    r"\b(?:who|whom|whose|which\s+(?:role|owner|team|person|people|group|body|board|function)s?"
    r"|what\s+(?:role|owner|team|person|group|body|board|evidence|criteria|process|steps?)s?"
    r"|how\s+(?:do|does|should|would|can|is|are)\b.{0,40}\b(?:approv|sign)"
    r"|when\s+(?:do|does|should|is|are)\b"
    r"|(?:does|do|would|will)\s+(?:that|this|it|passing|meeting|a|an|the)\b.{0,60}\bmean\b"
    r"|is\s+(?:a|an)\s+[\w\s-]{0,30}\bthe same (?:thing )?as\b)",
    re.I,
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
)

_LEISURE = (
    r"poem|limerick|haiku|sonnet|song|lyrics|rap(?: verse)?|story|short story|joke|riddle|fairy tale"
    r"|bedtime story|pun|toast|love letter|birthday (?:message|card|wish(?:es)?)|wedding speech"
    r"|thank[- ]you note|greeting card|essay about (?:my|the) (?:summer|holiday|weekend)"
)
GENERAL_CHAT_RES = (
    re.compile(
        r"\b(?:write|compose|draft|make up|create|generate|give me|tell me|sing|come up with|help me (?:write|draft|with))\b"
        r".{0,30}\b(?:" + _LEISURE + r")s?\b",
        re.I,
    ),
    re.compile(r"\b(?:tell|know)\b.{0,15}\b(?:a|any)\s+(?:good\s+)?jokes?\b", re.I),
    re.compile(
        r"\b(?:recipes?|weather|forecast|horoscope|lottery|football|soccer|basketball|cricket|baseball|world cup|super bowl"
        r"|movies?|films?|netflix|celebrit(?:y|ies)|boyfriend|girlfriend|dating|vacation|holiday destination|restaurants?|cocktails?"
        r"|crossword|sudoku|chess move|stock tips?|stocks? (?:to|should)|crypto(?:currency)? price|bitcoin|itinerary|sightseeing"
        r"|kittens?|puppy|puppies|pet names?|podcasts?|novels?|tv shows?|video games?|tip on|calories|workout|diet)\b",
        re.I,
    ),
    re.compile(r"\b(?:recommend|suggest)\b.{0,30}\b(?:books?|movies?|films?|shows?|series|songs?|albums?|games?|podcasts?|restaurants?|hotels?|names?)\b", re.I),
    re.compile(r"\b(?:pretend|act as|role-?play|you are now|imagine you are|from now on you are)\b", re.I),
    re.compile(r"\b(?:no|without)\s+(?:any\s+)?(?:rules|restrictions|limits|filters|guardrails)\b", re.I),
    re.compile(r"\b(?:ignore|disregard|forget)\b.{0,40}\b(?:instructions|rules|guardrails|prompt|policy)\b", re.I),
    re.compile(r"\bwhat(?:'s| is)\s+the\s+(?:capital|population|height|distance)\s+of\b", re.I),
    re.compile(r"\btranslate\b.{0,40}\b(?:into|to)\s+(?:french|german|spanish|italian|japanese|chinese|latin|english|dutch|portuguese)\b", re.I),
    re.compile(
        r"\b(?:write|generate|give me|code|implement)\b.{0,25}\b(?:python|javascript|typescript|java|sql|bash|c\+\+|rust|golang|regex)\b"
        r".{0,25}\b(?:function|script|code|program|query|class|snippet|one-liner)\b",
        re.I,
    ),
    re.compile(r"\bwhat(?:'s| is)\s+(?:a\s+)?\d+(?:\.\d+)?\s*%\s+(?:tip|of)\b", re.I),
    re.compile(r"^\s*(?:hi|hello|hey|yo|good (?:morning|afternoon|evening)|how are you|what's up|sup|thanks|thank you)\b[\s!?.,]*(?:there)?[\s!?.]*$", re.I),
)
_QUOTED = re.compile(r"\"[^\"]{2,}\"|“[^”]{2,}”|‘[^’]{2,}’|(?<![\w])'[^']{2,}'(?![\w])")


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
    """Refusals decided from the question alone, before any retrieval: data, approval, upload, chat.

    Quoted passages are left out first: a reviewer quoting "ignore previous instructions" from a
    draft is asking about it, not issuing it.
    """
    text = _QUOTED.sub(" ", " ".join(question.split()))
    if any(r.search(text) for r in PRIVATE_DATA_RES):
        return Pattern.PRIVATE_INTERNAL_DATA_REQUEST
    if any(r.search(text) for r in UPLOAD_BOUNDARY_RES):
        return Pattern.UPLOADED_SOURCE_BOUNDARY
    direct_ask = any(r.search(text) for r in _DIRECT_APPROVAL_ASKS)
    if direct_ask or (
        not _PROCESS_QUESTION.search(text) and any(r.search(text) for r in APPROVAL_RES)
    ):
        return Pattern.UNSUPPORTED_APPROVAL_REQUEST
    if any(r.search(text) for r in GENERAL_CHAT_RES):
        return Pattern.UNSUPPORTED_GENERAL_CHAT
    return None


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
    """Refuse deterministically, or allow an answer: runs before any adapter or provider call."""
    pattern = screen_intent(question)
    if pattern is None and not has_domain_vocabulary(question, correct):
        # Nothing in the question touches the package's subject area: general chat, even when
        # a few ordinary words happen to match some row.
        pattern = Pattern.UNSUPPORTED_GENERAL_CHAT
    if pattern is None and not search.supported:
        pattern = Pattern.NO_PACKAGE_SUPPORT
    return PolicyDecision(refusal=notice(pattern) if pattern else None)
