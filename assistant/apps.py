"""App configuration for assistant."""

from django.apps import AppConfig


class AssistantConfig(AppConfig):
    name = "assistant"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from assistant.pipeline import readiness  # noqa: F401 - registers the models check
        from assistant.providers import checks  # noqa: F401 - registers the provider checks
