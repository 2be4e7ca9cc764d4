"""The one error a current/public fetch raises."""

from __future__ import annotations


class FetchError(Exception):
    """A fetch that failed closed; ``reason`` is a plain sentence safe to show to a reviewer."""

    def __init__(self, reason: str):
        self.reason = reason
        super().__init__(reason)
