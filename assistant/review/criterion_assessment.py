"""One declared criterion assessed on every uploaded sentence: present, partial, missing or contradicted.

- **contradicted** (a blocker): a sentence shows something a package prohibition forbids, its
  signal words affirmed in their clause and about the rule's own subject
  (``rule_polarity.py``); both the uploaded sentence and the package rule are quoted;
- **partial**, before any evidence is weighed: a sentence denies what the criterion is named for
  ("we are not setting kill criteria"), unless the criterion's expected evidence allows the
  thing to be absent;
- **present**: a sentence holds one of the criterion's key terms and its required element (a
  named person, a number, an amount, a date, a confirmation), with no hedge ("to be confirmed");
- **partial**: the best sentence holds a key term but lacks the element, or hedges;
- **missing**: no sentence of the whole upload holds any key term.

A sentence that speaks to the review rather than about the work (an instruction to the reviewer,
a claimed approval, a restated criterion: ``not_evidence.py``) is never read as a criterion's
evidence; the check names it when it would otherwise have been. A prohibition is still matched
on every sentence: a draft's own account of what it does can break a rule however it is framed.

Matching is on stemmed phrases, never on single shared words of the question. Every check
carries ``reason``: why its status follows from its evidence, as a reviewer reads it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from assistant.package.criteria import Criterion, Prohibition, ReviewCriteria
from assistant.review import criterion_evidence, not_evidence, rule_polarity
from assistant.review.upload_sentences import Sentence, sentences
from uploads.types import SessionSource

PRESENT, PARTIAL, MISSING, CONTRADICTED = "present", "partial", "missing", "contradicted"
NOT_COVERED = "not_covered"
_HEDGE = re.compile(
    r"\b(?:to be (?:confirmed|agreed|decided|named|defined)|tbc|tbd|will be (?:confirmed|agreed|named|"
    r"decided|defined)|(?:has|have) been asked|been requested|(?:is|are|was|were) requested|proposed|"
    r"will confirm|not yet|pending|we will ask|once the working group|not been)\b",
    re.I,
)
_ELEMENT = {
    "number": re.compile(
        r"\d|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twelve|twenty|thirty|fifty|hundred)\b",
        re.I,
    ),
    "amount": re.compile(
        r"[£$€]\s?\d|\b(?:USD|EUR|GBP|CHF|NOK|SEK|DKK)\s?\d|\d[\d,.]*\s?(?:USD|EUR|GBP|dollars|euros|pounds)\b",
        re.I,
    ),
    "date": re.compile(
        r"\b\d{1,2}\s(?:January|February|March|April|May|June|July|August|September|October|November|December)\b"
        r"|\b(?:January|February|March|April|May|June|July|August|September|October|November|December)\s\d{4}\b"
        r"|\b\d{4}-\d{2}-\d{2}\b|\bweek of\b"
    ),
    "person": re.compile(r"\b(?:Dr |Mr |Ms |Mrs )?[A-Z][a-z]+ (?:[A-Z]\.? )?[A-Z][a-z'’-]+\b"),
    "confirmation": re.compile(
        r"\b(?:confirmed|accepted|agreed|signed|approved|acknowledged|reviewed|in writing|sign-off|signed off)\b",
        re.I,
    ),
}


@dataclass(frozen=True)
class Check:
    """One criterion's status, with the sentence (and package rule) it rests on."""

    criterion: Criterion
    status: str
    evidence: Sentence | None = None
    prohibition: Prohibition | None = None
    evidence_id: str = ""
    #: The U id of the excerpt that completes a sentence cut by a page break, when one was sent.
    continued_id: str = ""
    pid: str = ""
    rule_pid: str = ""
    #: The draft sentence this criterion would have read as evidence, set aside as never evidence.
    set_aside: not_evidence.SetAside | None = None
    #: Why the status follows from the evidence, in words a reviewer reads.
    reason: str = ""
    #: A rule whose words a sentence holds but that is about another subject (not applied).
    not_applied: rule_polarity.Inapplicable | None = None


def signal_matches(sentence: Sentence, prohibition: Prohibition) -> bool:
    """Whether the sentence does what ``prohibition`` forbids (affirmed, about the rule's subject)."""
    match = rule_polarity.signal_match(sentence.text, prohibition)
    return match is not None and rule_polarity.inapplicable(match) is None


def _term_score(sentence: Sentence, criterion: Criterion) -> int:
    score = criterion_evidence.term_hits(sentence, criterion)
    if criterion.requires == "amount" and _ELEMENT["amount"].search(sentence.text):
        score += 1  # a sum of money is itself evidence of a cost figure
    return score


