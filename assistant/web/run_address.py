"""Where a run of this session lives: its address, and the 303 that sends a browser there.

Asking is a POST that answers ``303 See Other`` to the run's address (post/redirect/get), so a
reload or Back shows the same answer from this session's history and never asks again. The
address carries the ``#result-heading`` fragment: the page opens at the answer without any
script, and the next Tab goes into the answer. ``static/js/chat.js`` makes the heading
focusable (``tabindex="-1"``), so Chromium, following the fragment, also moves the focus there.
"""

from __future__ import annotations

from django.http import HttpResponseRedirect
from django.urls import reverse

FRAGMENT = "result-heading"


class HttpResponseSeeOther(HttpResponseRedirect):
    """A redirect that turns the POST into a GET of the answer (RFC 9110, 15.4.4)."""

    status_code = 303


def run_url(run_id: str) -> str:
    """The address of one run of this session, opened at its answer."""
    return f"{reverse('assistant:run', args=[run_id])}#{FRAGMENT}"


def see_other(run_id: str) -> HttpResponseSeeOther:
    return HttpResponseSeeOther(run_url(run_id))
