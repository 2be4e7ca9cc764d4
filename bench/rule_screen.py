"""The rule-based intent screen the learnt screening replaced (assistant/intent.py at 7b328da).

Kept only as the `make bench` baseline for the screening rows: the learnt screen is timed
against it in the same run. Nothing in the app imports it.

Intent screening: what a question asks the assistant to do, decided by explicit language rules.

Each rule pairs an *ask* (a request addressed to the assistant: an imperative, "can you", "I
need you to", "what is X set to") with a *target* (a secret, someone else's data, an approval,
an off-topic task). Talking *about* approvals, secrets or other teams is not an ask: "who signs
off a model change?" is a governance question and passes; "sign off our model change" does not.
Quoted passages are removed first, so a reviewer quoting an injected instruction from a draft is
asking about it, not issuing it.
"""

from __future__ import annotations

import re
from enum import StrEnum


class Intent(StrEnum):
    PRIVATE_DATA = "private_internal_data_request"
    UPLOAD_BOUNDARY = "uploaded_source_boundary"
    APPROVAL = "unsupported_approval_request"
    GENERAL_CHAT = "unsupported_general_chat"


class _Rule:
    """A regular expression compiled on its first search, not when the module is imported.

    The rules below are large alternations: compiling them all takes tens of milliseconds,
    which every process would otherwise pay at start-up (``manage.py`` commands, each gunicorn
    worker) whether or not it ever screens a question. The first screening compiles them once
    per process; a race compiles a rule twice, harmlessly.
    """

    __slots__ = ("_compiled", "_flags", "_required", "_requires", "_source")

    def __init__(self, source: str, flags: int = 0, *, requires: str | None = None) -> None:
        # ``requires`` must be written into the rule itself (a part every match goes through),
        # so that editing the rule cannot leave a stale precondition behind.
        if requires is not None and requires not in source:
            raise ValueError(f"a rule's required part is not in its pattern: {requires!r}")
        self._source, self._flags, self._requires = source, flags, requires
        self._compiled: re.Pattern[str] | None = None
        self._required: re.Pattern[str] | None = None

    @property
    def pattern(self) -> re.Pattern[str]:
        if self._compiled is None:
            self._compiled = re.compile(self._source, self._flags)
        return self._compiled

    def search(self, text: str) -> re.Match[str] | None:
        # ``requires``: a part that every match contains, cheap to look for on its own; where
        # it is absent the whole rule cannot match, and its costly search is skipped.
        if self._requires is not None:
            if self._required is None:
                self._required = re.compile(self._requires, self._flags)
            if not self._required.search(text):
                return None
        return self.pattern.search(text)


def _any(*parts: str) -> str:
    return "(?:" + "|".join(parts) + ")"


_QUOTED = re.compile(r"\"[^\"]{2,}\"|“[^”]{2,}”|‘[^’]{2,}’|(?<![\w])'[^']{2,}'(?![\w])")
_SENTENCES = re.compile(r"(?<=[.!?;])\s+|\s+-\s+|\n+")

# -------------------------------------------------------------------------------- the asks
# An ask addressed to the assistant: polite or imperative openings and direct "you" requests.
_OPENING = (
    r"(?:^|[,:]\s*)(?:(?:hey|hi|ok|okay|so|now|pls|plz|please|kindly|just|quickly|simply)\b[\s,]*)*"
)
_YOU = r"(?:\b(?:can|could|will|would|won't|cant|can't)\s+(?:you|u|ya)\b|\b(?:(?:i|we)\s+)?(?:need|want|would like|expect|require)\s+(?:you|u|ya)(?:\s+to)?\b|\byou\s+(?:should|must|need to|have to)\b)"
_REVEAL = (
    r"show|give|tell|reveal|print|dump|list|display|send|share|read|leak|expose|paste|export|output"
    r"|retrieve|fetch|look ?up|find|provide|disclose|extract|copy|email|echo|pull up|open|cat|spell out"
    r"|repeat|return|quote|forward|grab|get"
)

