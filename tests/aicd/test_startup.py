"""Start-up builds and loads nothing: no index library, Markdown parser or PDF/DOCX reader until first use."""

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
heavy = ("bm25s", "numpy", "scipy", "markdown_it", "mdit_py_plugins", "pypdf", "docx")
print(json.dumps(sorted(m for m in heavy if m in sys.modules)))
"""


def test_loading_the_whole_app_imports_no_index_or_markdown_library():
    clean = {k: v for k, v in os.environ.items() if not k.startswith(("AICD_", "DJANGO_"))}
    env = {**clean, "DJANGO_SETTINGS_MODULE": "aicd.settings", "AICD_ENVIRONMENT": "test",
           "DJANGO_SECRET_KEY": "x" * 50}
    proc = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True,
                          text=True, check=True)
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == []
