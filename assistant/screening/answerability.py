"""Answerability: whether the package covers what a question is specifically about.

Retrieval always finds *some* rows that share words with an on-domain question. What decides
whether the package can answer is the question's **specific subject**: the named products,
vendors, regulations and clause numbers, figures and rare terms it asks about. A subject the
package never uses (``Bedrock``, ``Article 52``, ``HNSW``) cannot be answered from it, however
many ordinary words match.

:func:`evidence` measures this for one question against the package's vocabulary and the search
result: the specific terms the package lacks, and how much of the question the best rows cover.
:class:`AnswerabilityModel` turns that evidence into a decision with a small logistic model whose
weights are learnt from the labelled corpus (answerable versus ``no_support`` questions, against
the shipped package) by ``manage.py build_screening_model``. Its features are relative to the
package, so the learnt weights apply to any package the app is pointed at.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Container
from dataclasses import dataclass
from functools import lru_cache
from typing import TYPE_CHECKING

from wordfreq import top_n_list, zipf_frequency

from core.text import STOPWORDS, stemmed_stopwords, stems

if TYPE_CHECKING:
    from assistant.retrieval.index import SearchResult

# A word rarer than this in general English (Zipf scale: 3 is once per million words) and absent
# from the package is treated as a specific subject: "hnsw", "kubernetes", "premiums".
RARE_ZIPF = 3.2
MIN_RARE_LENGTH = 4
# A rare word one edit from a common English or package word is read as a typo, not a subject.
ENGLISH_WORDS = 50_000
MAX_TYPO_LENGTH = 15

# Words that introduce a numbered part of a named document: "Article 52", "clause 6.1.2".
_NUMBERED_PART = re.compile(
    r"\b(article|art\.|clause|section|sec\.|part|annex|appendix|chapter|rule|recital|control|"
    r"principle|requirement|paragraph|para\.|§)\s*(\d+(?:[.(][\da-z]+\)?)*)"
    # A name followed by a dotted number is a numbered part too: "GOVERN 1.2", "ISO 27001 A.5".
    r"|\b((?-i:[A-Z][A-Za-z]+))\s+(\d+\.\d+(?:\.\d+)*)\b",
    re.I,
)
_TOKEN = re.compile(r"[A-Za-z0-9][A-Za-z0-9'’]*(?:[-./][A-Za-z0-9]+)*")
_SENTENCE_START = re.compile(r"(?:^|[.!?:;]\s+|\n)\s*[\"'(\[*>#-]*\s*$")

FEATURES = (
    "bias",
    "missing_named",
    "missing_rare",
    "missing_numbered",
    "any_missing",
    "coverage",
    "coverage_top",
    "log_top_score",
    "unknown_share",
    "missing_in_focus",
    "missing_in_context",
)


@dataclass(frozen=True)
class Evidence:
    """What a question asks about that the package does not mention, and how well rows cover it."""

    missing_named: tuple[str, ...]
    missing_rare: tuple[str, ...]
    missing_numbered: tuple[str, ...]
    coverage: float
    coverage_top: float
    top_score: float
    unknown_share: float
    # Missing terms in the part of the question that asks (its focus), and in the context the
    # asker gives around it ("We run Splunk. What must logs never contain?").
    missing_in_focus: int = 0
    missing_in_context: int = 0

    @property
    def missing(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys(self.missing_numbered + self.missing_named + self.missing_rare))

    def vector(self) -> list[float]:
        return [
            1.0,
            float(len(self.missing_named)),
            float(len(self.missing_rare)),
            float(len(self.missing_numbered)),
            1.0 if self.missing else 0.0,
            self.coverage,
            self.coverage_top,
            math.log1p(max(self.top_score, 0.0)),
            self.unknown_share,
            float(self.missing_in_focus),
            float(self.missing_in_context),
        ]


@lru_cache(maxsize=4096)
def _zipf(word: str) -> float:
    return zipf_frequency(word, "en")


def _is_named(token: str, preceding: str) -> bool:
    """A token spelled as a name: an acronym, a capitalised word mid-sentence, or letters+digits."""
    letters = [c for c in token if c.isalpha()]
    if not letters:
        return False
    if any(c.isdigit() for c in token):
        return True  # gpt-4o, llama3, h100, sp800-53
    if len(letters) >= 2 and all(c.isupper() for c in letters):
        return True  # HNSW, SLA, GDPR
    if token[0].isupper() and len(letters) > 1 and not _SENTENCE_START.search(preceding):
        return True  # Bedrock, Azure (not the first word of a sentence)
    return any(c.isupper() for c in token[1:])  # OpenAI, DynamoDB


def _known(token: str, vocabulary: Container[str], correct: Callable[[str], str]) -> bool:
    """True when every stem of ``token`` is a package word (after typo correction)."""
    token_stems = [s for s in stems(token) if s and s not in stemmed_stopwords()]
    return all(s in vocabulary or correct(s) in vocabulary for s in token_stems)


@lru_cache(maxsize=1)
def _english() -> frozenset[str]:
    """The most common English words (wordfreq's list, shipped in its wheel)."""
    return frozenset(top_n_list("en", ENGLISH_WORDS))


_LETTERS = "abcdefghijklmnopqrstuvwxyz"


def _is_typo(word: str, vocabulary: Container[str]) -> bool:
    """True when ``word`` is one edit from a common English word or a package word.

    Bounded: words longer than ``MAX_TYPO_LENGTH`` are never treated as typos, so one long
    word costs at most a few thousand set lookups.
    """
    if len(word) > MAX_TYPO_LENGTH:
        return False
    english = _english()
    splits = [(word[:i], word[i:]) for i in range(len(word) + 1)]
    for a, b in splits:
        candidates = [a + b[1:]] if b else []
        if len(b) > 1:
            candidates.append(a + b[1] + b[0] + b[2:])
        candidates += [a + c + b[1:] for c in _LETTERS] if b else []
        candidates += [a + c + b for c in _LETTERS]
        for candidate in candidates:
            if candidate != word and (candidate in english or candidate in vocabulary):
                return True
    return False


_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=\S)")
# The word that opens the asking clause of a sentence: a question word or a fronted auxiliary.
_ASKING = re.compile(
    r"(?:^|[,;:\u2014-]\s*|\b(?:so|but|and|then)\s+)\b(what|which|who|whom|whose|when|where|why|how|is|are|"
    r"was|were|do|does|did|can|could|should|must|may|might|will|would|has|have|tell me|explain|"
    r"list|describe|give me|show me|summari[sz]e)\b",
    re.I,
)