# ------------------------------------------------------------------------------ private data
_SECRET = (
    r"passwords?|passwd|pass ?phrases?|api[ -]?keys?|secret(?: keys?)?s?|(?:access|bearer|auth|api|session|refresh)[ -]tokens?"
    r"|(?:the|a|my|our|your|his|her|their|that|this) token(?! (?:counts?|budgets?|usage|costs?|limits?|estimates?))|credentials?|creds|private keys?|ssh keys?|cookies?|session (?:ids?|cookies?|data|contents?)"
    r"|otps?|one[- ]time (?:codes?|passwords?|passcodes?)|(?:mfa|2fa) codes?|connection strings?"
    r"|env(?:ironment)? (?:vars?|variables?|values?)|\.env|key ?vault|signing keys?|service account keys?"
    r"|(?:gateway|provider|prod|production|admin|root|redis|database|db) keys?"
)
_INTERNAL_DOC = (
    r"system (?:prompt|instructions?)|hidden (?:instructions?|prompts?)|internal[- ]only|never (?:been )?published|unpublished"
    r"|post-?mortems?|minutes|meeting notes|operator(?:-only)? (?:receipts?|notes?|logs?)|validation receipts?"
    r"|internal (?:environment|host|server) names?|security test results?|pen(?:etration)? ?test (?:findings|results|reports?)"
    r"|audit (?:findings|logs?)|incident reports?|confidential (?:files?|documents?|data|reports?)"
    r"|internal/operator \w+|operator evidence|commit (?:ids|hashes|shas)|(?:environment |server |internal )?host ?names"
    r"|(?:error|access|application|app|server|gunicorn|nginx|system|debug|request|audit) logs?|log (?:lines|files?|entries)|request bodies"
    r"|(?:findings|results|reports?) (?:from|of) (?:the |our )?(?:last |latest |recent )?(?:internal )?(?:pen ?test|penetration test|security (?:audit|review|assessment)|internal audit)"
    r"|(?:chat|session|conversation)s? (?:logs?|histor(?:y|ies)|transcripts?|exports?)|server logs?"
    r"|user accounts?|e-?mail addresses|usernames|user list|list of users|customer (?:lists?|records|data|emails?)"
    r"|employee (?:records?|list|data)|hr (?:records?|files?|data)"
)
_PERSONAL = (
    r"salar(?:y|ies)|payroll|earns?|earning|paid|pay ?grade|bonus(?:es)?|sick (?:leave|days?)|medical (?:records?|history|leave)"
    r"|performance (?:ratings?|reviews?|scores?)|home address(?:es)?|phone numbers?|date of birth|salary bands?|pay bands?"
    r"|disciplinary \w+|vacation (?:days|dates|balance)|leave dates"
)
_OTHERS = (
    r"(?:other|another|previous|prior|earlier|last|the last|all the|every|all) (?:users?|reviewers?|people|persons?|colleagues?|sessions?|customers?)"
    r"|(?:the )?(?:user|reviewer|person|someone) (?:before|ahead of) me|(?:somebody|someone|everyone|everybody) else"
    r"|my (?:colleagues?|co-?workers?|manager|boss|director|team ?mates?|supervisor|reports)"
    r"|the \w+ (?:team|department|dept|group|unit)|(?:people|folks|anyone|someone|users?) (?:in|from|on) (?:the )?\w+|user [\w.@-]+"
    r"|(?-i:[A-Z][a-z]+ [A-Z][a-z]+)|my (?:colleague|co-?worker|manager|boss) (?-i:[A-Z][a-z]+)"
)
_THEIR_ACTIVITY = r"ask(?:ed|s|ing)?|questions?|upload(?:ed|s)?|files?|sessions?|histor(?:y|ies)|chats?|prompts?|quer(?:y|ies)|prds?|drafts?|conversations?|search(?:ed|es)?|typed|submitted"
_POLICY_WORDS = r"polic(?:y|ies)|rules?|guidance|practices?|approach|process|handling|handled|handle|ways?|requirements?|standards?|controls?|guidelines?|recommendations?|rotation|storage|stored|kept|keep"

_THEIR_ACTIVITY_WORD = r"\b" + _any(_THEIR_ACTIVITY) + r"\b"
_PERSONAL_WORD = r"\b" + _any(_PERSONAL) + r"\b"
_SET_TO = (
    r"\b(?:set to|value|values|starts? with|first (?:few )?(?:characters|chars|digits|letters))\b"
)
_PASTE_IT = (
    r"\b(?:paste|show|send|share|dump|print)\s+(?:it|them|that|those|everything|the works)\b"
)

