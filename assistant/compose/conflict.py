"""Deterministic package/current conflict detection: opposite obligation cues on the same key terms.

A conflict is flagged when a package sentence and a current/public sentence share enough key terms
(stemmed content words) and one states an obligation ("must", "should", "required") while the
other negates or waives it ("must not", "never", "optional", "not required"). It is a cue-based
flag for human review, not a judgement: it catches explicit opposite statements about the same
thing and misses subtler disagreements. It never decides which side is right.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.domain.prompt import SourceRef
from assistant.package.sentences import split_sentences
from core.text import content_stems, words

NEGATIVE_RE = re.compile(
    r"\b(?:must|should|shall|need|needs|do|does|is|are|will|can)\s+not\b"
    r"|\b(?:mustn't|shouldn't|shan't|needn't|don't|doesn't|isn't|aren't|won't|cannot)\b"
    r"|\bnever\b|\bno\s+(?:longer\s+)?(?:need|requirement|obligation)s?\b"
    r"|\bnot\s+(?:required|necessary|needed|mandatory|expected|obligatory)\b"
    r"|\b(?:optional|prohibited|forbidden|unnecessary)\b|\bmay\s+(?:skip|omit|waive|forgo)\b",
    re.I,
)
POSITIVE_RE = re.compile(
    r"\b(?:must|shall|should|required|requires|require|mandatory|always|obligatory)\b"
    r"|\bneeds?\s+to\b|\b(?:is|are)\s+expected\s+to\b",
    re.I,
)
REQUIRES = "states an obligation"
RULES_OUT = "negates or waives the obligation"
_CUE_STEMS = frozenset(
    content_stems(
        "must should shall need needs required requires require mandatory always never optional "
        "prohibited forbidden unnecessary necessary expected obligatory skip omit waive forgo cannot"
    )
)
MIN_SHARED_TERMS = 3
MIN_SHARED_SHARE = 0.5


@dataclass(frozen=True)
class Conflict:
    """One package sentence and one current/public sentence that point in opposite directions."""

    package_id: str
    package_sentence: str
    package_polarity: str
    current_id: str
    current_sentence: str
    current_polarity: str
    shared_words: tuple[str, ...]


def polarity(sentence: str) -> str | None:
    """REQUIRES, RULES_OUT, or None when the sentence states no obligation either way."""
    if NEGATIVE_RE.search(sentence):
        return RULES_OUT
    if POSITIVE_RE.search(sentence):
        return REQUIRES
    return None


def _key_stems(sentence: str) -> set[str]:
    return set(content_stems(sentence)) - _CUE_STEMS


def _shared_words(sentence: str, shared: set[str]) -> tuple[str, ...]:
    out = [w for w in words(sentence) if (content_stems(w) or [""])[0] in shared]
    return tuple(dict.fromkeys(out))


def detect(
    package_refs: tuple[SourceRef, ...], current_refs: tuple[SourceRef, ...]
) -> Conflict | None:
    """The most clearly conflicting sentence pair (most shared key terms), or None.

    Ties go to the earliest package ref and sentence, so the result is deterministic.
    """
    current = [
        (ref.citation_id, s, side, _key_stems(s))
        for ref in current_refs
        for s in split_sentences(ref.text)
        if (side := polarity(s)) is not None
    ]
    if not current:
        return None
    best: tuple[tuple[int, float], Conflict] | None = None
    for ref in package_refs:
        for sentence in split_sentences(ref.text):
            side = polarity(sentence)
            if side is None:
                continue
            stems = _key_stems(sentence)
            for cid, other, other_side, other_stems in current:
                if other_side == side:
                    continue
                shared = stems & other_stems
                share = len(shared) / (min(len(stems), len(other_stems)) or 1)
                if len(shared) < MIN_SHARED_TERMS or share < MIN_SHARED_SHARE:
                    continue
                score = (len(shared), share)
                if best is None or score > best[0]:
                    best = (
                        score,
                        Conflict(
                            package_id=ref.citation_id,
                            package_sentence=sentence,
                            package_polarity=side,
                            current_id=cid,
                            current_sentence=other,
                            current_polarity=other_side,
                            shared_words=_shared_words(sentence, shared),
                        ),
                    )
    return best[1] if best else None


def divergence_text(conflict: Conflict) -> str:
    """The Divergence lane for a conflict: the difference named plainly, then the decision needed."""
    p, c = conflict.package_id, conflict.current_id
    about = ", ".join(f'"{w}"' for w in conflict.shared_words[:8]) or "the same subject"
    return (
        f"Conflict: on the shared terms {about}, the package sentence {conflict.package_polarity} "
        f"[{p}], while the current/public sentence {conflict.current_polarity} [{c}]. Both claims are kept with "
        "their own citations; the difference is not resolved by model preference.\n\n"
        f"Decision needed: the package's source owner should decide whether the package guidance "
        f"[{p}] needs a human-reviewed update, after a freshness and trust review of the "
        f"current/public source [{c}] and any policy or validation evidence the decision depends on. "
        "Until then the package remains the source of record; this is an update candidate, not a change."
    )


def synthesis_text(conflict: Conflict) -> str:
    """The Synthesis lane for a conflict: bounded implications tied to the two cited lanes."""
    p, c = conflict.package_id, conflict.current_id
    return (
        f"The approved package guidance [{p}] and the current/public source [{c}] differ on this "
        "point. Where the decision depends on playbook doctrine, package guidance prevails; the "
        "current/public source is context that may justify a review, not a replacement. This is an "
        "implication of the cited lanes, not source evidence."
    )
