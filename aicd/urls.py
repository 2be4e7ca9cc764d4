"""Project URLs."""

from collections.abc import Callable
from typing import Any

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required, login_required
from django.http import HttpRequest, HttpResponse
from django.urls import include, path, re_path

from accounts.views import LoginView
from aicd import health
from aicd.api_not_found import ApiNotFoundView

View = Callable[..., HttpResponse]


def built_on_first_request(build: Callable[[], View]) -> View:
    """A view created by ``build`` when it is first requested, then reused.

    The OpenAPI views import drf-spectacular's schema generator, which pulls in DRF's and
    Django's test clients: tens of milliseconds that every process start would pay for pages
    that few requests open. Built lazily, they cost nothing until /api/schema/ or /api/docs/.
    """
    view: View | None = None

    def lazy(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        nonlocal view
        if view is None:
            view = build()
        return view(request, *args, **kwargs)

    # DRF views do their own CSRF check (for session authentication); so does this one.
    lazy.csrf_exempt = True  # type: ignore[attr-defined]
    return lazy


def _schema_view() -> View:
    from drf_spectacular.views import SpectacularAPIView

    return SpectacularAPIView.as_view()


def _docs_view() -> View:
    from drf_spectacular.views import SpectacularSwaggerSplitView

    return SpectacularSwaggerSplitView.as_view(
        url_name="api-schema", template_name="api_docs/swagger_ui.html"
    )


urlpatterns = [
    path("api/health", health.HealthView.as_view(), name="api-health"),
    path("api/ready", health.ReadyView.as_view(), name="api-ready"),
    path("accounts/login/", LoginView.as_view(), name="login"),
    path(
        "accounts/logout/",
        auth_views.LogoutView.as_view(next_page="assistant:signed-out"),
        name="logout",
    ),
    path("admin/", admin.site.urls),
    # The schema answers token clients too, so DRF (IsAuthenticated) guards it, not the redirect.
    path(
        "api/schema/", login_not_required(built_on_first_request(_schema_view)), name="api-schema"
    ),
    # DRF views opt out of LoginRequiredMiddleware; a browser page should redirect to sign in.
    path("api/docs/", login_required(built_on_first_request(_docs_view)), name="api-docs"),
    path("", include("assistant.urls")),
    path("", include("registry_review.urls")),
    path("", include("uploads.urls")),
    # Last: any other /api/ path is a JSON 404 (401 if anonymous), never Django's HTML page.
    re_path(r"^api/", ApiNotFoundView.as_view(), name="api-not-found"),
]
