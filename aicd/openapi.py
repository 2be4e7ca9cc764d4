"""OpenAPI documentation of the API views, handed to drf-spectacular only when it builds a schema.

drf-spectacular's ``@extend_schema`` imports the whole schema generator (and, through it, DRF's
and Django's test clients) the moment a view module is imported: tens of milliseconds of every
process start, for a document few requests ask for. ``@documented(...)`` takes the same
arguments and only records them on the view method; ``apply_documentation``, listed in
``SPECTACULAR_SETTINGS["PREPROCESSING_HOOKS"]``, passes them to ``extend_schema`` when the
generator runs, before it inspects any view. The schema is the same either way (a test compares
it with one built by ``extend_schema`` directly).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
Endpoint = tuple[str, str, str, Callable[..., Any]]

_RECORDED = "_aicd_openapi"


def documented(**extend_schema_kwargs: Any) -> Callable[[F], F]:
    """``@extend_schema(**kwargs)`` for an API view method, applied when a schema is generated."""

    def record(method: F) -> F:
        setattr(method, _RECORDED, extend_schema_kwargs)
        return method

    return record


def recorded(method: Callable[..., Any]) -> dict[str, Any] | None:
    """The ``@documented`` arguments of a view method, if it has any."""
    return getattr(method, _RECORDED, None)


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
