"""Byte counts as people read them: binary units, named as such (KiB, MiB)."""

from __future__ import annotations

KiB = 1024
MiB = 1024 * KiB


def human_bytes(n: int) -> str:
    """``5 MiB`` or ``256 KiB`` for a whole number of either, otherwise the exact byte count.

    ``human_bytes(5 * MiB) == "5 MiB"``, ``human_bytes(262_144) == "256 KiB"``,
    ``human_bytes(262_145) == "262,145 bytes"``: a size is never rounded.
    """
    if n >= MiB and n % MiB == 0:
        return f"{n // MiB} MiB"
    if n >= KiB and n % KiB == 0:
        return f"{n // KiB} KiB"
    return f"{n:,} bytes"
