"""App configuration for assistant."""

from django.apps import AppConfig


class AssistantConfig(AppConfig):
    name = "assistant"
    default_auto_field = "django.db.models.BigAutoField"
