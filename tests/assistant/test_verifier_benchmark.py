"""The claim verifier's benchmark: deterministic cases, honest halves, floors on the held-out half."""

from __future__ import annotations

import pytest
from django.conf import settings

from assistant.verify import claim_support
from learning.evaluation import verifier_benchmark as vb
from learning.evaluation import verifier_cases as vc


@pytest.fixture(scope="module")
def scored(built_sample_pack):
    pack = built_sample_pack
    cases = vc.build_cases(pack.rows)
    return cases, vb.score_cases(cases, pack.index.expansion, pack.index.doc_freq)


def test_cases_are_deterministic_and_split_by_artifact(built_sample_pack) -> None:
    first = vc.build_cases(built_sample_pack.rows)
    assert first == vc.build_cases(built_sample_pack.rows)
    half_of = vc.halves(built_sample_pack.rows)
    assert {case.half for case in first} == {vc.TUNE, vc.HELD_OUT}
    assert all(half_of[case.cited.source_path] == case.half for case in first)
    assert all(half_of[case.other.source_path] == case.half for case in first)
    kinds = {case.kind for case in first if case.half == vc.HELD_OUT}
    assert set(vc.SUPPORTED_KINDS) <= kinds
    assert set(vc.UNSUPPORTED_KINDS) - {"duration changed"} <= kinds


@pytest.mark.slow
def test_held_out_half_meets_the_targets(scored) -> None:
    cases, scores = scored
    held = vb.run(cases, scores, claim_support.DEFAULT_THRESHOLD)[vc.HELD_OUT]
    assert held.unsupported >= 300 and held.supported >= 300
    assert held.recall >= vb.TARGET_CAUGHT, held.by_kind
    assert held.false_rejection <= vb.TARGET_FALSE_REJECTION, held.by_kind


@pytest.mark.slow
def test_the_default_threshold_is_the_one_chosen_on_the_tune_half(scored) -> None:
    cases, scores = scored
    assert vb.tune_threshold(cases, scores, vb.TUNING_GRID) == claim_support.DEFAULT_THRESHOLD


def test_the_setting_defaults_to_the_documented_threshold() -> None:
    assert settings.AICD_CLAIM_SUPPORT_THRESHOLD == claim_support.DEFAULT_THRESHOLD
    assert settings.AICD_UNSUPPORTED_CLAIMS == "strict"
