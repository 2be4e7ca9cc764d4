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

The findings, tied to their citations and rendered, are ``assistant/review/findings.py``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from assistant.package.criteria import Criterion, ReviewCriteria
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
from assistant.review.upload_sentences import sentences
from core.text import stems
from uploads.types import SessionSource


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


def _review_words(review: ReviewCriteria) -> frozenset[str]:
    """The stems of the package's own checklist names: they name the review, not an aspect."""
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
) -> Plan | None:
    """The review for these sources, or None when the package declares no criteria for the kind.

    ``expansion`` (the package's glossary synonyms) helps match the aspects a question names to
    the declared criteria.
    """
    if not sources:
        return None
    kind = draft_kind(question, sources)
    wanted, uncovered = asked(question, kind, review, expansion)
    criteria = tuple(dict.fromkeys((*review.for_kind(kind), *wanted)))
    if not criteria:
        return None
    found = sentences(sources)
    aside = never_evidence(review, criteria, found)
    checks = tuple(assess_sentences(review, criteria, found, criterion_evidence.model(), aside))
    checks += tuple(Check(c, NOT_COVERED) for c in uncovered)
    row_ids = tuple(
        dict.fromkeys(
            [c.criterion.row_id for c in checks]
            + [c.prohibition.row_id for c in checks if c.prohibition]
        )
    )
    return Plan(kind, checks, row_ids, tuple(aside[i] for i in sorted(aside)))
