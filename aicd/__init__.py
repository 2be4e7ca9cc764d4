"""The AICD assistant's Django project: settings, URLs, entry points and shared plumbing."""

from aicd.lazy_imports import install

# First, before Django, DRF or the apps import anything: see aicd/lazy_imports.py.
install()
