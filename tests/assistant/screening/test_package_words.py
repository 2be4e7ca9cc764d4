"""Answerability's whole-word lookup in the package text, as the regular expression it replaced read it."""

from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from assistant.screening.answerability import _in_text

TEXT = (
    "the gate owners approve gpt-4o routes; rollback_plan and v2.1 notes. kubernetes don't-care "
    "xdon't can't_ café-au-lait sign-off"
)


@pytest.mark.parametrize(
    "word",
    [
        "owners",
        "gate",
        "owner",
        "gpt-4o",
        "gpt",
        "rollback_plan",
        "v2.1",
        "v2",
        "kube",
        "4o",
        "don't",
        "can't",
        "café-au",
        "au-lait",
        "sign-off",
        "the gate",
        "-care",
        "off",
    ],
)
def test_a_whole_word_is_found_exactly_where_the_word_boundary_search_finds_it(word: str) -> None:
    assert _in_text(word, TEXT) == bool(re.search(rf"\b{re.escape(word)}\b", TEXT))


def test_a_later_place_counts_when_an_earlier_one_is_inside_a_longer_word() -> None:
    assert _in_text("gpt-4o", "xgpt-4o gpt-4oz gpt-4o.")
    assert not _in_text("gpt-4o", "xgpt-4o gpt-4oz")


# Letters, a digit, a non-ASCII letter, the underscore and the marks a token may hold inside.
_ALPHABET = st.sampled_from(list("ab1é_-.'’ ;"))


@given(st.text(_ALPHABET, max_size=40), st.text(_ALPHABET, min_size=1, max_size=5))
def test_any_word_is_found_exactly_where_the_word_boundary_search_finds_it(
    text: str, word: str
) -> None:
    assert _in_text(word, text) == bool(re.search(rf"\b{re.escape(word)}\b", text))
