"""core.sizes: one byte formatter, in binary units named as such."""

from __future__ import annotations

import pytest

from core.sizes import KiB, MiB, human_bytes


@pytest.mark.parametrize(
    ("n", "shown"),
    [
        (0, "0 bytes"),
        (1023, "1,023 bytes"),
        (KiB, "1 KiB"),
        (256 * KiB, "256 KiB"),
        (256 * KiB + 1, "262,145 bytes"),
        (MiB, "1 MiB"),
        (20 * MiB, "20 MiB"),
        (5 * MiB + 1, "5,242,881 bytes"),
    ],
)
def test_whole_units_or_the_exact_count(n: int, shown: str) -> None:
    assert human_bytes(n) == shown
