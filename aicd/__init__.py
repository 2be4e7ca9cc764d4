"""The AICD assistant's Django project: settings, URLs, entry points and shared plumbing."""
