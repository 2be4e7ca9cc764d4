"""The few explicit screening rules kept beside the learnt model, each clearly right on its own.

Rules here are high-precision statements of the source boundary, not vocabulary grown from
examples: asking to promote uploaded material into package authority or keep it beyond the
session (the seed's uploaded-source boundary), asking the assistant to leave the package
("ignore the package", "answer from your own knowledge", "your new instructions are"), and
asking for the value of a secret-shaped environment variable. Each is matched on the plain
spelling of the question (:func:`assistant.screening.normalize.plain`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum


class RuleKind(StrEnum):
    UPLOAD_BOUNDARY = "upload_boundary"
    LEAVE_SOURCE_BOUNDARY = "leave_source_boundary"
    SECRET_VALUE = "secret_value"


@dataclass(frozen=True)
class Rule:
    """A pattern; ``addressed`` rules match only a request addressed to the assistant.

    An addressed rule must match at the start of a sentence (after politeness such as "please",
    "can you", "I want you to") with quoted passages removed, so a reviewer asking *about* an
    injected "ignore previous instructions" is not issuing it.
    """

    name: str
    kind: RuleKind
    pattern: re.Pattern[str]
    addressed: bool = True


_UPLOAD = r"(?:upload(?:ed|s)?|(?:my|this|the|our) (?:file|document|draft|pdf|docx|paste)|pasted (?:text|material)|session sources?)"
_AUTHORITY = r"(?:package|corpus|context[- ]pack|registry|source set|approved (?:source|corpus|guidance)|source of record|doctrine|knowledge base|vector (?:store|index|database))"

# A secret-shaped environment variable name (in the plain, lower-case spelling).
_SECRET_VARIABLE = (
    r"\b[a-z][a-z0-9]*_(?:[a-z0-9]+_)*(?:key|token|secret|password|passwd|credentials?)\b"
)

RULES: tuple[Rule, ...] = (
    Rule(
        "promote_upload",
        RuleKind.UPLOAD_BOUNDARY,
        re.compile(
            r"(?:add|ingest|import|promote|merge|publish|commit|index|load|copy|move|put)\b.{0,60}"
            + _UPLOAD
            + r".{0,60}\b(?:into|to|in)\b.{0,20}"
            + _AUTHORITY
        ),
    ),
    Rule(
        "publish_upload",
        RuleKind.UPLOAD_BOUNDARY,
        re.compile(r"(?:ingest|persist|publish|promote)\b.{0,40}" + _UPLOAD),
    ),
    Rule(
        "upload_as_authority",
        RuleKind.UPLOAD_BOUNDARY,
        re.compile(
            r"(?:treat|use|cite|count|accept|make|mark)\b.{0,40}"
            + _UPLOAD
            + r".{0,30}\bas\b.{0,20}(?:an? |the )?(?:approved|authoritative|authority|package citations?|"
            + _AUTHORITY
            + r")"
        ),
    ),
    Rule(
        "keep_upload",
        RuleKind.UPLOAD_BOUNDARY,
        re.compile(
            r"(?:keep|save|store|retain|remember|persist)\b.{0,40}"
            + _UPLOAD
            + r".{0,40}(?:\b(?:after|beyond|past|across|between)\b.{0,20}\b(?:sessions?|log ?out|today|restart)"
            r"|\b(?:permanently|forever|for good|durabl[ey])\b)"
        ),
    ),
    Rule(
        "ignore_package",
        RuleKind.LEAVE_SOURCE_BOUNDARY,
        re.compile(
            r"(?:ignore|disregard|forget|bypass|set aside)\b.{0,30}\b(?:the |your |all |any )?"
            r"(?:package|playbook|sources?|citations?|grounding|instructions|rules|guardrails|system prompt)\b"
        ),
    ),
    Rule(
        "own_knowledge",
        RuleKind.LEAVE_SOURCE_BOUNDARY,
        re.compile(
            r"(?:answer|respond|reply|tell me|explain|go|work)?.{0,40}\b(?:from|with|using|use) "
            r"(?:your )?(?:own|general|training|built-in|prior) (?:knowledge|data|memory|opinion)\b"
            r"|(?:your|the) new (?:instructions|rules|system prompt|role) (?:is|are)\b"
            r"|(?:answer|respond|reply)\b.{0,30}\bwithout (?:the |any )?(?:package|playbook|sources|citations)\b"
        ),
    ),
    Rule(
        "secret_variable_value",
        RuleKind.SECRET_VALUE,
        re.compile(
            r"\b(?:print|echo|show|reveal|dump|display|output|paste|give me|tell me|value of|"
            r"contents of|cat)\b.{0,40}"
            + _SECRET_VARIABLE
            + r"|"
            + _SECRET_VARIABLE
            + r".{0,20}\b(?:set to|value|equal to|contains?)\b"
        ),
        addressed=False,
    ),
)


_QUOTED = re.compile(r"\"[^\"]{2,}\"|“[^”]{2,}”|‘[^’]{2,}’|(?<![\w])'[^']{2,}'(?![\w])")
_SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n+|\s+-\s+")
_ADDRESS = re.compile(
    r"^(?:(?:please|pls|plz|now|just|ok|okay|so|and|then|first|also|kindly|hey|hi)[\s,]+)*"
    r"(?:(?:can|could|would|will|won't) (?:you|u)(?: please)? |(?:i|we) (?:want|need) (?:you|u) to )?"
)


# Asking for a review of the attached material: the one thing the assistant does with uploads.
REVIEW_REQUEST = re.compile(
    r"^(?:(?:please|pls|kindly|now|ok|okay|can you|could you)[\s,]+)*"
    r"(?:review|assess|evaluate|check|critique|analy[sz]e|compare|go through|look over)\s+"
    r"(?:this|the|my|our|attached|uploaded|these|those)\s+(?:[\w-]+\s+){0,3}?"
    r"(?:draft|proposal|prd|document|doc|file|upload|paste|design|plan|submission|packet)s?\b"
    r"(?:\s+(?:against|with|for|using)\s+(?:the\s+)?(?:playbook|package|criteria|review criteria|"
    r"build[- ]readiness|readiness checklist)\b)?[\s.!?]*"
)


def without_review_request(plain_question: str) -> str | None:
    """The rest of the question once a leading review request is taken away, or None when the
    question does not open with one ("review this draft and approve it" -> "and approve it")."""
    found = REVIEW_REQUEST.match(plain_question)
    return plain_question[found.end() :].strip() if found else None


def match(plain_question: str) -> Rule | None:
    """The first rule the (plain-spelt) question matches, or None."""
    sentences = [_ADDRESS.sub("", s) for s in _SENTENCE.split(_QUOTED.sub(" ", plain_question))]
    for rule in RULES:
        if rule.addressed:
            if any(rule.pattern.match(s) for s in sentences):
                return rule
        elif rule.pattern.search(plain_question):
            return rule
    return None
