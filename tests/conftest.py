"""Shared fixtures: the sample package's context pack built once, users, clients, provider doubles."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from rest_framework.test import APIClient

from assistant.domain.prompt import ProviderRequest
from assistant.package.artifacts import load_package
from assistant.providers.base import BaseProvider, ProviderResponse
from assistant.retrieval import context_pack


@pytest.fixture(scope="session", autouse=True)
def built_sample_pack() -> context_pack.ContextPack:
    """Build the shipped sample package's pack once, into the test settings' temp directory."""
    pack = context_pack.build(load_package(Path(settings.AICD_PACKAGE_DIR)))
    context_pack.write(pack, Path(settings.AICD_CONTEXT_PACK_DIR))
    context_pack.reset_cache()
    return pack


@pytest.fixture(autouse=True)
def _fresh_pack_cache():
    context_pack.reset_cache()
    yield
    context_pack.reset_cache()


@pytest.fixture
def reviewer(django_user_model):
    return django_user_model.objects.create_user(username="rita", password="correct-horse-battery")


@pytest.fixture
def api_client(reviewer) -> APIClient:
    client = APIClient()
    client.force_authenticate(reviewer)
    return client


@pytest.fixture
def logged_in_client(client, reviewer):
    client.force_login(reviewer)
    return client


class ExplodingProvider(BaseProvider):
    """A provider double that fails the test if it is ever called."""

    name = "exploding"

    @property
    def model(self) -> str:
        return "none"

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        pytest.fail(
            "the provider was called, but this run must be refused before any provider call"
        )


class ScriptedProvider(BaseProvider):
    """A provider double that returns fixed text and records the requests it saw."""

    name = "scripted"

    def __init__(self, text: str):
        self.text = text
        self.requests: list[ProviderRequest] = []

    @property
    def model(self) -> str:
        return "scripted-1"

    def complete(self, request: ProviderRequest) -> ProviderResponse:
        self.requests.append(request)
        return ProviderResponse(text=self.text, model=self.model)


@pytest.fixture
def exploding_provider() -> ExplodingProvider:
    return ExplodingProvider()


def write_artifact(directory: Path, name: str, body: str, **meta: object) -> Path:
    """Write one package artifact with front matter, for tests that build their own package."""
    fields = {
        "title": name.removesuffix(".md").replace("-", " ").title(),
        "source_family": "playbook-doctrine",
        "source_quality": "approved package guidance",
        "claim_boundary": "Test guidance only; approves nothing.",
        **meta,
    }
    front = "\n".join(f"{k}: {v}" for k, v in fields.items() if v is not None)
    path = directory / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\n{front}\n---\n\n# {fields['title']}\n\n{body}\n", encoding="utf-8")
    return path