def focus_start(question: str) -> int:
    """Where the asking part of ``question`` begins; what comes before it is the asker's context.

    The asking sentence is the last one with a question mark (else the last sentence); within
    it, a leading clause set off by a comma before the question word ("For the Tundra
    deployment, how much headroom ...?") is context too.
    """
    starts = [0] + [m.end() for m in _SENTENCE_END.finditer(question)]
    sentences = [
        (a, question[a:b]) for a, b in zip(starts, starts[1:] + [len(question)], strict=True)
    ]
    asking = [(a, t) for a, t in sentences if "?" in t] or sentences[-1:]
    begin, text = asking[-1]
    first = _ASKING.search(text)
    if (
        first is not None
        and first.start(1) > 0
        and text[: first.start(1)].rstrip()[-1:] in ",;:\u2014-"
    ):
        return begin + first.start(1)
    return begin


@lru_cache(maxsize=4)
def _text_words(package_text: str) -> frozenset[str]:
    return frozenset(re.findall(r"\w+", package_text))


def _is_word_char(text: str, at: int) -> bool:
    """Whether ``text[at]`` is what a regular expression's ``\\w`` matches in a ``str`` (a
    letter, digit or underscore); outside the text, no."""
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] == "_")


def _in_text(lower: str, package_text: str) -> bool:
    """Whether the package's lower-cased text holds ``lower`` as a whole word: a set lookup for
    a plain word; for one with inner marks ("gpt-4o", "don't"), a substring search that checks
    the word boundary at both ends of each place the text holds it.

    That is what ``\\b{lower}\\b`` finds, without the regular expression, which tries a word
    boundary at every position of the text and so grew with the package: about 40 ms a word on
    a package ten times the sample, the slowest questions' largest cost.
    """
    if re.fullmatch(r"\w+", lower):
        return lower in _text_words(package_text)
    if not lower:
        return re.search(r"\b", package_text) is not None
    first, last = _is_word_char(lower, 0), _is_word_char(lower, len(lower) - 1)
    at = package_text.find(lower)
    while at >= 0:
        end = at + len(lower)
        if (
            _is_word_char(package_text, at - 1) != first
            and _is_word_char(package_text, end) != last
        ):
            return True
        at = package_text.find(lower, at + 1)
    return False


