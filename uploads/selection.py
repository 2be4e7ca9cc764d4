"""Which uploaded excerpts a run sends: relevant segments with anchors, after package grounding.

Package grounding has first claim on the context budget; uploaded excerpts get what is left (up
to their own cap). Sources that fit it go whole; larger ones give their most relevant segments,
scored by the question's terms and the terms of the package criteria sent, taken in turns so that
every selected source is represented. A source cut down, or kept in part at upload because the session's
character budget was reached, is reported as truncated; a source that gets no excerpt at all is
reported as refused for the run.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace

from core import tokens
from core.text import content_stems
from uploads.anchors import Anchor, Segment
from uploads.segments import table_header
from uploads.types import ExtractionRecord, SessionSource

CONTEXT_TOKEN_BUDGET = 7_000
UPLOADED_TOKEN_CAP = 5_000
MAX_EXCERPTS = 16
# What one excerpt costs in the prompt beside its text and its title: the source fence, the
# anchor, the record's fields and the authority note (measured at 56-58 tokens with the sample's
# note). The title is rendered twice (as the source's title and its display title).
REF_OVERHEAD_TOKENS = 60
PACKAGE_TERMS = 60
QUESTION_WEIGHT = 3
# Review vocabulary that every proposal and every criterion shares; it says nothing about fit.
GENERIC_STEMS = frozenset(
    content_stems(
        "review reviewer reviewers proposal proposals package playbook assistant check checks "
        "criterion criteria evidence expected typical include includes including section document "
        "draft upload uploaded source sources finding findings approve approved approval"
    )
)


@dataclass(frozen=True)
class Excerpt:
    """One uploaded segment chosen for a run, with the record it came from and its text's tokens."""

    record: ExtractionRecord
    text: str
    anchor: Anchor
    tokens: int
    position: int


@dataclass(frozen=True)
class UploadSelection:
    """The uploaded excerpts of one run and the counts its telemetry reports.

    ``selected_token_count`` counts the excerpts' own text; the run's
    ``uploaded_session_source_tokens`` counts the whole uploaded group as sent, labels included.
    """

    excerpts: tuple[Excerpt, ...] = ()
    selected_source_count: int = 0
    selected_token_count: int = 0
    truncated_source_count: int = 0
    refused_source_count: int = 0

    @property
    def cut(self) -> bool:
        """True when any source was truncated or left out, which the run must say."""
        return bool(self.truncated_source_count or self.refused_source_count)

    def telemetry(self) -> dict[str, int]:
        return {
            "selected_uploaded_source_count": self.selected_source_count,
            "selected_uploaded_source_token_count": self.selected_token_count,
            "truncated_uploaded_source_count": self.truncated_source_count,
            "refused_uploaded_source_count": self.refused_source_count,
        }


EMPTY_SELECTION = UploadSelection()


@dataclass(frozen=True)
class _Candidate:
    source_index: int
    position: int
    segment: Segment
    score: int
    tokens: int
    cost: int


def package_terms(package_text: str, limit: int = PACKAGE_TERMS) -> frozenset[str]:
    """The package excerpts' most frequent content stems, without generic review words."""
    counts = Counter(
        s for s in content_stems(package_text) if s not in GENERIC_STEMS and len(s) > 2
    )
    return frozenset(stem for stem, _ in counts.most_common(limit))