def _has_element(sentence: Sentence, criterion: Criterion) -> bool:
    return not criterion.requires or bool(_ELEMENT[criterion.requires].search(sentence.text))


def _complete(sentence: Sentence, criterion: Criterion) -> bool:
    return _has_element(sentence, criterion) and not _HEDGE.search(sentence.text)


def pair_features(
    sentence: Sentence,
    criterion: Criterion,
    parts: criterion_evidence.SentenceParts | None = None,
) -> dict[str, float]:
    """The evidence model's features for one (sentence, criterion) pair."""
    return criterion_evidence.features(
        sentence,
        criterion,
        _has_element(sentence, criterion),
        bool(_HEDGE.search(sentence.text)),
        parts,
    )


def _by_terms(
    criterion: Criterion, found: Sequence[Sentence], aside: Mapping[int, not_evidence.SetAside]
) -> tuple[Sentence | None, not_evidence.SetAside | None]:
    best: tuple[int, int, Sentence] | None = None
    best_all: tuple[int, int, int] | None = None
    for order, s in enumerate(found):
        terms = _term_score(s, criterion)
        if not terms:
            continue
        score = (
            terms + (3 if _has_element(s, criterion) else 0) - (3 if _HEDGE.search(s.text) else 0)
        )
        if best_all is None or score > best_all[0]:
            best_all = (score, -order, order)
        if order in aside:
            continue
        if best is None or score > best[0]:
            best = (score, -order, s)
    return best[2] if best else None, _passed_over(best_all, aside)


def _passed_over(
    best_all: tuple[Any, ...] | None, aside: Mapping[int, not_evidence.SetAside]
) -> not_evidence.SetAside | None:
    """The set-aside sentence that would have been the evidence, when the best of all was one."""
    return aside.get(best_all[-1]) if best_all is not None else None


def _evidence(
    criterion: Criterion,
    found: Sequence[Sentence],
    model: criterion_evidence.EvidenceModel | None,
    parts: Sequence[criterion_evidence.SentenceParts] = (),
    aside: Mapping[int, not_evidence.SetAside] | None = None,
) -> tuple[Sentence | None, not_evidence.SetAside | None]:
    """The sentence a criterion's status rests on (None when the draft holds no evidence), and
    the set-aside sentence that would have been chosen in its place (None when none would).

    With the learnt evidence model, the candidates are the sentences it scores at or above its
    threshold and those the draft files under the criterion by heading or label, and a complete one (element present, no hedge) is preferred over a likelier
    incomplete one; without a model, the sentence holding the most declared terms. Sentences in
    ``aside`` (by index) are never chosen.
    """
    aside = aside or {}
    if model is None:
        return _by_terms(criterion, found, aside)
    best: tuple[bool, float, int, Sentence] | None = None
    best_all: tuple[bool, float, int, int] | None = None
    for order, s in enumerate(found):
        read = parts[order] if parts else criterion_evidence.SentenceParts.of(s)
        p = model.probability(pair_features(s, criterion, read))
        if p < model.threshold and not criterion_evidence.labelled_for(s, criterion, read):
            continue
        complete = _complete(s, criterion)
        if best_all is None or (complete, p, -order) > best_all[:3]:
            best_all = (complete, p, -order, order)
        if order in aside:
            continue
        key = (complete, p, -order, s)
        if best is None or key[:3] > best[:3]:
            best = key
    return best[3] if best else None, _passed_over(best_all, aside)


def assess(
    review: ReviewCriteria,
    kind: str,
    sources: Sequence[SessionSource],
    also: Sequence[Criterion] = (),
) -> list[Check]:
    """Each criterion for ``kind`` (and ``also``), assessed on every sentence of every source."""
    criteria = tuple(dict.fromkeys((*review.for_kind(kind), *also)))
    return assess_sentences(review, criteria, sentences(sources), criterion_evidence.model())


def never_evidence(
    review: ReviewCriteria, criteria: Sequence[Criterion], found: Sequence[Sentence]
) -> dict[int, not_evidence.SetAside]:
    """The sentences of ``found`` (by index) no criterion reads: restatements are measured
    against every declared criterion and every one assessed."""
    return not_evidence.set_aside(found, tuple(dict.fromkeys((*review.criteria, *criteria))))