def evidence(
    question: str,
    search: SearchResult,
    *,
    vocabulary: Container[str],
    package_text: str,
    correct: Callable[[str], str],
) -> Evidence:
    """Measure ``question`` against the package (its stem vocabulary and lower-cased text)."""
    named: list[str] = []
    rare: list[str] = []
    numbered: list[str] = []
    focus = focus_start(question)
    in_focus = in_context = 0
    for match in _NUMBERED_PART.finditer(question):
        name, number = (match.group(1), match.group(2)) if match.group(1) else match.group(3, 4)
        phrase = f"{name} {number}"
        if phrase.lower() not in package_text:
            numbered.append(phrase[0].upper() + phrase[1:])
            in_focus += match.start() >= focus
            in_context += match.start() < focus
    content = 0
    unknown = 0
    for match in _TOKEN.finditer(question):
        token = match.group(0).strip("'’")
        lower = token.lower()
        if lower in STOPWORDS or len(lower) < 2:
            continue
        content += 1
        if _known(token, vocabulary, correct) or _in_text(lower, package_text):
            continue
        unknown += 1
        if _is_named(token, question[: match.start()]):
            named.append(token)
        elif (
            lower.isalpha()
            and len(lower) >= MIN_RARE_LENGTH
            and _zipf(lower) < RARE_ZIPF
            and not _is_typo(lower, vocabulary)
        ):
            rare.append(token)
        else:
            continue
        in_focus += match.start() >= focus
        in_context += match.start() < focus
    return Evidence(
        missing_named=tuple(dict.fromkeys(named)),
        missing_rare=tuple(dict.fromkeys(rare)),
        missing_numbered=tuple(dict.fromkeys(numbered)),
        coverage=search.coverage,
        coverage_top=search.coverage_top,
        top_score=search.top_score,
        unknown_share=unknown / content if content else 1.0,
        missing_in_focus=in_focus,
        missing_in_context=in_context,
    )


def not_covered_sentence(missing: tuple[str, ...]) -> str:
    """ "The package does not mention A, B or C." for the refusal message (at most four terms)."""
    shown = list(missing[:4])
    if len(shown) == 1:
        listed = shown[0]
    else:
        listed = ", ".join(shown[:-1]) + " or " + shown[-1]
    return f"The package does not mention {listed}."


@dataclass(frozen=True)
class Verdict:
    answerable: bool
    probability: float
    evidence: Evidence


@dataclass(frozen=True)
class AnswerabilityModel:
    """Logistic weights over :data:`FEATURES` and the probability below which a question is refused."""

    weights: tuple[float, ...]
    threshold: float
    #: From this probability the package covers a question the intent screen read as general
    #: chat, and it is answered (``assistant/pipeline/policy.py``); above 1: never.
    covers: float = 1.01

    def probability(self, found: Evidence) -> float:
        z = sum(w * x for w, x in zip(self.weights, found.vector(), strict=True))
        return 1.0 / (1.0 + math.exp(-max(-50.0, min(50.0, z))))

    def judge(self, found: Evidence, *, supported: bool) -> Verdict:
        """Refused when retrieval found no support, or the model scores it below the threshold."""
        p = self.probability(found)
        return Verdict(answerable=supported and p >= self.threshold, probability=p, evidence=found)
