"""OpenAPI documentation of the API views, handed to drf-spectacular only when it builds a schema.

drf-spectacular's ``@extend_schema`` imports the whole schema generator (and, through it, DRF's
and Django's test clients) the moment a view module is imported: tens of milliseconds of every
process start, for a document few requests ask for. ``@documented(describe)`` records, on the
view method, a function that returns ``extend_schema``'s arguments; ``apply_documentation``,
listed in ``SPECTACULAR_SETTINGS["PREPROCESSING_HOOKS"]``, calls it and passes the arguments to
``extend_schema`` when the generator runs, before it inspects any view. Because the arguments
are built only then, the response serializers and examples (assistant/api_schema.py, a deferred
module) are not built at start-up either. The schema is the same either way (a test compares it
with one built by ``extend_schema`` directly).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
Endpoint = tuple[str, str, str, Callable[..., Any]]

_RECORDED = "_aicd_openapi"


def documented(describe: Callable[[], dict[str, Any]]) -> Callable[[F], F]:
    """``@extend_schema(**describe())`` for an API view method, applied when a schema is generated."""

    def record(method: F) -> F:
        setattr(method, _RECORDED, describe)
        return method

    return record


def recorded(method: Callable[..., Any]) -> dict[str, Any] | None:
    """The ``extend_schema`` arguments ``@documented`` describes for a view method, if any."""
    describe: Callable[[], dict[str, Any]] | None = getattr(method, _RECORDED, None)
    return None if describe is None else describe()


def apply_documentation(endpoints: list[Endpoint], **_: Any) -> list[Endpoint]:
    """drf-spectacular preprocessing hook: apply each endpoint's recorded ``extend_schema``."""
    from drf_spectacular.utils import extend_schema

    for _path, _regex, http_method, callback in endpoints:
        handler: Callable[..., Any] | None = getattr(
            getattr(callback, "cls", None), http_method.lower(), None
        )
        if handler is None:
            continue
        kwargs = recorded(handler)
        if kwargs is not None and "schema" not in getattr(handler, "kwargs", {}):
            extend_schema(**kwargs)(handler)
    return endpoints
