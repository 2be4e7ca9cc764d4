"""The embedded offline provider: quotes the best-matching sentences of the sources it is sent.

With uploaded session sources it adds the structured review lanes of the criteria review
(``assistant/review/criteria_lanes.py``): every package has criteria, declared or derived
(``assistant/package/checklist_criteria.py``), so there is one review engine.
"""

from __future__ import annotations

from assistant.compose import conflict
from assistant.compose.composer import Composer
from assistant.domain import lanes
from assistant.domain.lane_labels import neutralise
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.package.sentences import best_sentences
from assistant.providers.base import BaseProvider, ProviderResponse
from assistant.retrieval import question_memory, section_space
from assistant.retrieval.context_pack import get_context_pack
from assistant.retrieval.query import Query
from assistant.review import criteria_lanes
from assistant.review.upload_sentences import quotable

MAX_PACKAGE_REFS_QUOTED = 4


class DeterministicProvider(BaseProvider):
    """Extractive and deterministic: every sentence it writes is a quoted source sentence plus its id.

    It needs no network and gives the same answer for the same request, which makes it the
    embedded default and the reference for the answer gate.
    """

    name = "deterministic"

    @property
    def model(self) -> str:
        return "extractive-v1"

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        query = _query(request)
        terms = list(query.content_stems)
        out: dict[str, str] = {}
        out[lanes.PACKAGE_SAYS] = self._package_answer(request, query) or self._quote_refs(
            request.package_refs[:MAX_PACKAGE_REFS_QUOTED], terms
        )
        if lanes.CURRENT_SAYS in request.lane_order:
            out[lanes.CURRENT_SAYS] = (
                self._quote_refs(request.current_refs, terms, per_ref=1)
                if request.current_refs
                else lanes.CURRENT_NOT_RETRIEVED
            )
        if lanes.SYNTHESIS in request.lane_order:
            out[lanes.SYNTHESIS] = self._synthesis(request)
        if lanes.DIVERGENCE in request.lane_order:
            out[lanes.DIVERGENCE] = lanes.DIVERGENCE_FALLBACK
        if lanes.CURRENT_SAYS in request.lane_order and request.current_refs:
            clash = conflict.detect(request.package_refs, request.current_refs)
            if clash is not None:
                out = self._with_conflict(out, clash)
        if request.uploaded_refs and request.criteria:
            out[lanes.UPLOADED_SAYS] = criteria_lanes.uploaded_lane(request, request.criteria)
            out[lanes.ASSESSMENT] = criteria_lanes.assessment_lane(request, request.criteria)
            out[lanes.MISSING_EVIDENCE] = criteria_lanes.missing_lane(request, request.criteria)
        text = "\n\n".join(f"{label}\n{out[label]}" for label in request.lane_order if label in out)
        return ProviderResponse(text=text, model=self.model)

    @staticmethod
    def _package_answer(request: ProviderRequest, query: Query) -> str:
        """The composed answer (assistant/compose/composer.py), weighted by the package's own term IDF."""
        index = get_context_pack().index
        return Composer(
            query,
            index.expansion,
            index.idf,
            section_space.for_index(index),
            question_memory.for_index(index).votes(query),
        ).compose(request.package_refs)

    @staticmethod
    def _quote_refs(refs: tuple[SourceRef, ...], terms: list[str], per_ref: int = 2) -> str:
        paragraphs = []
        for i, ref in enumerate(refs):
            limit = per_ref if i == 0 else 1
            shared = ref.citation_class == lanes.PACKAGE_CITATION
            uploaded = ref.citation_class == lanes.UPLOADED_CITATION
            quoted = best_sentences(
                ref.text, terms, limit=limit, shared=shared, split=quotable if uploaded else None
            )
            if quoted:
                paragraphs.append(" ".join(f"{neutralise(s)} [{ref.citation_id}]" for s in quoted))
        return "\n\n".join(paragraphs)

    @staticmethod
    def _with_conflict(out: dict[str, str], found: conflict.Conflict) -> dict[str, str]:
        """The seed's conflict shape: both claims quoted in their lanes, then conflict and decision."""
        out = dict(out)
        for label, sentence, cid in (
            (lanes.PACKAGE_SAYS, found.package_sentence, found.package_id),
            (lanes.CURRENT_SAYS, found.current_sentence, found.current_id),
        ):
            if sentence not in out[label]:
                out[label] = f"{neutralise(sentence)} [{cid}]\n\n{out[label]}".strip()
        out[lanes.SYNTHESIS] = conflict.synthesis_text(found)
        out[lanes.DIVERGENCE] = conflict.divergence_text(found)
        return out

    @staticmethod
    def _synthesis(request: ProviderRequest) -> str:
        p = request.package_refs[0].citation_id
        if request.current_refs:
            c = request.current_refs[0].citation_id
            return (
                f"The approved package guidance [{p}] remains the source of record for this "
                f"question; the current/public source [{c}] is context to compare against it and "
                f"does not change package authority. This is an implication of the cited lanes, "
                f"not source evidence."
            )
        return (
            f"Only approved package guidance [{p}] supports this answer; no current/public source "
            f"was retrieved to compare it with. This is an implication of the cited lanes, not "
            f"source evidence."
        )


def _query(request: ProviderRequest) -> Query:
    """The question as the pipeline analysed it; a request built from text alone (tests, the
    learning side), or whose question was replaced after, is analysed here, once per answer."""
    query = request.query
    return (
        query if query is not None and query.text == request.question else Query(request.question)
    )
