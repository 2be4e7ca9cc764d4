"""The criteria-driven review: each declared criterion for the draft's kind, assessed on the whole upload.

The package declares its criteria and prohibitions (``assistant/criteria.py``). A review picks
the criteria for the draft's kind (asked in the question, else read from the upload's title and
opening), reads every sentence of every uploaded source (headings, table rows and fragments are
never evidence) and gives each criterion one status:

- **contradicted** (a blocker): a sentence shows something a package prohibition forbids; both
  the uploaded sentence and the package rule are quoted;
- **present**: a sentence holds one of the criterion's key terms and its required element (a
  named person, a number, an amount, a date, a confirmation), with no hedge ("to be confirmed");
- **partial**: the best sentence holds a key term but lacks the element, or hedges;
- **missing**: no sentence of the whole upload holds any key term;
- **not covered**: an aspect the question asks to have checked that falls under no declared
  criterion (``assistant/review_aspects.py``); the package's own "not covered" row is cited.

An aspect the question names that falls under a criterion declared for another draft kind is
assessed as that criterion too, as the question asks.

Matching is on stemmed phrases, never on single shared words of the question. Uploaded sentences
are quoted verbatim (whitespace collapsed), one per finding.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from assistant import review_aspects
from assistant.criteria import Criterion, Prohibition, ReviewCriteria
from assistant.expansion import Expansion
from assistant.types import PackageRow, StructuredReview
from assistant.upload_sentences import Sentence, sentences
from core.text import stems
from uploads.types import SessionSource

PRESENT, PARTIAL, MISSING, CONTRADICTED = "present", "partial", "missing", "contradicted"
NOT_COVERED = "not_covered"
FINDING_LABEL = {
    PRESENT: "pass",
    PARTIAL: "concern",
    MISSING: "missing evidence",
    CONTRADICTED: "blocker",
    NOT_COVERED: "not covered",
}
NEGATION_WINDOW = 6
_NEGATIONS = frozenset(
    {"no", "not", "never", "without", "none", "nobody", "neither", "nor", "t", "cannot", "skip"}
)
# Words that deny what follows; a signal without a "not" part never fires on a denied phrase.
_DENIALS = _NEGATIONS | {"exclud", "drop", "drops", "strip", "remov"}
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
_KIND_RULES = (
    (
        "architecture_proposal",
        re.compile(r"\barchitecture\b|\bsolution design\b|\bdesign proposal\b", re.I),
    ),
    (
        "poc_proposal",
        re.compile(
            r"\bproof[- ]of[- ]concept proposal\b|\bpoc proposal\b|\bproposal for a proof of concept\b",
            re.I,
        ),
    ),
    ("prd", re.compile(r"\bprd\b|\bproduct requirements?\b|\brequirements document\b", re.I)),
)
OPENING_CHARS = 600


@dataclass(frozen=True)
class Check:
    """One criterion's status, with the sentence (and package rule) it rests on."""

    criterion: Criterion
    status: str
    evidence: Sentence | None = None
    prohibition: Prohibition | None = None
    evidence_id: str = ""
    pid: str = ""
    rule_pid: str = ""


def draft_kind(question: str, sources: Sequence[SessionSource]) -> str:
    """The draft kind the question names, else the one the uploads' titles and openings name."""
    for kind, pattern in _KIND_RULES:
        if pattern.search(question):
            return kind
    for text in (
        " ".join(s.record.display_title for s in sources),
        " ".join(s.text[:OPENING_CHARS] for s in sources),
    ):
        for kind, pattern in _KIND_RULES:
            if pattern.search(text):
                return kind
    return "poc_proposal"


def _positions(seq: tuple[str, ...], phrase: tuple[str, ...]) -> list[int]:
    n = len(phrase)
    return [i for i in range(len(seq) - n + 1) if seq[i : i + n] == phrase] if n else []


def _negated(seq: tuple[str, ...], at: int) -> bool:
    return any(w in _NEGATIONS for w in seq[max(0, at - NEGATION_WINDOW) : at])


def _phrase(text: str) -> tuple[str, ...]:
    return tuple(stems(text))


