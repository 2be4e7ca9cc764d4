"""Start-up builds and loads nothing it can put off: no index library, Markdown parser, PDF/DOCX
reader or OpenAPI generator is imported, no intent rule compiled and no deferred module
(aicd/lazy_imports.py: the feature services, DRF's optional libraries) run, until first use."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.servers import REPO

PROBE = """
import json, sys
import django
django.setup()
from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver
get_wsgi_application()
get_resolver().url_patterns  # the whole URLconf: every view, API and service module
heavy = ("bm25s", "numpy", "scipy", "markdown_it", "mdit_py_plugins", "pypdf", "docx",
         "drf_spectacular.openapi", "drf_spectacular.generators", "rest_framework.test", "django.test",
         # behind the deferred service modules and DRF's deferred optional libraries
         "assistant.retrieval", "assistant.intent", "assistant.types", "uploads.extraction",
         "registry_review.validation", "tiktoken", "Stemmer", "urllib3", "yaml.constructor")
loaded = sorted(m for m in heavy if m in sys.modules)
from assistant import intent
rules = [r for v in vars(intent).values() for r in (v if isinstance(v, tuple) else (v,))
         if isinstance(r, intent._Rule)]
assert len(rules) > 40, len(rules)
loaded += [f"{sum(r._compiled is not None for r in rules)} compiled intent rules"] * any(
    r._compiled is not None for r in rules)
from aicd.lazy_imports import DEFERRED
loaded += [f"{m} (deferred, but its code ran)" for m in sorted(DEFERRED)
           if m in sys.modules and type(sys.modules[m]) is type(sys)]
print(json.dumps(loaded))
"""


def test_loading_the_whole_app_imports_no_heavy_library_and_compiles_no_intent_rule():
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("AICD_", "DJANGO_"))}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "aicd.settings", "AICD_ENVIRONMENT": "test",
           "DJANGO_SECRET_KEY": "x" * 50}
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True,
                          text=True, check=True)
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []
