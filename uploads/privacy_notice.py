"""The upload panel's privacy notice: open the first time a session shows it, folded after that.

Whether it was shown is one flag in the server session (like the sources themselves); it ends
with the session, so each new session opens the notice once again.
"""

from __future__ import annotations

from django.contrib.sessions.backends.base import SessionBase

SESSION_KEY = "aicd_privacy_notice_shown"


def open_this_time(session: SessionBase) -> bool:
    """True the first time this session shows the notice (and remembers that it has)."""
    if session.get(SESSION_KEY):
        return False
    session[SESSION_KEY] = True
    return True
