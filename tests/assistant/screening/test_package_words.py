"""Answerability's whole-word lookup in the package text, as the regular expression it replaced read it."""

from __future__ import annotations

import re

import pytest

from assistant.screening.answerability import _in_text

TEXT = "the gate owners approve gpt-4o routes; rollback_plan and v2.1 notes. kubernetes"


@pytest.mark.parametrize(
    "word",
    ["owners", "gate", "owner", "gpt-4o", "gpt", "rollback_plan", "v2.1", "v2", "kube", "4o"],
)
def test_a_whole_word_is_found_exactly_where_the_word_boundary_search_finds_it(word: str) -> None:
    assert _in_text(word, TEXT) == bool(re.search(rf"\b{re.escape(word)}\b", TEXT))
