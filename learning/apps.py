"""App configuration for learning: training, corpora and evaluation, which serving never imports."""

from django.apps import AppConfig


class LearningConfig(AppConfig):
    name = "learning"
    default_auto_field = "django.db.models.BigAutoField"
