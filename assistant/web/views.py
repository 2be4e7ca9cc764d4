"""Template views: the chat page and the package reader. Each calls one service and renders it."""

from __future__ import annotations

from collections import defaultdict
from datetime import datetime
from typing import Any
from uuid import UUID

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
from assistant.web import (
    cited_passage,
    history,
    package_links,
    presentation,
    rendering,
    run_address,
)
from assistant.web import packet as review_packet
from assistant.web import reader as package_reader
from assistant.web.forms import ChatForm
from core.errors import ApplicationError
from core.throttling import throttle_posts
from uploads import services as uploads
from uploads.owner import owner_of


def _current_enabled() -> bool:
    return settings.AICD_CURRENT_CONTEXT_ADAPTER != "disabled"


def _forget_removed_sources(request: HttpRequest) -> None:
    """Drop what earlier runs quoted of session sources this session no longer holds."""
    live = uploads.overview(session=request.session, owner=owner_of(request)).records
    history.keep_only_live_uploads(
        request.session, {(r.session_source_id, r.display_title) for r in live}
    )


def _history_entry(request: HttpRequest, run_id: str) -> dict[str, Any] | None:
    """This session's run ``run_id`` with its body, after removed sources took their excerpts."""
    _forget_removed_sources(request)
    return history.find(request.session, run_id)


def _run_context(entry: dict[str, Any], pack: context_pack.ContextPack) -> dict[str, object]:
    body = entry["body"]
    return {
        "run": body,
        "card": presentation.run_card(body, pack, current_available=_current_enabled()),
        "lanes": [
            {"label": lane["label"], "html": rendering.render_prose(lane["text"])}
            for lane in body["lanes"]
        ],
    }


def _page(
    request: HttpRequest,
    form: ChatForm,
    *,
    shown: dict[str, Any] | None = None,
    removed: dict[str, Any] | None = None,
    selected: list[str] | None = None,
) -> HttpResponse:
    """The chat page: the form, the ``shown`` run's answer card (or the note that a ``removed``
    run's source went), this session's history and the upload panel."""
    pack = context_pack.get_context_pack()
    context: dict[str, object] = {
        "current_enabled": _current_enabled(),
        "examples": package_links.example_questions(pack),
        "history_limit": history.MAX_ENTRIES,
        "removed_run": removed,
    }
    if shown is not None:
        context.update(_run_context(shown, pack))
    if not _current_enabled():
        form.fields["mode"].widget.disabled_choices = {Mode.PACKAGE_CURRENT.value}
        if not form.is_bound:
            # A disabled radio is never sent: the next question goes out package-only.
            form.initial["mode"] = Mode.PACKAGE_ONLY.value
    context["form"] = form
    context["selected_source_ids"] = selected
    _forget_removed_sources(request)
    current = (shown or removed or {}).get("run_id")
    context["history"] = [
        {
            "run_id": e["run_id"],
            "question": e["question"],
            "state": e["body"]["state"] if e.get("body") else e["state"],
            "mode_name": MODE_DISPLAY_NAMES[
                Mode(e["body"]["mode"] if e.get("body") else e["mode"])
            ],
            "current": current == e["run_id"],
            "source_removed": bool(e.get("source_removed")),
        }
        for e in history.entries(request.session)
    ]
    return render(request, "assistant/chat.html", context)


@never_cache  # the page carries this session's sources (and, after a refused form, its input)
@require_http_methods(["GET", "POST"])
@throttle_posts("chat")
def chat(request: HttpRequest) -> HttpResponse:
    """The chat page; a valid question is answered, kept in the session history and answered
    ``303 See Other`` to the run's address (``assistant/web/run_address.py``).

    GET ``?run=<id>`` (the run's former address) redirects to its address.
    """
    if request.method == "GET":
        if "run" in request.GET:
            return redirect(run_address.run_url(_run_id(request.GET["run"])))
        return _page(request, ChatForm())
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
            history.add(
                request.session, question=question, body=run.to_dict(), session_source_ids=selected
            )
            return run_address.see_other(run.run_id)
    return _page(request, form, selected=selected)


def _run_id(value: str) -> str:
    try:
        return str(UUID(value))
    except ValueError:
        raise Http404("No such run in this session.") from None


@never_cache  # the page carries an answer and this session's sources
@require_safe
def run(request: HttpRequest, run_id: UUID) -> HttpResponse:
    """One run of this session's history, as the chat page showed it: reading it asks nothing.

    Only the session that ran it holds it, so another user's or session's run id is a 404; a run
    whose session source was removed since shows that, with its question ready to ask again.
    """
    entry = _history_entry(request, str(run_id))
    removed = None if entry is not None else history.find_removed(request.session, str(run_id))
    if entry is not None:
        initial = {"mode": entry["body"]["mode"], "question": entry["question"]}
    elif removed is not None:
        initial = {"mode": removed["mode"], "question": removed["question"]}
    else:
        raise Http404("No such run in this session.")
    form = ChatForm(initial=initial)
    # The answer heading takes the focus (static/js/chat.js), not the question box.
    form.fields["question"].widget.attrs.pop("autofocus", None)
    return _page(
        request,
        form,
        shown=entry,
        removed=removed,
        selected=entry.get("session_source_ids") if entry is not None else None,
    )


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
    entry = _history_entry(request, str(run_id))
    if entry is None:
        raise Http404("No such run in this session.")
    asked = entry.get("asked_at")
    content = review_packet.render(
        entry["body"],
        question=entry["question"],
        fmt=fmt,
        asked_at=datetime.fromisoformat(asked) if asked else None,
        version=context_pack.get_context_pack().version_label,
    )
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
            "version": pack.version_label,
            "row_count": len(pack.rows),
        },
    )


def reader(request: HttpRequest, source_path: str) -> HttpResponse:
    """A package artifact; ``?run=<id>&cite=<P id>`` marks, in that citation's section, every
    sentence the run used from it (``assistant/web/cited_passage.py``).

    The text comes from this session's history entry for the run, never from the URL: an
    unknown run or citation id simply marks nothing.
    """
    run_id = request.GET.get("run", "")
    entry = _history_entry(request, run_id) if run_id else None
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
            anchor = citation["reader_target"].partition("#")[2]
            cited = (anchor, cited_passage.used_text(entry["body"], citation["id"]))
    pack = context_pack.get_context_pack()
    page = package_reader.render_artifact(pack, source_path, cited=cited)
    if page is None:
        raise Http404("No package artifact at this path.")
    # A citation's link carries its run, so the reader can lead back to that answer.
    back = run_address.run_url(run_id) if entry is not None else reverse("assistant:chat")
    return render(
        request,
        "assistant/reader.html",
        {
            "page": page,
            "back_href": back,
            "back_to_answer": entry is not None,
            "version": pack.version_label,
            "mark_id": package_reader.MARK_ID,
        },
    )
