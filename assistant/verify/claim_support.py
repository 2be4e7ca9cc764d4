"""Claim support: each claim of an answer scored against the text of the sources it cites.

Claims and the facts they carry come from ``assistant.verify.claims``. A claim's support score, in
[0, 1], is

    coverage x 0.5 ** (number of meaning-changing disagreements)

where *coverage* is the share of the claim's content words (stemmed, glossary synonyms folded
together) found in the best-matching sentences of the cited sources (at most three, chosen
greedily: the *aligned* sentences), and a *disagreement* is a kind of element that changes meaning
and must agree exactly: numbers and percentages, durations and frequencies, named roles and
owners, capitalised names (products, organisations, months), negation, and modal strength
(must / should / may / must not). So one disagreement halves the score: with the default
threshold no claim with a changed number, owner, modal or flipped negation passes.

Every lane kind has a rule (``LANE_RULES`` in docs/source-boundaries.md):

- source lanes (Package says, Current/public source says, Uploaded session source says): every
  claim cites, or inherits, and is supported;
- Synthesis, Assessment and Divergence: a claim about the sources is checked the same way; an
  explicitly labelled implication needs a citation somewhere in its paragraph and may not bring
  in a number, name, role or quotation that no source sent contains;
- Missing evidence / owner decision needed: each item cites a source or names a role the
  package sources sent name, under the same no-new-elements check;
- the exact no-divergence and not-retrieved sentences are always allowed.

Deterministic: no model, no network. This module holds the decision (the score, the rule per
lane kind); the text analysis is ``assistant.verify.claim_analysis``, the alignment and the exact
checks ``assistant.verify.claim_matching``.
"""

from __future__ import annotations

from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Any

from assistant.domain import lanes
from assistant.domain.prompt import ProviderRequest
from assistant.domain.types import Lane
from assistant.package.expansion import Expansion
from assistant.verify import claim_matching as matching
from assistant.verify.claim_analysis import Analyzer, SourceText, analyzer_for, whole_sentence
from assistant.verify.claims import (
    Claim,
    durations,
    lane_claims,
    modals,
    numbers,
    numbers_counted,
    roles,
)

DEFAULT_THRESHOLD = 0.85

SOURCE, IMPLICATION, OWNER, FIXED = "source", "implication", "owner", "fixed"
SOURCE_LANES = (lanes.PACKAGE_SAYS, lanes.CURRENT_SAYS, lanes.UPLOADED_SAYS)

# Reasons a claim falls short; a diagnostic names these, never the claim's text.
UNCITED = "no citation"
COVERAGE = "content not found in the cited sources"
NUMBER, DURATION, ROLE, ENTITY = "number", "duration or frequency", "role or owner", "name"
NEGATION, MODAL, QUOTE = "negation", "modal strength", "quotation"


@dataclass(frozen=True)
class ClaimScore:
    """A claim's support: score, the kind of rule applied, the sources that support it, why not."""

    lane: str
    position: int
    kind: str
    score: float
    supported: bool
    source_ids: tuple[str, ...] = ()
    reasons: tuple[str, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "lane": self.lane,
            "position": self.position,
            "kind": self.kind,
            "score": round(self.score, 3),
            "supported": self.supported,
            "source_ids": list(self.source_ids),
            "reasons": list(self.reasons),
        }


@dataclass(frozen=True)
class SupportReport:
    """Every claim's score and the answer's overall score (the mean; 1.0 with no claims)."""

    claims: tuple[ClaimScore, ...]
    threshold: float

    @property
    def score(self) -> float:
        if not self.claims:
            return 1.0
        return round(sum(c.score for c in self.claims) / len(self.claims), 3)

    @property
    def unsupported(self) -> tuple[ClaimScore, ...]:
        return tuple(c for c in self.claims if not c.supported)

    @property
    def ok(self) -> bool:
        return not self.unsupported