PRIVATE_DATA_RULES = (
    # "show me the database password", "print the provider configuration including the token"
    _Rule(
        r"\b"
        + _any(_REVEAL)
        + r"\b(?:\s+(?:me|us|back))?\s+(?:(?!"
        + _any(_POLICY_WORDS)
        + r"\b)[\w'.,/-]+\s+){0,10}?"
        + _any(_SECRET, _INTERNAL_DOC, _PERSONAL)
        + r"\b(?!\s+(?:"
        + _POLICY_WORDS
        + r")\b)",
        re.I,
    ),
    # "what's the gateway key set to", "what is the value of X", "what did the minutes say"
    _Rule(
        r"\bwhat(?:'s|s| is| are| was| were)\s+(?:in\s+)?(?:the|our|your|my|their|its|this)\s+(?:(?!"
        + _any(_POLICY_WORDS)
        + r"\b)[\w'.-]+\s+){0,5}?"
        + _any(_SECRET, _INTERNAL_DOC)
        + r"\b(?!\s+(?:"
        + _POLICY_WORDS
        + r")\b)",
        re.I,
    ),
    _Rule(r"\b" + _any(_SECRET) + r"\b.{0,30}" + _SET_TO, re.I, requires=_SET_TO),
    _Rule(
        r"\bwhat did\b.{0,60}\b"
        + _any(_INTERNAL_DOC)
        + r"\b.{0,30}\b(?:say|said|decide|decided|conclude|contain)",
        re.I,
    ),
    # Someone else's activity: "what did other users ask", "questions the finance team asked"
    _Rule(
        r"\b(?:what|which|"
        + _REVEAL
        + r"|see|view|access)\b.{0,40}\b"
        + _any(_OTHERS)
        + r"\b.{0,40}\b"
        + _any(_THEIR_ACTIVITY)
        + r"\b",
        re.I,
        requires=_THEIR_ACTIVITY_WORD,
    ),
    _Rule(
        r"\b(?:what|which|"
        + _REVEAL
        + r"|see|view|access)\b.{0,40}\b"
        + _any(_THEIR_ACTIVITY)
        + r"\b.{0,30}\b(?:did|has|have|of|from|by)\s+"
        + _any(_OTHERS)
        + r"\b",
        re.I,
        requires=_THEIR_ACTIVITY_WORD,
    ),
    # Personal data about a named or described person
    _Rule(
        r"\b(?:how much|what)\b.{0,30}\b(?:does|did|is|was)\s+(?:(?-i:[A-Z][a-z]+)|my \w+|our \w+)\b.{0,40}\b"
        + _any(_PERSONAL)
        + r"\b",
        re.I,
        requires=_PERSONAL_WORD,
    ),
    _Rule(
        r"\b"
        + _any(_PERSONAL)
        + r"\b.{0,30}\b(?:of|for|does|did|is|was|has)\s+(?:(?-i:[A-Z][a-z]+)|my \w+)\b",
        re.I,
        requires=_PERSONAL_WORD,
    ),
    # Other people's details: "include their emails and exactly what they typed"
    _Rule(
        r"\b(?:include|with|give|list|show|send|share|tell)\b.{0,25}\b(?:their|his|her)\s+(?:e-?mails?|e-?mail addresses|names|phone numbers|addresses|questions|uploads|messages|chats|prompts|sessions)\b",
        re.I,
    ),
    _Rule(
        r"\bwhat (?:they|he|she|others|people) (?:typed|asked|wrote|uploaded|searched|said to you)\b",
        re.I,
    ),
    _Rule(
        r"\b(?:first|last)\s+(?:\d+|few|couple of|two|three|four|five|six|eight)\s+(?:characters|chars|digits|letters)\b.{0,40}\b"
        + _any(_SECRET)
        + r"\b",
        re.I,
    ),
    # "the internal evidence behind the release... paste it here"
    _Rule(_any(_SECRET, _INTERNAL_DOC) + r"\b.{0,100}" + _PASTE_IT, re.I, requires=_PASTE_IT),
    _Rule(
        r"\b(?:(?-i:[A-Z][a-z]+)(?:'s)?|(?:his|her|their))\s+" + _PERSONAL_WORD,
        re.I,
        requires=_PERSONAL_WORD,
    ),
    _Rule(r"\b(?:AICD_[A-Z_]+|DJANGO_SECRET_KEY|SECRET_KEY|DATABASE_URL)\b"),
)

