"""Template views: the chat page and the package reader. Each calls one service and renders it."""

from __future__ import annotations

from collections import defaultdict
from typing import Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_not_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from assistant.domain.modes import MODE_DISPLAY_NAMES, Mode
from assistant.pipeline import services
from assistant.retrieval import context_pack
from assistant.web import history, package_links, presentation, rendering
from assistant.web import packet as review_packet
from assistant.web import reader as package_reader
from assistant.web.forms import ChatForm
from core.errors import ApplicationError
from core.throttling import throttle_posts
from uploads import services as uploads
from uploads.owner import owner_of


def _current_enabled() -> bool:
    return settings.AICD_CURRENT_CONTEXT_ADAPTER != "disabled"


def _run_context(entry: dict[str, Any], pack: context_pack.ContextPack) -> dict[str, object]:
    body = entry["body"]
    return {
        "run": body,
        "card": presentation.run_card(body, pack),
        "lanes": [
            {"label": lane["label"], "html": rendering.render_prose(lane["text"])}
            for lane in body["lanes"]
        ],
    }


@never_cache  # the page carries answers (after a POST) and this session's sources
@require_http_methods(["GET", "POST"])
@throttle_posts("chat")
def chat(request: HttpRequest) -> HttpResponse:
    """The chat page: the question form, the run's answer card, this session's history, uploads.

    GET ``?run=<id>`` reopens an earlier run of this session from the session history.
    """
    pack = context_pack.get_context_pack()
    context: dict[str, object] = {
        "current_enabled": _current_enabled(),
        "examples": package_links.example_questions(pack),
    }
    selected: list[str] | None = None
    form = ChatForm()
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
                question = form.cleaned_data["question"]
                run = services.answer(
                    question=question,
                    mode=Mode(form.cleaned_data["mode"]),
                    session_sources=sources,
                )
                entry = {"run_id": run.run_id, "question": question, "body": run.to_dict()}
                history.add(request.session, question=question, body=entry["body"])
                context.update(_run_context(entry, pack))
                form = ChatForm(initial={"mode": run.mode.value, "question": question})
    elif request.GET.get("run"):
        earlier = history.find(request.session, request.GET["run"])
        if earlier is not None:
            context.update(_run_context(earlier, pack))
            form = ChatForm(
                initial={"mode": earlier["body"]["mode"], "question": earlier["question"]}
            )
    if not _current_enabled():
        form.fields["mode"].widget.disabled_choices = {Mode.PACKAGE_CURRENT.value}
        if not form.is_bound:
            # A disabled radio is never sent: the next question goes out package-only.
            form.initial["mode"] = Mode.PACKAGE_ONLY.value
    context["form"] = form
    context["selected_source_ids"] = selected
    live = uploads.overview(session=request.session, owner=owner_of(request)).records
    history.keep_only_live_uploads(
        request.session, {(r.session_source_id, r.display_title) for r in live}
    )
    shown = context.get("run")
    context["history"] = [
        {
            "run_id": e["run_id"],
            "question": e["question"],
            "state": e["body"]["state"],
            "mode_name": MODE_DISPLAY_NAMES[Mode(e["body"]["mode"])],
            "current": isinstance(shown, dict) and shown["run_id"] == e["run_id"],
        }
        for e in history.entries(request.session)
    ]
    return render(request, "assistant/chat.html", context)


@require_POST
def clear_history(request: HttpRequest) -> HttpResponse:
    """Forget this session's earlier questions and answers."""
    history.clear(request.session)
    return redirect("assistant:chat")


@never_cache  # sets Cache-Control: no-store (with no-cache, must-revalidate, private)
@require_safe
def packet(request: HttpRequest, run_id: str, fmt: str) -> HttpResponse:
    """The review packet of one run of this session's history, built now and not kept.

    Only the session that ran it holds the run (``assistant/web/history.py``), so another user, or
    this user after clearing the history, gets a 404. Reading it changes nothing: no CSRF token.
    """
    if fmt not in review_packet.FORMATS:
        raise Http404("No such packet format.")
    entry = history.find(request.session, str(run_id))
    if entry is None:
        raise Http404("No such run in this session.")
    content = review_packet.render(entry["body"], question=entry["question"], fmt=fmt)
    response = HttpResponse(content, content_type=review_packet.FORMATS[fmt])
    name = review_packet.filename(entry["run_id"], fmt)
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@login_not_required
@require_safe
def signed_out(request: HttpRequest) -> HttpResponse:
    """Where sign-out lands: says the session, its sources and its history are gone."""
    return render(request, "registration/signed_out.html")


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
    """A package artifact; ``?run=<id>&cite=<P id>`` marks that citation's excerpt in its section.

    The excerpt comes from this session's history entry for the run, never from the URL: an
    unknown run or citation id simply marks nothing.
    """
    run_id = request.GET.get("run", "")
    entry = history.find(request.session, run_id) if run_id else None
    cited = None
    if entry is not None:
        citation = next(
            (
                c
                for c in entry["body"]["citations"]
                if c["id"] == request.GET.get("cite") and c.get("source_path") == source_path
            ),
            None,
        )
        if citation is not None:
            cited = (citation["reader_target"].partition("#")[2], citation["excerpt"])
    page = package_reader.render_artifact(context_pack.get_context_pack(), source_path, cited=cited)
    if page is None:
        raise Http404("No package artifact at this path.")
    # A citation's link carries its run, so the reader can lead back to that answer.
    back = reverse("assistant:chat")
    if entry is not None:
        back = f"{back}?{urlencode({'run': run_id})}#result"
    return render(
        request,
        "assistant/reader.html",
        {"page": page, "back_href": back, "mark_id": package_reader.MARK_ID},
    )
