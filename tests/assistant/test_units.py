"""Units of a row: table rows read with their header, list items whole, lead-ins kept with their list."""

from __future__ import annotations

from assistant.package.units import ITEM, LIST, ROW, SENTENCE, TABLE, clean_end, units

TEXT = (
    "The checks matter for two reasons:\n"
    "- **Named users.** The statement says who will use it;\n"
    "- Second reason, with enough words to count.\n"
    "| Item | Evidence expected | Confirmed by |\n"
    "| Kill criteria | Results that would stop the capability | Product owner |\n"
    "A closing sentence that is long enough to keep."
)


def test_units_keep_structure() -> None:
    found = units(TEXT)
    kinds = [u.kind for u in found]
    assert kinds == [ITEM, ITEM, LIST, ROW, TABLE, SENTENCE]
    whole = found[2]
    assert whole.intro == "The checks matter for two reasons:"
    assert whole.parts[0] == "**Named users.** The statement says who will use it."
    assert found[3].text == (
        "Kill criteria — Evidence expected: Results that would stop the capability; Confirmed by: Product owner."
    )


def test_clean_end_never_leaves_semicolon_full_stop() -> None:
    assert clean_end("the source owner;") == "the source owner."
    assert clean_end("introduces:") == "introduces."