def select(
    *,
    sources: Sequence[SessionSource],
    question: str,
    package_text: str,
    package_tokens: int,
    budget: int = CONTEXT_TOKEN_BUDGET,
    cap: int = UPLOADED_TOKEN_CAP,
    max_excerpts: int = MAX_EXCERPTS,
    required: frozenset[tuple[int, int]] = frozenset(),
) -> UploadSelection:
    """Choose uploaded excerpts that fit what the package left of the budget.

    Sources that fit whole are sent whole. Otherwise at most ``max_excerpts`` segments are
    chosen, in turns by relevance, and a source sent in part is reported truncated.
    ``required`` (source index, segment position) pairs, such as the segments holding a review's
    evidence, go first, as far as the budget allows.
    """
    if not sources:
        return EMPTY_SELECTION
    available = max(0, min(cap, budget - package_tokens))
    q_terms = frozenset(content_stems(question)) - GENERIC_STEMS
    p_terms = package_terms(package_text)
    per_source: list[list[_Candidate]] = []
    for index, source in enumerate(sources):
        overhead = REF_OVERHEAD_TOKENS + 2 * tokens.count(source.record.display_title)
        cands = []
        for position, segment in enumerate(source.segments):
            stems = set(content_stems(segment.text))
            score = QUESTION_WEIGHT * len(q_terms & stems) + len(p_terms & stems)
            text_tokens = tokens.count(segment.text)
            cands.append(
                _Candidate(index, position, segment, score, text_tokens, text_tokens + overhead)
            )
        per_source.append(cands)

    everything = [c for cands in per_source for c in cands]
    if sum(c.cost for c in everything) <= available:
        # What fits the budget (each excerpt's overhead paid) goes whole: nothing is cut, so
        # nothing is reported truncated, however many paragraphs the sources have.
        chosen = everything
    else:
        chosen = _round_robin(per_source, available, max_excerpts, required)

    chosen.sort(key=lambda c: (c.source_index, c.position))
    excerpts = tuple(
        Excerpt(
            record=sources[c.source_index].record,
            text=c.segment.text,
            anchor=_anchor_with_column(sources[c.source_index], c.segment, q_terms | p_terms),
            tokens=c.tokens,
            position=c.position,
        )
        for c in chosen
    )
    picked = Counter(c.source_index for c in chosen)
    return UploadSelection(
        excerpts=excerpts,
        selected_source_count=len(picked),
        selected_token_count=sum(c.tokens for c in chosen),
        # A source kept in part at upload is sent in part, whatever was picked from it.
        truncated_source_count=sum(
            1
            for i, cands in enumerate(per_source)
            if picked.get(i, 0) and (picked[i] < len(cands) or sources[i].record.kept_in_part)
        ),
        refused_source_count=sum(1 for i in range(len(sources)) if picked.get(i, 0) == 0),
    )


def _round_robin(
    per_source: list[list[_Candidate]],
    available: int,
    max_excerpts: int,
    required: frozenset[tuple[int, int]] = frozenset(),
) -> list[_Candidate]:
    chosen: list[_Candidate] = []
    spent = 0
    for cands in per_source:
        for c in cands:
            if (
                (c.source_index, c.position) in required
                and len(chosen) < max_excerpts
                and (spent + c.cost <= available)
            ):
                chosen.append(c)
                spent += c.cost
    taken = {(c.source_index, c.position) for c in chosen}
    per_source = [
        [c for c in cands if (c.source_index, c.position) not in taken] for cands in per_source
    ]
    queues = []
    for cands in per_source:
        relevant = sorted((c for c in cands if c.score > 0), key=lambda c: (-c.score, c.position))
        # A source with no term in common still gets its opening, so it is quoted, not ignored.
        queues.append(relevant or cands[:2])
    progress = True
    while progress and len(chosen) < max_excerpts:
        progress = False
        for queue in queues:
            while queue and len(chosen) < max_excerpts:
                candidate = queue.pop(0)
                if spent + candidate.cost <= available:
                    chosen.append(candidate)
                    spent += candidate.cost
                    progress = True
                    break
    return chosen


def _anchor_with_column(source: SessionSource, segment: Segment, terms: frozenset[str]) -> Anchor:
    """For a table row, name the column whose cell shares the most terms with the run."""
    if source.record.file_type not in ("csv", "tsv") or segment.anchor.row_number is None:
        return segment.anchor
    lines = source.text.split("\n")
    index = segment.anchor.row_number - 1
    if index >= len(lines):
        return segment.anchor
    header = table_header(source.text)
    best, best_score = None, 0
    for column, cell in enumerate(lines[index].split("\t")):
        score = len(terms & set(content_stems(cell)))
        if score > best_score and column < len(header):
            best, best_score = header[column], score
    return replace(segment.anchor, column_name=best) if best else segment.anchor
