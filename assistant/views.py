"""Template views: the chat page and the package reader. Each calls one service and renders it."""

from __future__ import annotations

from collections import defaultdict

from django.conf import settings
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods

from aicd.throttling import throttle_posts
from assistant import context_pack, lanes, rendering, services
from assistant import reader as package_reader
from assistant.forms import ChatForm
from assistant.modes import MODE_DISPLAY_NAMES, Mode
from assistant.types import Run
from core.errors import ApplicationError
from uploads import services as uploads
from uploads.owner import owner_of

CURRENT_GROUP_NOTE = (
    "Current/public sources are not package authority. They are cited separately, may be stale, "
    "incomplete or not approved, and approve nothing; package guidance remains the source of record."
)


def _run_view_model(run: Run) -> dict[str, object]:
    groups = []
    for cls, label, css in (
        (lanes.PACKAGE_CITATION, "Package citations", "package"),
        (lanes.CURRENT_CITATION, "Current/public citations", "current"),
        (lanes.UPLOADED_CITATION, "Uploaded/session citations", "uploaded"),
    ):
        items = run.citations_of_class(cls)
        if items:
            note = CURRENT_GROUP_NOTE if cls == lanes.CURRENT_CITATION else ""
            groups.append(
                {"label": label, "css": css, "citation_class": cls, "items": items, "note": note}
            )
    return {
        "run": run,
        "lanes": [
            {"label": lane.label, "html": rendering.render_prose(lane.text)} for lane in run.lanes
        ],
        "citation_groups": groups,
        "telemetry": run.telemetry,
    }


@never_cache  # the page carries answers (after a POST) and this session's sources
@require_http_methods(["GET", "POST"])
@throttle_posts("chat")
def chat(request: HttpRequest) -> HttpResponse:
    """The chat page: a question form, then the run's lanes, citations by class and summary."""
    context: dict[str, object] = {
        "adapter": settings.AICD_CURRENT_CONTEXT_ADAPTER,
        "modes": MODE_DISPLAY_NAMES,
    }
    selected: list[str] | None = None
    if request.method == "POST":
        form = ChatForm(request.POST)
        selected = request.POST.getlist("session_source_ids")
        if form.is_valid():
            try:
                sources = uploads.resolve(
                    session=request.session, owner=owner_of(request), ids=selected
                )
            except ApplicationError as exc:
                form.add_error(None, exc.message)
            else:
                run = services.answer(
                    question=form.cleaned_data["question"],
                    mode=Mode(form.cleaned_data["mode"]),
                    session_sources=sources,
                )
                context.update(_run_view_model(run))
                form = ChatForm(
                    initial={"mode": run.mode.value, "question": form.cleaned_data["question"]}
                )
    else:
        form = ChatForm()
    context["form"] = form
    context["selected_source_ids"] = selected
    return render(request, "assistant/chat.html", context)


def reader_index(request: HttpRequest) -> HttpResponse:
    pack = context_pack.get_context_pack()
    by_family: dict[str, list[dict[str, object]]] = defaultdict(list)
    artifacts = sorted(
        pack.artifacts, key=lambda a: (a.get("topic_number") is None, a.get("topic_number") or 0)
    )
    for artifact in artifacts:
        by_family[str(artifact["source_family"])].append(artifact)
    return render(
        request,
        "assistant/reader_index.html",
        {
            "artifacts": artifacts,
            "package_version": pack.package_version,
            "row_count": len(pack.rows),
        },
    )


def reader(request: HttpRequest, source_path: str) -> HttpResponse:
    page = package_reader.render_artifact(context_pack.get_context_pack(), source_path)
    if page is None:
        raise Http404("No package artifact at this path.")
    return render(request, "assistant/reader.html", {"page": page})