# -------------------------------------------------------------------------------- approval
_APPROVE = (
    r"approve|re-?approve|ok|okay|sign[- ]?off(?: on)?|sign it off|certify|authori[sz]e|green[- ]?light|bless|sanction|stamp"
    r"|accredit|endorse|rubber[- ]?stamp|whitelist|allowlist|clear|validate|accept|pass|waive"
)
_APPROVED = (
    r"approved|certified|authori[sz]ed|compliant|cleared|permitted|sanctioned|signed[- ]off|endorsed|accepted|passed"
    r"|gxp[- ]?(?:ready|compliant|validated)|good to go|fine to use|safe to use|(?:regulatory|production|audit|go-?live)[- ]ready"
    r"|ready for (?:production|prod|go-?live|launch|release)|exempt|[\w]+-ready|validated|verified"
)
_CONFIRMABLE = (
    _APPROVED
    + r"|allowed|acceptable|ok|okay|fine|sufficient|enough|adequate|ready|good to \w+|safe|legal|lawful|valid"
    r"|meets?|meeting|complies|comply|satisf(?:y|ies)|conforms?|in line with|covered|has passed|have passed"
)
_APPROVAL_NOUN = (
    r"approval|sign-?off|go-?ahead|green ?light|permission|authori[sz]ation|certification|blessing|exception|waiver"
    r"|exemption|attestation|clearance|pass|letter of approval|ok|okay|thumbs[- ]up|nod"
)
_CONFIRM_VERB = (
    r"(?:confirm|verify|declare|state|say|certify|attest|guarantee|assure (?:me|us)|promise)\b"
)
_DO_THAT = r"(?:provide|give|grant|issue|write|send|do)\s+(?:that|it|this|one|us one)\b"
APPROVAL_RULES = (
    # Addressed to the assistant: "can you approve", "we need you to sign off", "pls OK the contract"
    _Rule(
        r"(?:"
        + _YOU
        + r")\s+(?:please\s+|just\s+|pls\s+|quickly\s+)?(?:"
        + _APPROVE
        + r"|confirm|declare|certify|attest)\b",
        re.I,
    ),
    _Rule(
        r"(?:"
        + _YOU
        + r")\s+(?:please\s+|just\s+|pls\s+|quickly\s+)?(?:provide|give|grant|issue|write|send)\b.{0,30}\b(?:"
        + _APPROVAL_NOUN
        + r")\b",
        re.I,
    ),
    _Rule(
        _OPENING
        + r"(?:"
        + _APPROVE
        + r")\b(?!\s*(?:process(?:es)?|criteria|steps?|rules?|by|from|is|are|was|means?|[?]|$))",
        re.I,
    ),
    _Rule(r"\b(?:please|pls|plz|just|kindly|so)\s+(?:" + _APPROVE + r")\b", re.I),
    _Rule(
        r"\band\s+(?:approve|sign off|certify|authori[sz]e|green-?light|rubber-?stamp|ok|okay)\s+(?:it|this|that|our|the|them)\b",
        re.I,
    ),
    _Rule(
        r"\b(?:give|grant|issue|provide|send|write)\s+(?:us|me|them|our \w+(?: \w+)?)?\s*(?:the\s+|an?\s+|your\s+)?(?:formal\s+|final\s+|written\s+|official\s+|regulatory\s+|security\s+|legal\s+|policy\s+)?(?:"
        + _APPROVAL_NOUN
        + r")\b",
        re.I,
    ),
    # "confirm our chatbot is GDPR compliant", "declare that our design has passed security review"
    _Rule(
        r"(?:^|[,:;]\s*|\b(?:please|pls|just|can|could|will|would|you|to|and|so)\s+)"
        + _CONFIRM_VERB
        + r"(?:\s+(?:to\s+(?:me|us)|for\s+us))?(?:\s+that)?"
        r".{0,90}\b(?:is|are|am|'s|'re|be|been|was|were|as|will|would|does|do|has|have)?\s*(?:now\s+|fully\s+|officially\s+|still\s+)?(?:[\w-]+\s+){0,2}(?:"
        + _CONFIRMABLE
        + r")\b",
        re.I,
        requires=_CONFIRM_VERB,
    ),
    _Rule(
        r"\b(?:mark|record|log|flag|register|list|stamp)\b.{0,60}\bas\s+(?:"
        + _APPROVED
        + r"|complete|done)\b",
        re.I,
    ),
    # Fabricating an approval statement: "add 'approved per playbook' to our proposal"
    _Rule(
        r"\b(?:draft|write|add|insert|put|append|include)\b.{0,60}\b(?:stating|saying|that says|to say|declaring|confirming|approved|signed off|certified)\b",
        re.I,
    ),
    # Approval status of the asker's own thing: "is our vendor cleared for patient data?"
    _Rule(
        r"(?:^|\b(?:so|and|but)\s+)(?:is|are)\s+(?:our|the|this|that|my|these|those|we|they|\w+'s)\s+(?:[\w'-]+\s+){0,10}(?:"
        + _APPROVED
        + r")\b"
        r"(?:\s+(?:for|to|in|under|by|with|now)\b|\s*[?,.!]|\s*$|\s+(?:right|yet)\b)",
        re.I,
    ),
    _Rule(
        r"\b(?:are|am)\s+(?:we|i)\s+(?:now\s+|officially\s+)?(?:approved|cleared|authori[sz]ed|certified|signed[- ]off|good to go|compliant)\b",
        re.I,
    ),
    _Rule(
        r"\b(?:we(?:'re| are)|it(?:'s| is))\s+(?:now\s+)?(?:approved|cleared|compliant|good to go)\b.{0,15}\b(?:right|correct|yes)\b",
        re.I,
    ),
    # Permission to ship: "can we deploy this to prod now?"
    _Rule(
        r"\b(?:can|may|could)\s+(?:we|i)\s+(?:now\s+|just\s+|go ahead and\s+|already\s+)?(?:go live|deploy|launch|ship|roll (?:it )?out|release|put|use|start using|push)\b"
        r".{0,80}\b(?:production|prod|live|customers|patients)\b",
        re.I,
    ),
)
# Talking about approvals rather than asking for one.
_PROCESS_QUESTION = _Rule(
    r"\b(?:who|whom|whose|which\s+(?:role|owner|team|person|people|group|body|board|function|forum)s?"
    r"|what\s+(?:role|owner|team|person|group|body|board|evidence|criteria|process|steps?|happens|does|do|should)\b"
    r"|how\s+(?:do|does|should|would|can|is|are|to)\b"
    r"|when\s+(?:do|does|should|is|are|can)\b|why\b"
    r"|(?:does|do|would|will)\s+(?:that|this|it|passing|meeting|a|an|the)\b.{0,60}\bmean\b"
    r"|(?:is|are)\s+(?:a|an)\s+[\w\s-]{0,30}\bthe same (?:thing )?as\b"
    r"|(?:am i|are we|is (?:a|an|the) \w+)\s+(?:allowed|permitted|able)\s+to\b"
    r"|what (?:does|do) (?:the )?(?:playbook|package)\b|according to\b|per the playbook)",
    re.I,
)
_DIRECT = (0, 1, 5, 8)  # rules that hold even inside a process-style question