def assess_sentences(
    review: ReviewCriteria,
    criteria: Sequence[Criterion],
    found: Sequence[Sentence],
    model: criterion_evidence.EvidenceModel | None,
    aside: Mapping[int, not_evidence.SetAside] | None = None,
) -> list[Check]:
    """Each of ``criteria`` assessed on ``found``, the evidence read by ``model`` (None: terms).

    ``aside``: the sentences that are never evidence (``never_evidence``; worked out here when
    not given).
    """
    if aside is None:
        aside = never_evidence(review, criteria, found)
    checks = []
    parts = [criterion_evidence.SentenceParts.of(s) for s in found] if model is not None else []
    for criterion in criteria:
        contradiction, not_applied = _contradiction(review, criterion, found)
        if contradiction is not None:
            sentence, match = contradiction
            checks.append(
                Check(
                    criterion,
                    CONTRADICTED,
                    sentence,
                    match.prohibition,
                    reason=_with(_contradicted_reason(match), not_applied),
                    not_applied=not_applied,
                )
            )
            continue
        denial = _denial(criterion, found, aside)
        if denial is not None:
            sentence, words = denial
            reason = (
                f'the draft\'s sentence says "{words}": it does not have the '
                f"{criterion.name.lower()} the criterion asks for, so it cannot pass"
            )
            checks.append(
                Check(
                    criterion,
                    PARTIAL,
                    sentence,
                    reason=_with(reason, not_applied),
                    not_applied=not_applied,
                )
            )
            continue
        evidence, passed_over = _evidence(criterion, found, model, parts, aside)
        if evidence is None:
            reason = f"no sentence of the upload speaks to {criterion.name.lower()}"
            checks.append(
                Check(
                    criterion,
                    MISSING,
                    set_aside=passed_over,
                    reason=_with(reason, not_applied),
                    not_applied=not_applied,
                )
            )
            continue
        status = PRESENT if _complete(evidence, criterion) else PARTIAL
        reason = _evidenced_reason(review, criterion, evidence)
        checks.append(
            Check(
                criterion,
                status,
                evidence,
                set_aside=passed_over,
                reason=_with(reason, not_applied),
                not_applied=not_applied,
            )
        )
    return checks


def _contradiction(
    review: ReviewCriteria, criterion: Criterion, found: Sequence[Sentence]
) -> tuple[tuple[Sentence, rule_polarity.SignalMatch] | None, rule_polarity.Inapplicable | None]:
    """The first sentence that does what a prohibition of ``criterion`` forbids (with the words
    that show it), and the first rule whose words a sentence held about another subject."""
    not_applied = None
    for p in review.prohibitions_for(criterion.name):
        for s in found:
            match = rule_polarity.signal_match(s.text, p)
            if match is None:
                continue
            other = rule_polarity.inapplicable(match)
            if other is None:
                return (s, match), not_applied
            not_applied = not_applied or other
    return None, not_applied


def _denial(
    criterion: Criterion, found: Sequence[Sentence], aside: Mapping[int, not_evidence.SetAside]
) -> tuple[Sentence, str] | None:
    """The first sentence that says the draft lacks what the criterion is named for ("we are not
    setting kill criteria"), with the words that say it; never when the criterion's own expected
    evidence allows the thing to be absent ("confirmation that personal data is absent")."""
    if rule_polarity.denies(criterion.evidence_expected, criterion.name):
        return None
    for order, s in enumerate(found):
        if order in aside:
            continue
        words = rule_polarity.denies(s.text, criterion.name)
        if words:
            return s, words
    return None


_ELEMENT_WORDS = {
    "person": "a named person",
    "number": "a number",
    "amount": "an amount",
    "date": "a date",
    "confirmation": "a confirmation",
}


def _contradicted_reason(match: rule_polarity.SignalMatch) -> str:
    return (
        f"the draft's sentence {match.shown_by()}, so it does what the package rule forbids: "
        f'"{match.prohibition.rule}"'
    )


def _evidenced_reason(review: ReviewCriteria, criterion: Criterion, evidence: Sentence) -> str:
    name = criterion.name.lower()
    hedge = _HEDGE.search(evidence.text)
    if hedge:
        return f'the draft\'s sentence speaks to {name} but hedges ("{hedge.group(0)}")'
    if not _has_element(evidence, criterion):
        return f"the draft's sentence speaks to {name} but names no {criterion.requires}"
    element = f" with {_ELEMENT_WORDS[criterion.requires]}" if criterion.requires else ""
    rules = (
        "does nothing a package rule for it forbids"
        if review.prohibitions_for(criterion.name)
        else "the package states no prohibition for it"
    )
    return f"the draft's sentence speaks to {name}{element}, without a hedge, and {rules}"


def _with(reason: str, not_applied: rule_polarity.Inapplicable | None) -> str:
    return reason if not_applied is None else f"{reason}; {not_applied.reason()}"