def _part_matches(seq: tuple[str, ...], alternatives: tuple[str, ...]) -> bool:
    for alternative in alternatives:
        negative = alternative.startswith("not ")
        phrase = _phrase(alternative[4:] if negative else alternative)
        for at in _positions(seq, phrase):
            if _negated(seq, at) == negative:
                return True
    return False


def signal_matches(sentence: Sentence, prohibition: Prohibition) -> bool:
    for signal in prohibition.signals:
        negative = any(a.startswith("not ") for part in signal for a in part)
        if not negative and _DENIALS & set(sentence.stems):
            continue
        if all(_part_matches(sentence.stems, part) for part in signal):
            return True
    return False


def _term_score(sentence: Sentence, criterion: Criterion) -> int:
    score = 0
    for term in criterion.terms:
        phrase = _phrase(term)
        if _positions(sentence.stems, phrase):
            score += 2 if len(phrase) > 1 else 1
    if criterion.requires == "amount" and _ELEMENT["amount"].search(sentence.text):
        score += 1  # a sum of money is itself evidence of a cost figure
    return score


def assess(
    review: ReviewCriteria,
    kind: str,
    sources: Sequence[SessionSource],
    also: Sequence[Criterion] = (),
) -> list[Check]:
    """Each criterion for ``kind`` (and ``also``), assessed on every sentence of every source."""
    found = sentences(sources)
    checks = []
    for criterion in dict.fromkeys((*review.for_kind(kind), *also)):
        contradiction = next(
            (
                (s, p)
                for p in review.prohibitions_for(criterion.name)
                for s in found
                if signal_matches(s, p)
            ),
            None,
        )
        if contradiction is not None:
            checks.append(Check(criterion, CONTRADICTED, contradiction[0], contradiction[1]))
            continue
        best: tuple[int, int, Sentence] | None = None
        for order, s in enumerate(found):
            terms = _term_score(s, criterion)
            if not terms:
                continue
            has_element = not criterion.requires or bool(
                _ELEMENT[criterion.requires].search(s.text)
            )
            hedged = bool(_HEDGE.search(s.text))
            score = terms + (3 if has_element else 0) - (3 if hedged else 0)
            if best is None or score > best[0]:
                best = (score, -order, s)
        if best is None:
            checks.append(Check(criterion, MISSING))
            continue
        s = best[2]
        complete = (
            not criterion.requires or _ELEMENT[criterion.requires].search(s.text)
        ) and not _HEDGE.search(s.text)
        checks.append(Check(criterion, PRESENT if complete else PARTIAL, s))
    return checks


def with_ids(checks: list[Check], ids: dict[tuple[int, int], str]) -> list[Check]:
    """Each check's evidence tied to the U id of the excerpt that carries it, when one was sent."""
    return [
        replace(c, evidence_id=ids.get((c.evidence.source_index, c.evidence.position), ""))
        if c.evidence
        else c
        for c in checks
    ]


@dataclass(frozen=True)
class Plan:
    """What a review adds to a run: the draft kind, the checks and the package rows they cite."""

    kind: str
    checks: tuple[Check, ...]
    row_ids: tuple[str, ...]

    @property
    def evidence_positions(self) -> frozenset[tuple[int, int]]:
        return frozenset(
            (c.evidence.source_index, c.evidence.position) for c in self.checks if c.evidence
        )


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
    checks = tuple(assess(review, kind, sources, also=wanted))
    if not checks:
        return None
    checks += tuple(Check(c, NOT_COVERED) for c in uncovered)
    row_ids = tuple(
        dict.fromkeys(
            [c.criterion.row_id for c in checks]
            + [c.prohibition.row_id for c in checks if c.prohibition]
        )
    )
    return Plan(kind, checks, row_ids)


def tie(
    plan_: Plan, *, package_ids: dict[str, str], upload_ids: dict[tuple[int, int], str]
) -> tuple[Check, ...]:
    """The checks with the P ids of their package rows and the U ids of their evidence."""
    out = []
    for c in with_ids(list(plan_.checks), upload_ids):
        out.append(
            replace(
                c,
                pid=package_ids.get(c.criterion.row_id, ""),
                rule_pid=package_ids.get(c.prohibition.row_id, "") if c.prohibition else "",
            )
        )
    return tuple(out)


