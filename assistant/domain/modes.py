"""Answer modes and run states: the names the API, the forms and the pipeline share.

Kept apart from the value types (assistant/domain/types.py) so that the view, form and serializer
modules loaded at start-up do not build the pipeline's dataclasses.
"""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """Answer modes; package-only is the default, package + current context an explicit opt-in."""

    PACKAGE_ONLY = "package_only"
    PACKAGE_CURRENT = "package_current"

    @property
    def display_name(self) -> str:
        return MODE_DISPLAY_NAMES[self]


MODE_DISPLAY_NAMES = {
    Mode.PACKAGE_ONLY: "Package-only",
    Mode.PACKAGE_CURRENT: "Package + current context",
}


class RunState(StrEnum):
    ANSWERED = "answered"
    REFUSED = "refused"
    DIAGNOSTIC = "diagnostic"
