"""Retrieval: field weighting, glossary expansion, support decisions and index persistence."""

from __future__ import annotations

from pathlib import Path

from assistant.package.artifacts import load_package
from assistant.retrieval import context_pack
from assistant.retrieval.index import Index
from core.text import content_stems
from tests.conftest import write_artifact


def _pack(tmp_path: Path) -> context_pack.ContextPack:
    write_artifact(
        tmp_path,
        "build.md",
        "## Readiness checklist\n\nBefore a proof of concept starts, name the owners and agree "
        "the evaluation plan.\n\n## Budget\n\nEstimate token spend per request.\n",
        title="Build readiness",
    )
    write_artifact(
        tmp_path,
        "retire.md",
        "## Decommissioning\n\nRetire the capability when usage falls; archive the evidence.\n",
        title="Sustainment",
    )
    write_artifact(
        tmp_path,
        "glossary.md",
        "## Proof of concept\n\nA bounded experiment.\n\nAlso called: POC; prototype; spike\n",
        title="Glossary",
        source_family="package-reference",
    )
    return context_pack.build(load_package(tmp_path))


def test_stems_drop_stopwords() -> None:
    assert content_stems("What are the owners of the gates?") == ["owner", "gate"]


def test_synonym_expansion_reaches_canonical_wording(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    result = pack.index.search("what do we need before our POC?", k=3)
    assert result.top is not None
    assert result.top.row.row_id in {"build#readiness-checklist", "glossary#proof-of-concept"}
    assert "ph_proof_of_concept" in result.query_terms


def test_heading_weight_ranks_the_titled_section_first(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    assert pack.index.search("decommissioning").top.row.row_id == "retire#decommissioning"


def test_unrelated_question_is_not_supported(tmp_path: Path) -> None:
    pack = _pack(tmp_path)
    result = pack.index.search("how long should I boil an egg")
    assert result.hits == ()


def test_saved_index_answers_like_the_built_one(tmp_path: Path) -> None:
    pack = _pack(tmp_path / "pkg")
    context_pack.write(pack, tmp_path / "out")
    loaded = context_pack.read(tmp_path / "out")
    for q in ("token budget", "retire capability", "poc owners"):
        built = [(h.row.row_id, round(h.score, 4)) for h in pack.index.search(q).hits]
        again = [(h.row.row_id, round(h.score, 4)) for h in loaded.index.search(q).hits]
        assert built == again
    assert isinstance(loaded.index, Index)


def test_sample_package_finds_build_readiness_for_a_reviewer_phrasing(built_sample_pack) -> None:
    result = built_sample_pack.index.search(
        "is there anything we should sort out before engineers start coding the prototype?"
    )
    assert "build-readiness" in [h.row.topic for h in result.hits[:3]]


def test_typo_correction_breaks_ties_the_same_way_in_every_process(tmp_path: Path) -> None:
    # "xound" is one edit from both "bound" and "found", which occur equally often. A set's
    # iteration order depends on the hash seed, so only an explicit tie-break is deterministic.
    write_artifact(
        tmp_path, "a.md", "## Limits\n\nThe bound holds.\n\n## Results\n\nWe found it.\n"
    )
    index = context_pack.build(load_package(tmp_path)).index
    assert index.doc_freq["bound"] == index.doc_freq["found"] == 1
    assert index.correct("xound") == "bound"