def _flat(text: str) -> str:
    return " ".join(text.split()).casefold()


def quoted_where_sent(checks: Sequence[Check], excerpts: dict[str, str]) -> tuple[Check, ...]:
    """Each check's evidence cited by the excerpt that holds its sentence, verbatim.

    The review reads every sentence of the upload, but only some excerpts are sent: a quote is
    cited by an excerpt that contains it, or by none (the finding then says the evidence lies
    outside the excerpts sent), never by an excerpt that does not.
    """
    flat_excerpts = {cid: _flat(text) for cid, text in excerpts.items()}
    out = []
    for c in checks:
        if c.evidence is None:
            out.append(c)
            continue
        sentence = _flat(c.evidence.text)
        holders = [cid for cid, text in flat_excerpts.items() if sentence in text]
        if c.evidence_id in holders:
            out.append(c)
        else:
            out.append(replace(c, evidence_id=holders[0] if holders else ""))
    return tuple(out)


def criteria_group(checks: Sequence[Check]) -> str:
    """The criteria list a provider is sent: one line per criterion, with its package id."""
    lines = ["<<<GROUP review criteria | Criteria the findings must name, one finding each"]
    for c in checks:
        if c.status == NOT_COVERED:
            lines.append(
                f"- not covered: {c.criterion.name} [{c.pid}]: the package declares no criterion "
                f"for it; {c.criterion.confirmed_by}"
            )
            continue
        lines.append(
            f"- {c.criterion.name} [{c.pid}]: evidence expected: {c.criterion.evidence_expected}; "
            f"confirmed by: {c.criterion.confirmed_by}"
        )
    lines.append(">>>END GROUP review criteria")
    return "\n".join(lines) + "\n"


_FINDING_LINE = re.compile(
    r"^\s*-\s*(?P<label>pass|concern|blocker|missing evidence|not covered)\s*:\s*(?P<name>[^\[—:]+?)\s*(?:\[|—|:|$)",
    re.I | re.M,
)


def unknown_criteria(assessment: str, checks: Sequence[Check]) -> list[str]:
    """Names that findings in an assessment lane give but that are not among the criteria sent."""
    sent = {c.criterion.name.lower() for c in checks}
    return [
        m.group("name")
        for m in _FINDING_LINE.finditer(assessment)
        if m.group("label").lower() != "not covered" and m.group("name").strip().lower() not in sent
    ]


def _package_ref(
    row_id: str, pid: str, row_of: Callable[[str], PackageRow | None]
) -> dict[str, str]:
    row = row_of(row_id)
    return {
        "citation_id": pid,
        "row_id": row_id,
        "title": f"{row.title} — {row.heading}" if row else "",
        "reader_target": row.reader_target if row else "",
    }


def findings(
    kind: str,
    checks: Sequence[Check],
    sources: Sequence[SessionSource],
    row_of: Callable[[str], PackageRow | None],
) -> StructuredReview:
    """The review as the run carries it: per criterion, its status, draft evidence and package row.

    ``row_of`` finds a package row by id (``ContextPack.row``). The evidence is the verbatim
    uploaded sentence with its location (page or line) and the U id of the excerpt that holds it,
    empty when it lies outside the excerpts sent.
    """
    out: list[dict[str, Any]] = []
    for c in checks:
        evidence = None
        if c.evidence is not None:
            record = sources[c.evidence.source_index].record
            evidence = {
                "text": c.evidence.text,
                "location": c.evidence.anchor,
                "citation_id": c.evidence_id,
                "session_source_id": record.session_source_id,
                "display_title": record.display_title,
            }
        rule = None
        if c.prohibition is not None:
            rule = {
                "text": c.prohibition.rule,
                **_package_ref(c.prohibition.row_id, c.rule_pid or c.pid, row_of),
            }
        out.append(
            {
                "criterion": c.criterion.name,
                "status": c.status,
                "finding_label": FINDING_LABEL[c.status],
                "evidence_expected": c.criterion.evidence_expected,
                "confirmed_by": c.criterion.confirmed_by,
                "evidence": evidence,
                "package": _package_ref(c.criterion.row_id, c.pid, row_of),
                "rule": rule,
            }
        )
    return StructuredReview(draft_kind=kind, criteria=tuple(out))