# --------------------------------------------------------------------------- upload boundary
_UPLOAD_NOUNS = (
    r"uploads?|uploaded (?:\w+ ){0,2}?(?:files?|documents?|drafts?|pdfs?|docx|prds?|proposals?|material|text|sources?)"
    r"|session sources?|pasted (?:text|source)s?"
    r"|(?:my|this|our) (?:uploaded )?(?:files?|documents?|drafts?|pdfs?|docx|prds?|proposals?|paste)"
)
_UPLOAD_NOUN_WORD = r"\b(?:" + _UPLOAD_NOUNS + r")\b"
_UPLOAD_MENTION = (
    r"\b(?:upload(?:ed)?|session source|my (?:file|document|draft|pdf|docx|prd)"
    r"|this (?:file|document|draft|pdf|upload)|pasted (?:text|source))"
)
_PROMOTE_VERB = r"\b(?:ingest|persist|promote|publish)\b"
UPLOAD_BOUNDARY_RULES = (
    _Rule(
        r"\b(?:add|ingest|import|promote|store|save|persist|keep|index|load|merge|publish|commit|put|move|copy)\b"
        r".{0,60}"
        + _UPLOAD_MENTION
        + r".{0,60}\b(?:package|corpus|context[- ]pack|registry|source set|database|vector|knowledge base|permanent(?:ly)?|durable|playbook|forever)\b",
        re.I,
        requires=_UPLOAD_MENTION,
    ),
    _Rule(
        r"\btreat\b.{0,60}\b(?:upload(?:ed)?|file|document|draft|pasted)\b.{0,40}\bas\b.{0,30}\b(?:approved|package|authority|authoritative|corpus|policy)\b",
        re.I,
    ),
    _Rule(
        r"\b(?:make|mark)\b.{0,40}\b(?:upload(?:ed)?|file|document|draft)\b.{0,30}\b(?:approved|authoritative|part of the (?:package|playbook|corpus))\b",
        re.I,
    ),
    # Ingesting, persisting, promoting or publishing an upload, with or without a destination.
    _Rule(_PROMOTE_VERB + r".{0,40}\b(?:" + _UPLOAD_NOUNS + r")\b", re.I, requires=_PROMOTE_VERB),
    # Keeping an upload beyond the session.
    _Rule(
        r"\b(?:keep|save|store|retain|remember)\b.{0,40}\b(?:" + _UPLOAD_NOUNS + r")\b.{0,40}"
        r"\b(?:after|beyond|past|across|between)\b.{0,20}\b(?:session|sessions|logout|log out|today|restart)"
        r"|\b(?:keep|save|store|retain)\b.{0,40}\b(?:"
        + _UPLOAD_NOUNS
        + r")\b.{0,20}\b(?:permanently|forever|for good)\b",
        re.I,
        requires=_UPLOAD_NOUN_WORD,
    ),
    # Citing an upload as package authority.
    _Rule(
        r"\b(?:use|cite|count|accept)\b.{0,40}\b(?:" + _UPLOAD_NOUNS + r")\b.{0,30}\bas\b.{0,20}"
        r"\b(?:package citations?|source of record|approved (?:source|corpus|package|guidance)|authority|doctrine)\b",
        re.I,
        requires=_UPLOAD_NOUN_WORD,
    ),
)

