"""Session-source URLs: the API and the chat page's upload panel forms."""

from django.urls import path

from uploads import api, views

app_name = "uploads"

urlpatterns = [
    path("api/session-sources", api.SessionSourcesView.as_view(), name="api-list"),
    path(
        "api/session-sources/<str:source_id>",
        api.SessionSourceDetailView.as_view(),
        name="api-detail",
    ),
    path("session-sources/add", views.add, name="add"),
    path("session-sources/clear", views.clear, name="clear"),
    path("session-sources/<str:source_id>/remove", views.remove, name="remove"),
]
