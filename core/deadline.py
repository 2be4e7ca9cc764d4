"""One total time budget, shared by every step of a bounded operation."""

from __future__ import annotations

import time


class Deadline:
    """A total time budget: what is left of it, and whether it ran out."""

    def __init__(self, seconds: float):
        self.seconds = seconds
        self._end = time.monotonic() + seconds

    def remaining(self) -> float:
        return max(0.0, self._end - time.monotonic())

    def expired(self) -> bool:
        return self.remaining() <= 0.0
