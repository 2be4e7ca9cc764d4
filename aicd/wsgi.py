"""WSGI entry point (gunicorn aicd.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

from aicd.process import tune_garbage_collector

tune_garbage_collector()
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aicd.settings")
application = get_wsgi_application()