# ------------------------------------------------------------------------------ general chat
_LEISURE = (
    r"poems?|limericks?|haikus?|sonnets?|songs?|lyrics|raps?(?: verse)?|stor(?:y|ies)|jokes?|riddles?|fairy tales?"
    r"|puns?|toasts?|love letters?|birthday (?:messages?|cards?|wish(?:es)?)|wedding speech(?:es)?|thank[- ]you notes?|greeting cards?"
    r"|speech(?:es)?|best man|eulogy|vows|opening lines?|pick-?up lines?|captions?"
)
_OFF_TOPIC = (
    r"recipes?|weather|forecast|horoscope|astrology|lottery|football|soccer|basketball|cricket|baseball|tennis|world cup|super bowl|olympics"
    r"|movies?|films?|netflix|sci-?fi|novels?|celebrit(?:y|ies)|boyfriend|girlfriend|dating|vacation|holiday destination|restaurants?"
    r"|cocktails?|wine|beer|crossword|sudoku|chess|stock tips?|stocks? (?:to|should)|crypto(?:currency)?|bitcoin|itinerar(?:y|ies)"
    r"|sightseeing|kittens?|puppy|puppies|pets?|pet names?|podcasts?|tv shows?|video games?|tip on|calories|workouts?|gym|fitness"
    r"|personal trainer|diet|pizza|toppings?|meal plan|dinner|lunch|breakfast|muffins?|cake|baking|gardening|knitting|fishing"
    r"|playlist|music|band|guitar|piano|painting|drawing|zodiac|meaning of life|conscious(?:ness)?|sentient|feelings"
)
GENERAL_CHAT_RULES = (
    _Rule(
        r"\b(?:write|compose|draft|make up|create|generate|give me|tell me|sing|come up with|help me (?:write|draft|with)|make me)\b"
        r".{0,30}\b(?:" + _LEISURE + r")\b",
        re.I,
        requires=r"\b(?:" + _LEISURE + r")\b",
    ),
    _Rule(r"\b(?:" + _OFF_TOPIC + r")\b", re.I),
    _Rule(
        r"\b(?:recommend|suggest)\b.{0,30}\b(?:books?|movies?|films?|shows?|series|songs?|albums?|games?|podcasts?|restaurants?|hotels?|names?)\b",
        re.I,
    ),
    # Jailbreaks and role play (checked before approval rules: "confirm by saying DAN online")
    _Rule(
        r"\b(?:pretend|act as|acting as (?:my|a|an)|role-?play|you are now|you're now|imagine you(?: are|'re)|from now on,? you(?: are|'re)?|developer mode|system override|jailbreak|dan mode)\b",
        re.I,
    ),
    _Rule(
        r"\b(?:no|without)\s+(?:any\s+)?(?:rules|restrictions|limits|filters|guardrails|sources|citations)\b",
        re.I,
    ),
    _Rule(
        r"(?:^|[.!?:;#]\s*)(?:please\s+|now\s+)?(?:ignore|disregard|forget)\b.{0,40}\b(?:instructions|rules|guardrails|prompt|policy|above|before|previous|everything)\b",
        re.I,
    ),
    _Rule(
        r"\b(?:your|ur)\s+(?:own\s+)?(?:personal\s+)?(?:opinion|favou?rite|feelings?|views? on life)\b|\bdo you (?:think|believe|feel|like|love|dream)\b",
        re.I,
    ),
    _Rule(r"\bwhat(?:'s| is)\s+the\s+(?:capital|population|height|distance|currency)\s+of\b", re.I),
    _Rule(
        r"\btranslate\b.{0,40}\b(?:into|to)\s+(?:french|german|spanish|italian|japanese|chinese|latin|english|dutch|portuguese|polish|hindi|arabic)\b",
        re.I,
    ),
    _Rule(
        r"\b(?:write|generate|give me|code|implement)\b.{0,25}\b(?:python|javascript|typescript|java|sql|bash|c\+\+|rust|golang|regex)\b"
        r".{0,25}\b(?:function|script|code|program|query|class|snippet|one-liner)\b",
        re.I,
    ),
    _Rule(
        r"\bwhat(?:'s| is)\s+(?:a\s+)?\d+(?:\.\d+)?\s*%\s+(?:tip|of)\b|\bsolve\b.{0,20}\bequation\b",
        re.I,
    ),
    _Rule(
        r"^\s*(?:hi|hello|hey|yo|good (?:morning|afternoon|evening)|how are you|what's up|sup|thanks|thank you)\b[\s!?.,]*(?:there)?[\s!?.]*$",
        re.I,
    ),
)


