"""Assistant URLs: the chat page, the package reader and the chat API."""

from django.urls import path

from assistant.web import api, views

app_name = "assistant"

urlpatterns = [
    path("", views.chat, name="chat"),
    path("history/clear", views.clear_history, name="clear-history"),
    path("runs/<uuid:run_id>", views.run, name="run"),
    path("runs/<uuid:run_id>/packet.<slug:fmt>", views.packet, name="review-packet"),
    path("accounts/signed-out/", views.signed_out, name="signed-out"),
    path("html/", views.reader_index, name="reader-index"),
    path("html/<path:source_path>", views.reader, name="reader"),
    path("api/source-grounded-chat", api.SourceGroundedChatView.as_view(), name="api-chat"),
]
