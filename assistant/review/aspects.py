"""The aspects a review question asks to have checked, and the declared criterion each falls under.

A reviewer may ask for more than the draft kind's checklist: "does this PRD cover accessibility
and the rollback plan?". Each aspect the question names is matched to the package's declared
criteria (their names and key terms, with the package's glossary synonyms). An aspect that
falls under a criterion is reviewed as that criterion, even when the criterion is declared for
another draft kind; an aspect that falls under none is **not covered**: the package holds no
criterion for it, and the review says so instead of stretching the nearest criterion.

Aspects are read from the question's own grammar: what follows "check ... for", "cover",
"address", "including", "especially", "what about" and the like, split at commas and "and" /
"or". Words that only name the review itself (the draft, the checklist, gaps, blockers) and the
package's own checklist headings are not aspects.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from assistant.package.criteria import Criterion
from assistant.package.expansion import Expansion
from core.text import content_stems, stems, words

# What introduces the things a reviewer wants checked.
_CUE = re.compile(
    r"\b(?:(?:check|checks|checking|review|reviewing|assess|assessing|look|looking|scan|examine)"
    r"\b[^.?!;:,]{0,40}?\b(?:for|on|against|regarding|around|at)"
    r"|(?:cover|covers|covered|covering|address|addresses|addressed|addressing|include|includes|"
    r"including|mention|mentions|mentioning|handle|handles|handling|deal with|deals with|"
    r"say anything about|says anything about|explain|explains|describe|describes)"
    r"|especially|particularly|in particular|with a focus on|focus on|focusing on|"
    r"paying attention to|what about|how about|as well as|plus"
    # A bare checking verb takes its object directly: "check the rollback plan".
    r"|check|checks|checking|assess|assessing|examine|examining|evaluate|evaluating|verify)\b",
    re.I,
)
_END = re.compile(r"[.?!;:()\[\]<>{}\n]")
# Where the asked-about thing ends and the draft is named again: "... in this POC proposal".
_DRAFT_TAIL = re.compile(
    r"\s+(?:in|of|from|within|for|across|throughout)\s+(?:this|the|my|our|that|your|their)\s+"
    r"(?:\w+\s+){0,2}?(?:draft|prd|proposal|document|doc|poc|design|architecture|spec|plan)\b.*$",
    re.I,
)
_SPLIT = re.compile(r",|\band\b|\bor\b|\bas well as\b|\bplus\b|/|&", re.I)
# Leading words that are not part of what is asked about.
_LEAD = re.compile(
    r"^(?:(?:the|a|an|any|its|their|our|my|this|that|these|those|it|they|them|whether|if|how|what|"
    r"which|is|are|has|have|does|do|there|enough|proper|properly|adequate|adequately|clear|clearly|"
    r"sufficient|sufficiently|well|good|some|all|every|each|also|things?|like|such|as|in|on|of|for|"
    r"about|with|to)\s+)+",
    re.I,
)
# Words that only name the review, the draft or the asker: never an aspect on their own.
REVIEW_WORDS = frozenset(
    content_stems(
        "review reviews check checks checklist criteria criterion gap gaps blocker blockers issue "
        "issues problem problems missing finding findings concern concerns draft drafts document "
        "documents doc proposal proposals prd prds poc pocs requirements requirement readiness "
        "package playbook guidance rules rule standard standards compliance everything anything "
        "nothing me us please thanks quick attached uploaded upload file files section sections "
        "item items point points wrong right ok okay fine good bad weak strong go gate gates "
        "ready readiness approval architecture design product concept proof spec specification "
        "part parts area areas aspect aspects detail details bit bits flag list show find "
        "highlight spot see look give make point tell know let"
    )
)
MAX_ASPECT_WORDS = 6
MAX_ASPECTS = 6


@dataclass(frozen=True)
class Aspect:
    """One thing the question asks to be checked: its words as asked, and its content stems."""

    text: str
    stems: tuple[str, ...]
    keys: tuple[str, ...] = ()


def _clean(piece: str) -> str:
    return _LEAD.sub("", " ".join(piece.split()).strip(" \"'“”‘’-*")).strip(" \"'“”‘’-*")


def asked_aspects(question: str, extra_generic: Iterable[str] = ()) -> list[Aspect]:
    """The aspects ``question`` asks a review to check, in order, without repeats.

    ``extra_generic`` adds the package's own words for its checklists (their headings), which
    name the review rather than an aspect of the draft.
    """
    generic = REVIEW_WORDS | frozenset(extra_generic)
    out: list[Aspect] = []
    seen: set[tuple[str, ...]] = set()
    for cue in _CUE.finditer(question):
        tail = question[cue.end() :]
        end = _END.search(tail)
        clause = _DRAFT_TAIL.sub("", tail[: end.start()] if end else tail)
        for piece in _SPLIT.split(clause):
            text = _clean(piece)
            found = tuple(s for s in content_stems(text) if s not in generic)
            if (
                not any(len(s) >= 3 and s.isalpha() for s in found)
                or len(text.split()) > MAX_ASPECT_WORDS
                or found in seen
            ):
                continue
            seen.add(found)
            keys = tuple(k for k, s in zip(_keys(text), stems(text), strict=True) if s in found)
            out.append(Aspect(text, found, keys))
    return out[:MAX_ASPECTS]


# A stem stands for a word only when the word is close to it: the stemmer reads "accessibility"
# as "access", which is another subject. A longer word keeps its own form as its key.
STEM_SLACK = 4


def _keys(text: str) -> tuple[str, ...]:
    pairs = zip(words(text), stems(text), strict=True)
    return tuple(s if len(w) <= len(s) + STEM_SLACK else w for w, s in pairs)


def _phrases(criterion: Criterion) -> list[tuple[str, ...]]:
    return [k for k in (_keys(t) for t in (criterion.name, *criterion.terms)) if k]


def _contains(seq: Sequence[str], phrase: Sequence[str]) -> bool:
    n = len(phrase)
    return any(tuple(seq[i : i + n]) == tuple(phrase) for i in range(len(seq) - n + 1))


def criterion_for(
    aspect: Aspect, criteria: Sequence[Criterion], expansion: Expansion | None = None
) -> Criterion | None:
    """The declared criterion ``aspect`` falls under, or None when the package declares none.

    An aspect falls under a criterion when one of the criterion's phrases (its name or a key
    term) occurs in the aspect's own words, or when every content word of the aspect is one of
    the criterion's words or a glossary synonym of one. A word shared by several criteria says
    less than a word only one of them uses ("plan" against "rollback"), so each matched word
    counts one over the number of criteria using it; ties go to the first listed (the caller
    lists the draft kind's own criteria first).
    """
    own = _keys(aspect.text)
    # A synonym explains a word only by words the aspect does not already hold.
    synonyms = expansion.expansions_by_word(stems(aspect.text)) if expansion else {}
    phrases_of = [_phrases(c) for c in criteria]
    vocabularies = [{s for p in phrases for s in p} for phrases in phrases_of]
    spread: dict[str, int] = {}
    for vocabulary in vocabularies:
        for word in vocabulary:
            spread[word] = spread.get(word, 0) + 1
    best: tuple[float, int, Criterion] | None = None
    for order, (criterion, phrases, vocabulary) in enumerate(
        zip(criteria, phrases_of, vocabularies, strict=True)
    ):
        hits = [p for p in phrases if _contains(own, p)]
        explained = [
            k in vocabulary or bool((synonyms.get(s, set()) - set(own)) & vocabulary)
            for k, s in zip(aspect.keys, aspect.stems, strict=False)
        ]
        if not hits and not (explained and all(explained)):
            continue
        matched = {w for p in hits for w in p} | {
            k for k, ok in zip(aspect.keys, explained, strict=False) if ok
        }
        score = sum(1.0 / spread.get(w, 1) for w in matched)
        if best is None or (score, -order) > (best[0], best[1]):
            best = (score, -order, criterion)
    return best[2] if best else None
