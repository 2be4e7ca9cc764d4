"""Template views for the chat page's upload panel: add, remove and clear by plain POST forms.

The browser's script sends files through the API for a progress bar; these views are the
no-script path and the Remove / Clear all buttons. Each calls one uploads service and redirects
back to the chat page with a message (kept in a signed cookie, not on the server).
"""

from __future__ import annotations

from django.contrib import messages
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.urls import reverse
from django.views.decorators.http import require_POST

from core.errors import ApplicationError
from core.throttling import over_limit
from uploads import services
from uploads.owner import owner_of

# What a removal takes with it: the history keeps the runs, not what they quoted.
_QUOTED = (
    "Any earlier answer that quoted it stays in your history, marked “source removed”, "
    "without its text."
)


def _back() -> HttpResponseRedirect:
    return HttpResponseRedirect(reverse("assistant:chat") + "#session-sources")


@require_POST
def add(request: HttpRequest) -> HttpResponse:
    """Add the posted file, or the posted paste when no file was sent."""
    upload = request.FILES.get("file")
    title = request.POST.get("title", "").strip() or None
    name = (upload.name if upload else None) or title or "pasted text"
    try:
        if over_limit(request, "uploads")[0]:  # the API's "uploads" count, per user
            raise ApplicationError("throttled", "Too many uploads; wait a minute and try again.")
        if upload is not None:
            record = services.add_uploaded_file(
                session=request.session, owner=owner_of(request), upload=upload, title=title
            )
        elif request.POST.get("text", "").strip():
            if not title:
                raise ApplicationError("invalid_request", "A pasted source needs a title.")
            record = services.add_paste(
                session=request.session,
                owner=owner_of(request),
                title=title,
                text=request.POST["text"],
            )
        else:
            raise ApplicationError("invalid_request", "Choose a file or paste some text first.")
    except ApplicationError as exc:
        messages.error(request, f"{name}: {exc.message}", extra_tags=f"rejected {exc.code}")
        return _back()
    messages.success(request, record.added_confirmation, extra_tags="added")
    return _back()


def _throttled(request: HttpRequest) -> ApplicationError | None:
    """The API's "uploads" count, per user: every change to the session's sources is counted."""
    if over_limit(request, "uploads")[0]:
        return ApplicationError("throttled", "Too many changes; wait a minute and try again.")
    return None


@require_POST
def remove(request: HttpRequest, source_id: str) -> HttpResponse:
    try:
        if refused := _throttled(request):
            raise refused
        title = services.remove(
            session=request.session, owner=owner_of(request), source_id=source_id
        )
    except ApplicationError as exc:
        messages.error(request, exc.message, extra_tags=f"rejected {exc.code}")
    else:
        messages.success(request, f"Removed “{title}” from this session. {_QUOTED}", "removed")
    return _back()


@require_POST
def clear(request: HttpRequest) -> HttpResponse:
    if refused := _throttled(request):
        messages.error(request, refused.message, extra_tags=f"rejected {refused.code}")
        return _back()
    titles = services.clear_titled(session=request.session, owner=owner_of(request))
    if not titles:
        messages.success(request, "There were no session sources to clear.", extra_tags="removed")
        return _back()
    named = ", ".join(f"“{t}”" for t in titles)
    count = f"{len(titles)} session source{'s' if len(titles) != 1 else ''}"
    messages.success(request, f"Cleared {count} from this session: {named}. {_QUOTED}", "removed")
    return _back()
