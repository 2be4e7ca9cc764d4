"""Remembered sentence analysis: same quotes as a fresh analysis, and only for package text."""

from __future__ import annotations

from assistant.domain import lanes
from assistant.domain.modes import Mode
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.package import sentences
from assistant.pipeline import citations
from assistant.providers.deterministic import DeterministicProvider
from core.text import content_stems


def test_shared_analysis_quotes_exactly_what_a_fresh_analysis_quotes(built_sample_pack):
    questions = ["who owns each stage gate?", "how do we roll back a release?", "token cost budget"]
    for row in built_sample_pack.rows:
        questions_here = [*questions, row.heading]
        for question in questions_here:
            terms = content_stems(question)
            for limit in (1, 2):
                fresh = sentences.best_sentences(row.text, terms, limit=limit)
                assert sentences.best_sentences(row.text, terms, limit=limit, shared=True) == fresh


def test_only_package_sources_are_remembered(built_sample_pack, monkeypatch):
    remembered: list[str] = []
    real = sentences._analysed_shared

    def recording(text: str):
        remembered.append(text)
        return real(text)

    monkeypatch.setattr(sentences, "_analysed_shared", recording)
    row = built_sample_pack.rows[0]
    current_text = (
        "A current public source sentence about stage gates and owners. Another one here."
    )
    request = ProviderRequest(
        mode=Mode.PACKAGE_CURRENT,
        question="who owns each stage gate?",
        lane_order=lanes.required_lanes(Mode.PACKAGE_CURRENT, with_uploads=False),
        package_refs=(citations.package_ref("P1", row),),
        current_refs=(SourceRef("C1", lanes.CURRENT_CITATION, "Public page", current_text),),
    )
    DeterministicProvider().complete(request)
    assert remembered == [row.text]
