"""App configuration for registry_review."""

from django.apps import AppConfig


class RegistryReviewConfig(AppConfig):
    name = "registry_review"
    default_auto_field = "django.db.models.BigAutoField"
