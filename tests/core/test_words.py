"""Words as every search, ranking and verification step reads them: a dash or curly quote separates."""

from __future__ import annotations

import pytest

from core.text import words


@pytest.mark.parametrize(
    ("typeset", "plain"),
    [
        ("January 1–March 31", "January 1-March 31"),
        ("Don’t use “click here”", 'Don\'t use "click here"'),
        ("the Board of Directors—if you have one", "the Board of Directors - if you have one"),
        ("Records Administration’s harvests", "Records Administration's harvests"),
        ("OsStr/OsString—for paths", "OsStr/OsString - for paths"),
    ],
)
def test_typeset_punctuation_splits_words_as_its_ascii_form_does(typeset: str, plain: str) -> None:
    assert words(typeset) == words(plain)


def test_accents_fold_and_letters_are_kept_together() -> None:
    assert words("Café naïve résumé") == ["cafe", "naive", "resume"]
    assert words("Straße") == ["strae"]  # a letter with no ASCII form goes; the word stays one


def test_non_breaking_and_other_spaces_separate() -> None:
    assert words("ten\u00a0days\u2009later") == ["ten", "days", "later"]
