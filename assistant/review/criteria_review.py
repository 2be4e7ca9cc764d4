"""Planning a criteria review: the draft kind, the criteria asked for, their checks and the rows they cite.

The package declares its criteria and prohibitions (``assistant/package/criteria.py``). A review picks
the criteria for the draft's kind (asked in the question, else read from the upload's title and
opening: ``assistant/review/draft_kinds.py``), reads every sentence of every uploaded source (headings, table rows and fragments are
never evidence) and gives each criterion one status:

- **present**, **partial**, **missing** or **contradicted**, each criterion assessed on every
  sentence (``assistant/review/criterion_assessment.py``, sentences from ``assistant/review/upload_sentences.py``);
- a sentence that is never evidence (an instruction to the reviewer, a claimed approval, a
  restated criterion: ``assistant/review/not_evidence.py``) is reported, never read as evidence;
- **not covered**: an aspect the question asks to have checked that falls under no declared
  criterion (``assistant/review/aspects.py``); the package's own "not covered" row is cited.

An aspect the question names that falls under a criterion declared for another draft kind is
assessed as that criterion too, as the question asks.

Criteria derived from a package's rule sentences (``assistant/package/rule_criteria.py``) are one
per rule-bearing section of a whole playbook: a review checks the few the draft and question speak
to (at most ``MAX_RULE_CHECKS``, picked by ``spoken_to``), so that it reads as one review and
cites a few sections, not every rule of the package.

The findings, tied to their citations and rendered, are ``assistant/review/findings.py``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from assistant.package.criteria import RULES_BASIS, Criterion, ReviewCriteria
from assistant.package.expansion import Expansion
from assistant.review import aspects as review_aspects
from assistant.review import criterion_evidence
from assistant.review.criterion_assessment import (
    NOT_COVERED,
    Check,
    assess_sentences,
    never_evidence,
)
from assistant.review.draft_kinds import draft_kind
from assistant.review.not_evidence import SetAside
from assistant.review.upload_sentences import Sentence, sentences
from core.text import content_stems, stems
from uploads.types import SessionSource

#: Why an asked aspect is not covered, as its check says.
NOT_COVERED_REASON = (
    "the package declares no criterion for this aspect, so no draft sentence can pass or fail it"
)


@dataclass(frozen=True)
class Plan:
    """What a review adds to a run: the draft kind, the checks and the package rows they cite."""

    kind: str
    checks: tuple[Check, ...]
    row_ids: tuple[str, ...]
    #: Every draft sentence that is never evidence (``assistant/review/not_evidence.py``), in
    #: draft order: the review reports each one.
    set_aside: tuple[SetAside, ...] = ()

    @property
    def evidence_positions(self) -> frozenset[tuple[int, int]]:
        positions = set()
        for c in self.checks:
            if c.evidence is not None:
                positions.add((c.evidence.source_index, c.evidence.position))
                if c.evidence.continued is not None:
                    positions.add((c.evidence.source_index, c.evidence.continued))
        return frozenset(positions)


#: The rule criteria one review checks (see the module docstring).
MAX_RULE_CHECKS = 8
#: The tokens the sections of the rule criteria checked may take together: each criterion's
#: section is sent to the provider, and the uploaded excerpts get what the package leaves of
#: ``uploads/selection.py``'s context budget (7,000): a review must keep room for the draft.
RULE_ROWS_TOKENS = 3_000
#: The words of a review request itself, which name no topic of the package.
_REQUEST_WORDS = frozenset(
    content_stems(
        "review reviewing check checking assess draft proposal document upload against guidance"
    )
)


def _review_words(review: ReviewCriteria) -> frozenset[str]:
    """The stems of the package's own checklist names: they name the review, not an aspect.

    Rule criteria cite the sections of a whole playbook, whose headings name topics a question
    may ask about, not the review: none of their words is set aside.
    """
    if review.basis == RULES_BASIS:
        return frozenset()
    return frozenset(
        s for c in review.criteria for s in stems(c.row_id.split("#", 1)[-1].replace("-", " "))
    )


def asked(
    question: str, kind: str, review: ReviewCriteria, expansion: Expansion | None = None
) -> tuple[list[Criterion], list[Criterion]]:
    """The declared criteria the question asks for, and its aspects no criterion covers.

    An uncovered aspect becomes a criterion-shaped record naming the aspect as asked, citing the
    package's "not covered" row and its next step; none when the package declares no such row.
    """
    ordered = list(dict.fromkeys((*review.for_kind(kind), *review.criteria)))
    wanted: list[Criterion] = []
    uncovered: list[Criterion] = []
    for aspect in review_aspects.asked_aspects(question, _review_words(review)):
        criterion = review_aspects.criterion_for(aspect, ordered, expansion)
        if criterion is not None:
            wanted.append(criterion)
        elif review.not_covered is not None:
            rule = review.not_covered
            uncovered.append(
                Criterion(
                    name=aspect.text,
                    evidence_expected=rule.meaning,
                    confirmed_by=rule.next_step,
                    applies_to=(),
                    terms=(),
                    requires="",
                    row_id=rule.row_id,
                )
            )
    return wanted, uncovered


def plan(
    question: str,
    sources: Sequence[SessionSource],
    review: ReviewCriteria,
    expansion: Expansion | None = None,
    idf: Callable[[str], float | None] | None = None,
    row_tokens: Callable[[str], int] | None = None,
) -> Plan | None:
    """The review for these sources, or None when the package declares no criteria for the kind.

    ``expansion`` (the package's glossary synonyms) helps match the aspects a question names to
    the declared criteria; ``idf`` (the index's) weighs the words that pick the rule criteria a
    draft speaks to, and ``row_tokens`` (a row id's size in tokens) keeps their sections within
    ``RULE_ROWS_TOKENS``.
    """
    if not sources:
        return None
    kind = draft_kind(question, sources)
    wanted, uncovered = asked(question, kind, review, expansion)
    found = sentences(sources)
    candidates = review.for_kind(kind)
    if review.basis == RULES_BASIS:
        candidates = spoken_to(candidates, question, found, idf, row_tokens)
    criteria = tuple(dict.fromkeys((*candidates, *wanted)))
    if not criteria:
        return None
    aside = never_evidence(review, criteria, found)
    checks = tuple(assess_sentences(review, criteria, found, criterion_evidence.model(), aside))
    checks += tuple(Check(c, NOT_COVERED, reason=NOT_COVERED_REASON) for c in uncovered)
    row_ids = tuple(
        dict.fromkeys(
            [c.criterion.row_id for c in checks]
            + [c.prohibition.row_id for c in checks if c.prohibition]
        )
    )
    return Plan(kind, checks, row_ids, tuple(aside[i] for i in sorted(aside)))


def spoken_to(
    criteria: Sequence[Criterion],
    question: str,
    found: Sequence[Sentence],
    idf: Callable[[str], float | None] | None = None,
    row_tokens: Callable[[str], int] | None = None,
) -> tuple[Criterion, ...]:
    """The criteria the question and the draft speak to most, in package order: at most
    ``MAX_RULE_CHECKS``, their sections within ``RULE_ROWS_TOKENS`` (the best one always).

    A criterion's topic (its name and its artifact's topic) named by the question or a draft
    heading counts twice; any word of the criterion (name, key phrases, rules) in the draft or
    question once; each word weighted by how rare it is in the package (``idf``, the index's), so
    that words every section uses ("team", "data") decide little. The words of the review request
    itself ("review this draft against ...") are not a topic. When nothing is shared, the first
    criteria are checked, and every one of them then reads as missing, as it should.
    """
    weight = idf or (lambda _: 1.0)
    named = {w for w in content_stems(question) if w not in _REQUEST_WORDS}
    said = set(named)
    for sentence in found:
        named.update(content_stems(sentence.heading))
        said.update(sentence.stems)
        said.update(content_stems(sentence.heading))

    def score(c: Criterion) -> float:
        topic = set(content_stems(f"{c.name} {c.row_id.split('#', 1)[0].replace('-', ' ')}"))
        words = {w for text in (c.name, *c.terms, c.evidence_expected) for w in content_stems(text)}
        return 2 * sum(weight(w) or 0.0 for w in topic & named) + sum(
            weight(w) or 0.0 for w in words & said
        )

    scores = [score(c) for c in criteria]
    picked: list[int] = []
    spent: dict[str, int] = {}
    for i in sorted(range(len(criteria)), key=lambda i: (-scores[i], i)):
        if len(picked) == MAX_RULE_CHECKS:
            break
        row_id = criteria[i].row_id
        cost = 0 if row_id in spent or row_tokens is None else row_tokens(row_id)
        if picked and sum(spent.values()) + cost > RULE_ROWS_TOKENS:
            continue
        picked.append(i)
        spent.setdefault(row_id, cost)
    return tuple(criteria[i] for i in sorted(picked))
