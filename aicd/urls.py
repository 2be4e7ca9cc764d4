"""Project URLs."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_not_required, login_required
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from accounts.views import LoginView

urlpatterns = [
    path("accounts/login/", LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("admin/", admin.site.urls),
    # The schema answers token clients too, so DRF (IsAuthenticated) guards it, not the redirect.
    path("api/schema/", login_not_required(SpectacularAPIView.as_view()), name="api-schema"),
    path(
        "api/docs/",
        # DRF views opt out of LoginRequiredMiddleware; a browser page should redirect to sign in.
        login_required(
            SpectacularSwaggerSplitView.as_view(
                url_name="api-schema", template_name="api_docs/swagger_ui.html"
            )
        ),
        name="api-docs",
    ),
    path("", include("assistant.urls")),
    path("", include("registry_review.urls")),
    path("", include("uploads.urls")),
]