def score_source_claim(
    claim: Claim,
    sources: Sequence[SourceText],
    analyzer: Analyzer,
    threshold: float,
    page_joins: frozenset[tuple[str, str]] = frozenset(),
) -> ClaimScore:
    """A claim about the sources it cites: coverage and exact agreement on what changes meaning.

    ``page_joins``: the excerpt id pairs a quoted sentence may run across (a PDF page break).
    """
    if not sources:
        return ClaimScore(claim.lane, claim.position, SOURCE, 0.0, False, (), (UNCITED,))
    body = claim.body
    if matching.is_attributed_quote(body, sources, page_joins):
        ids = tuple(src.citation_id for src in sources)
        return ClaimScore(claim.lane, claim.position, SOURCE, 1.0, True, ids)
    sentence = whole_sentence(body)
    quoting = tuple(src.citation_id for src in sources if sentence in src.sentence_flats)
    if sentence and quoting:
        # One whole sentence of a cited source, word for word: supported by what it quotes,
        # whatever it holds (markup, header names, code). A fragment is not one: "use
        # production data" out of "Do not use production data" is judged as any claim.
        return ClaimScore(claim.lane, claim.position, SOURCE, 1.0, True, quoting)
    terms = analyzer.terms(body)
    alternatives = analyzer.claim_alternatives(body)
    pool = [s for src in sources for s in src.sentences]
    headers = [src.header for src in sources]
    # Align on the claim's ordinary words, so that a changed number or role cannot pull in
    # another sentence that happens to contain it; then measure coverage on every word.
    critical = matching.critical_stems(body)
    aligned, _ = matching.align(
        [t for t in terms if t not in critical] or terms, alternatives, pool, ties=terms
    )
    context = [*aligned, *headers]
    coverage = matching.covered_share(terms, alternatives, context)
    reasons = []
    if coverage < threshold:
        reasons.append(COVERAGE)
    if matching.exceeds(numbers_counted(body), (s.numbers for s in context)):
        reasons.append(NUMBER)
    if durations(body) - set().union(*(s.durations for s in context)):
        reasons.append(DURATION)
    context_roles = set().union(*(s.roles for s in context))
    if any(not analyzer.same_phrase(r, context_roles) for r in roles(body)):
        reasons.append(ROLE)
    if matching.missing_entities(body, analyzer, sources):
        reasons.append(ENTITY)
    if matching.negation_differs(body, aligned, pool):
        reasons.append(NEGATION)
    if matching.exceeds(modals(body), (s.modals for s in aligned)):
        reasons.append(MODAL)
    if matching.bad_quotes(body, sources):
        reasons.append(QUOTE)
    disagreements = len([r for r in reasons if r != COVERAGE])
    score = coverage * 0.5**disagreements
    by_id = {id(s): src.citation_id for src in sources for s in src.sentences}
    support_ids = tuple(dict.fromkeys(by_id[id(s)] for s in aligned if id(s) in by_id))
    return ClaimScore(
        claim.lane, claim.position, SOURCE, score, score >= threshold, support_ids, tuple(reasons)
    )


def score_bounded_claim(
    claim: Claim,
    kind: str,
    sent: Sequence[SourceText],
    package_roles: set[str],
    analyzer: Analyzer,
    threshold: float,
) -> ClaimScore:
    """An implication or owner item: cited (or, for an owner item, naming a package role) and
    bringing in no number, name, role or quotation that the sources sent do not contain."""
    body = claim.body
    reasons = []
    named = roles(body)
    if not claim.ids and not (
        kind == OWNER and any(analyzer.same_phrase(r, package_roles) for r in named)
    ):
        reasons.append(UNCITED)
    everything = [*(s for src in sent for s in src.sentences), *(src.header for src in sent)]
    if numbers(body) - set().union(*(set(s.numbers) for s in everything)):
        reasons.append(NUMBER)
    if durations(body) - set().union(*(s.durations for s in everything)):
        reasons.append(DURATION)
    sent_roles = set().union(*(s.roles for s in everything))
    if any(not analyzer.same_phrase(r, sent_roles) for r in named):
        reasons.append(ROLE)
    if matching.missing_entities(body, analyzer, sent):
        reasons.append(ENTITY)
    if matching.bad_quotes(body, sent):
        reasons.append(QUOTE)
    score = 0.0 if UNCITED in reasons else 0.5 ** len(reasons)
    return ClaimScore(
        claim.lane,
        claim.position,
        kind,
        score,
        score >= threshold,
        tuple(claim.ids),
        tuple(reasons),
    )


def check(
    answer_lanes: Sequence[Lane],
    request: ProviderRequest,
    *,
    expansion: Expansion,
    vocabulary: Container[str] = (),
    threshold: float = DEFAULT_THRESHOLD,
) -> SupportReport:
    """Score every claim of verified lanes against the sources sent; the rule depends on the lane."""
    analyzer = analyzer_for(expansion, vocabulary)
    sent = {ref.citation_id: SourceText.of(ref, analyzer) for ref in request.all_refs()}
    package_roles = set().union(set(), *(roles(ref.text) for ref in request.package_refs))
    page_joins = request.page_joins
    scores: list[ClaimScore] = []
    for lane in answer_lanes:
        claims = lane_claims(lane)
        if not claims:
            scores.append(ClaimScore(lane.label, 0, FIXED, 1.0, True))
            continue
        for claim in claims:
            if lane.label == lanes.MISSING_EVIDENCE:
                scores.append(
                    score_bounded_claim(
                        claim, OWNER, list(sent.values()), package_roles, analyzer, threshold
                    )
                )
            elif claim.implication and lane.label not in SOURCE_LANES:
                scores.append(
                    score_bounded_claim(
                        claim, IMPLICATION, list(sent.values()), package_roles, analyzer, threshold
                    )
                )
            else:
                cited = [sent[cid] for cid in claim.ids if cid in sent]
                scores.append(score_source_claim(claim, cited, analyzer, threshold, page_joins))
    return SupportReport(tuple(scores), threshold)
