"""The labelled data tree: every set in data/MANIFEST.json exists, and each package's questions
name only sections that package has, with key facts quoted verbatim from them."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from assistant.package.artifacts import load_package
from assistant.retrieval.question_memory import plain
from learning import corpora
from learning.evaluation import packages

KINDS = {"screening", "answers", "reviews", "grounding", "attacks", "questions"}
ROLES = {"training", "heldout", "early", "lopo", "final"}


def test_every_manifest_set_exists_with_a_known_kind_and_role() -> None:
    sets = corpora.sets("questions") + corpora.sets("screening") + corpora.sets("attacks")
    assert len(sets) >= 20
    raw = json.loads((corpora.data_dir() / "MANIFEST.json").read_text(encoding="utf-8"))
    for entry in raw["sets"]:
        assert entry["kind"] in KINDS and entry["role"] in ROLES, entry
        assert (corpora.data_dir().parent / entry["path"]).exists(), entry["path"]


def test_at_least_six_packages_besides_the_sample_have_questions_in_every_category() -> None:
    converted = packages.converted()
    assert len(converted) >= 6
    for package in converted:
        counts = Counter(q.category for q in package.questions)
        assert set(packages.CATEGORIES) <= set(counts), (package.slug, counts)
        assert counts["in_scope"] >= 40, package.slug


@pytest.mark.parametrize("package", packages.converted(), ids=lambda p: p.slug)
def test_gold_sections_exist_and_key_facts_are_verbatim(package: packages.PackageSet) -> None:
    loaded = load_package(package.directory)
    text = {(a.source_path, s.heading): s.text for a in loaded.artifacts for s in a.sections}
    problems = []
    for q in package.questions:
        if not q.answerable:
            assert not q.sections, q.id
            continue
        missing = [s for s in q.sections if s not in text]
        if missing:
            problems.append(f"{q.id}: no section {missing}")
            continue
        # As the evaluation matches them: markup and case folded (``question_memory.plain``).
        cited = " ".join(plain(text[s]) for s in q.sections)
        for fact in q.key_facts:
            if plain(fact) not in cited:
                problems.append(f"{q.id}: key fact not verbatim: {fact[:50]}")
    # Authors checked against the Markdown; the loader rewrites code and some inline markup, so
    # a few facts (at most one in ten) cannot match; a missing section never passes.
    assert not [p for p in problems if "no section" in p]
    assert len(problems) <= 0.10 * len(package.questions), problems[:10]


def test_attack_sets_name_a_technique_and_an_expected_outcome() -> None:
    expected = {
        "answered",
        "no_package_support",
        "unsupported_general_chat",
        "unsupported_approval_request",
        "private_internal_data_request",
        "uploaded_source_boundary",
    }
    for s in corpora.sets("attacks"):
        rows = [
            json.loads(line) for line in s.path.read_text(encoding="utf-8").splitlines() if line
        ]
        assert len(rows) >= 150
        assert {r["expected"] for r in rows} <= expected
        assert all(r["technique"] for r in rows)
        assert len({r["id"] for r in rows}) == len(rows)
