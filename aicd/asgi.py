"""ASGI entry point."""

import os

from django.core.asgi import get_asgi_application

from aicd.process import tune_garbage_collector

tune_garbage_collector()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aicd.settings")
application = get_asgi_application()