JAILBREAK_RULES = (GENERAL_CHAT_RULES[3], GENERAL_CHAT_RULES[4], GENERAL_CHAT_RULES[5])


# "we need regulatory sign-off stating X - can you provide that?"
_APPROVAL_THEN_ASK = _Rule(
    r"\b(?:" + _APPROVAL_NOUN + r")\b.{0,160}(?:" + _YOU + r")\s+(?:please\s+|just\s+)?" + _DO_THAT,
    re.I,
    requires=_DO_THAT,
)


def _sentences(text: str) -> list[str]:
    return [s for s in _SENTENCES.split(text) if s.strip()]


# Writing approval wording into a document: checked before quotes are removed.
_QUOTED_APPROVAL = _Rule(
    r"\b(?:add|insert|put|append|include|write|stamp|paste)\b.{0,30}[\"'‘“][^\"'’”]{0,60}\b(?:approved|signed off|certified|compliant|cleared|authori[sz]ed)\b",
    re.I,
)


def screen(question: str) -> Intent | None:
    """The question's refusal-worthy intent, if any, in precedence order."""
    raw = " ".join(question.split())
    text = _QUOTED.sub(" ", raw)
    sentences = _sentences(text) or [text]
    if any(rule.search(text) for rule in PRIVATE_DATA_RULES):
        return Intent.PRIVATE_DATA
    if any(rule.search(text) for rule in UPLOAD_BOUNDARY_RULES):
        return Intent.UPLOAD_BOUNDARY
    if any(rule.search(text) for rule in JAILBREAK_RULES):
        return Intent.GENERAL_CHAT
    if _APPROVAL_THEN_ASK.search(text):
        return Intent.APPROVAL
    if _QUOTED_APPROVAL.search(raw) and not _PROCESS_QUESTION.search(raw):
        return Intent.APPROVAL
    for sentence in sentences:
        process = _PROCESS_QUESTION.search(sentence)
        for i, rule in enumerate(APPROVAL_RULES):
            if (i in _DIRECT or not process) and rule.search(sentence):
                return Intent.APPROVAL
    # The jailbreak rules among them were searched above.
    if any(rule.search(text) for rule in GENERAL_CHAT_RULES if rule not in JAILBREAK_RULES):
        return Intent.GENERAL_CHAT
    return None
