"""Test-only middleware naming the worker process that served a request (X-AICD-Worker-Pid)."""

from __future__ import annotations

import os
from collections.abc import Callable

from django.http import HttpRequest, HttpResponse

HEADER = "X-AICD-Worker-Pid"


class WorkerPidHeaderMiddleware:
    """Adds the serving process id, so multi-worker tests can see which worker answered.

    Installed only when AICD_EXPOSE_WORKER_PID is on, which settings refuse in production:
    process ids are internal detail a deployment never shows.
    """

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]):
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        response[HEADER] = str(os.getpid())
        return response
