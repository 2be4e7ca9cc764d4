"""The owner-review page: the configured registry's report, or a pasted/uploaded one's, never kept."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import wraps
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.debug import sensitive_post_parameters, sensitive_variables
from django.views.decorators.http import require_http_methods
from django.views.defaults import permission_denied

from core.errors import ApplicationError
from core.sizes import human_bytes
from core.text import clip
from core.throttling import throttle_posts
from registry_review import services
from registry_review.file_handler import BoundedMemoryUploadHandler
from registry_review.forms import RegistrySubmissionForm
from registry_review.models import PERMISSION
from registry_review.record_schema import REQUIRED_FIELDS
from registry_review.records import RecordReport

TEMPLATE = "registry_review/review.html"
# Long values are cut for the table; the full normalised JSON is shown separately.
_CELL_CHARS = 300
# The table's columns after the id: every required field of a record, then its query terms.
_COLUMNS = (*(name for name in REQUIRED_FIELDS if name != "id"), "query_terms")


def _cell(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, str):
        text = value
    elif isinstance(value, list | tuple) and all(isinstance(v, str) for v in value):
        text = ", ".join(value)
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return clip(text, _CELL_CHARS)


def _row(item: RecordReport) -> dict[str, Any]:
    values: dict[str, Any] = {}
    if isinstance(item.raw, dict):
        values.update(item.raw)
    if item.record is not None:
        values.update(item.record.to_dict())
    return {
        "number": item.index,
        "id": _cell(item.id if item.id is not None else values.get("id")),
        "valid": item.valid,
        "errors": item.errors,
        "warnings": item.warnings,
        "not_an_object": not isinstance(item.raw, dict),
        **{name: _cell(values.get(name)) for name in _COLUMNS},
    }


def _render(
    request: HttpRequest,
    form: RegistrySubmissionForm,
    review: services.Review | None,
    *,
    refusal: str = "",
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "form": form,
        "review": review,
        "refusal": refusal,
        "limit": human_bytes(services.MAX_REGISTRY_BYTES),
        "limit_bytes": services.MAX_REGISTRY_BYTES,
    }
    if review is not None:
        context["rows"] = [_row(item) for item in review.report.records]
        context["valid_count"] = len(review.report.valid_records)
    return render(request, TEMPLATE, context, status=status)


def _require_review_permission(
    view: Callable[..., HttpResponse],
) -> Callable[..., HttpResponse]:
    """The ordinary 403 page for users without the review permission.

    Returned rather than raised: a raised PermissionDenied is logged with its traceback, but a
    signed-in user without the grant is an expected case, logged by Django as one warning line.
    """

    @wraps(view)
    def wrapped(request: HttpRequest, *args: object, **kwargs: object) -> HttpResponse:
        if not request.user.has_perm(PERMISSION):
            return permission_denied(request, PermissionDenied())
        return view(request, *args, **kwargs)

    return wrapped


@sensitive_variables("form", "review")
@csrf_protect
def _page(request: HttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _render(request, RegistrySubmissionForm(), services.review_configured())
    form = RegistrySubmissionForm(request.POST, request.FILES)
    if not form.is_valid():
        return _render(request, form, None, status=400)
    try:
        review = services.review_text(text=form.cleaned_data["text"])
    except ApplicationError as exc:
        return _render(
            request, RegistrySubmissionForm(), None, refusal=exc.message, status=exc.status_code
        )
    # The pasted text is echoed back so the owner can fix it; an uploaded file is not.
    return _render(request, form, review)


@never_cache
@sensitive_post_parameters("registry_json")
@csrf_exempt  # CSRF is checked by _page, after the upload handlers below are in place.
@_require_review_permission
@require_http_methods(["GET", "POST"])
@throttle_posts("registry")
def registry_review(request: HttpRequest) -> HttpResponse:
    """GET: the configured registry's report. POST: a pasted or uploaded candidate's report."""
    if request.method == "POST":
        try:
            declared = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            declared = services.MAX_REQUEST_BYTES + 1
        if declared > services.MAX_REQUEST_BYTES:
            # Refused before a byte of the body is read.
            refusal = services.too_large(declared, what="The submission").message
            return _render(request, RegistrySubmissionForm(), None, refusal=refusal, status=413)
        # Replace Django's handlers, which would spool a large upload to a temporary file.
        request.upload_handlers = [
            BoundedMemoryUploadHandler(request, limit=services.MAX_REGISTRY_BYTES)
        ]
    return _page(request)
