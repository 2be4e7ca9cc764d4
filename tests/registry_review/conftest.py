"""Registry review fixtures: source owners, registries built here, and doubles for network and disk."""

from __future__ import annotations

import builtins
import contextlib
import json
import os
import socket
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import Group
from django.core.files import temp as django_temp
from rest_framework.test import APIClient

TEMPLATE_PATH = Path(settings.BASE_DIR) / "docs" / "current_source_registry_template.json"

# A value that appears only in submitted registries, so any trace of it anywhere is a leak.
CANARY = "canary-7c41e9d2-never-stored"


def nist_record(**overrides: Any) -> dict[str, Any]:
    """A valid record for the public NIST AI RMF page; each test changes one field to break it."""
    record: dict[str, Any] = {
        "id": "nist-ai-rmf",
        "title": "NIST AI Risk Management Framework",
        "url": "https://www.nist.gov/itl/ai-risk-management-framework",
        "allowed_origin": "https://www.nist.gov",
        "allowed_path_prefix": "/itl/ai-risk-management-framework",
        "source_type": "public standards-body framework page",
        "trust_label": "standards",
        "freshness_label": "Reviewed quarterly by the source owner",
        "claim_boundary": "Public framework context only; approves nothing.",
        "query_terms": ["NIST", "AI RMF"],
    }
    record.update(overrides)
    return record


#: One record per unsafe pattern the issue names: (record id, expected error code, field, reason words).
UNSAFE_CASES: tuple[tuple[str, dict[str, Any], str, str, str], ...] = (
    (
        "plain-http",
        {"url": "http://www.nist.gov/itl/ai-risk-management-framework"},
        "not_https",
        "url",
        "must use https://",
    ),
    (
        "loopback",
        {
            "url": "https://127.0.0.1/itl/ai-risk-management-framework",
            "allowed_origin": "https://127.0.0.1",
        },
        "non_public_address",
        "url",
        "loopback",
    ),
    (
        "cloud-metadata",
        {
            "url": "https://169.254.169.254/latest/meta-data/",
            "allowed_origin": "https://169.254.169.254",
            "allowed_path_prefix": "/latest",
        },
        "non_public_address",
        "url",
        "link-local",
    ),
    (
        "credentials-in-url",
        {"url": f"https://owner:{CANARY}@www.nist.gov/itl/ai-risk-management-framework"},
        "forbidden_characters",
        "url",
        "credentials",
    ),
    (
        "prefix-escape",
        {"url": "https://www.nist.gov/itl/ai-risk-management-framework/../../admin/"},
        "outside_prefix",
        "url",
        "outside allowed_path_prefix",
    ),
)


def unsafe_registry() -> dict[str, Any]:
    """One valid NIST record followed by the five unsafe ones, each carrying the canary."""
    sources = [nist_record(title=f"Valid NIST {CANARY}")]
    for record_id, overrides, *_ in UNSAFE_CASES:
        sources.append(nist_record(id=record_id, claim_boundary=f"Boundary {CANARY}", **overrides))
    return {"registry_version": "test", "sources": sources}


@pytest.fixture
def template_text() -> str:
    """The shipped template registry, exactly as an owner would paste it."""
    return TEMPLATE_PATH.read_text(encoding="utf-8")


@pytest.fixture
def unsafe_text() -> str:
    return json.dumps(unsafe_registry(), indent=2)


@pytest.fixture
def source_owner(django_user_model):
    """A user whose only grant is membership of the "Source owners" group the migration created."""
    user = django_user_model.objects.create_user(username="sofia", password="correct-horse-battery")
    user.groups.add(Group.objects.get(name="Source owners"))
    return user


@pytest.fixture
def owner_client(client, source_owner):
    client.force_login(source_owner)
    return client


@pytest.fixture
def owner_api_client(source_owner) -> APIClient:
    api = APIClient()
    api.force_authenticate(source_owner)
    return api


# ----------------------------------------------------------------------------- doubles
@pytest.fixture
def no_network(monkeypatch) -> None:
    """Fail the test on any socket connection or name look-up (DNS included)."""

    def refuse(*args: object, **kwargs: object) -> None:
        pytest.fail(f"network access during registry review: {args[:2]!r}")

    for name in (
        "getaddrinfo",
        "gethostbyname",
        "gethostbyname_ex",
        "gethostbyaddr",
        "create_connection",
    ):
        monkeypatch.setattr(socket, name, refuse)
    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket.socket, "connect_ex", refuse)


_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


@contextlib.contextmanager
def no_files_written(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Fail the test if anything opens a file for writing or creates a temporary file."""
    real_open, real_os_open = builtins.open, os.open

    def guarded_open(file: Any, mode: str = "r", *args: Any, **kwargs: Any) -> Any:
        if any(flag in mode for flag in "wax+"):
            pytest.fail(f"a file was opened for writing: {file!r} ({mode})")
        return real_open(file, mode, *args, **kwargs)

    def guarded_os_open(path: Any, flags: int, *args: Any, **kwargs: Any) -> int:
        if flags & _WRITE_FLAGS:
            pytest.fail(f"a file was opened for writing: {path!r}")
        return real_os_open(path, flags, *args, **kwargs)

    def refuse_temp(*args: object, **kwargs: object) -> None:
        pytest.fail("a temporary file was created")

    with monkeypatch.context() as patch:
        patch.setattr(builtins, "open", guarded_open)
        patch.setattr(os, "open", guarded_os_open)
        for name in (
            "NamedTemporaryFile",
            "TemporaryFile",
            "SpooledTemporaryFile",
            "mkstemp",
            "mkdtemp",
        ):
            patch.setattr(tempfile, name, refuse_temp)
        # Django binds its own name for the upload spool file at import time.
        patch.setattr(django_temp, "NamedTemporaryFile", refuse_temp)
        yield


@pytest.fixture
def files_guard(monkeypatch) -> Callable[[], contextlib.AbstractContextManager[None]]:
    return lambda: no_files_written(monkeypatch)
