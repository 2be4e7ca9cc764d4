"""The word embedding loads from the installed wheel, offline, and a missing one is a named 'not ready'."""

from __future__ import annotations

import socket
from pathlib import Path

import numpy as np
import pytest
from rest_framework.test import APIClient

from assistant.models import word_embedding
from assistant.pipeline import readiness
from assistant.retrieval import section_embeddings


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("the embedding tried to reach the network")

    monkeypatch.setattr(socket.socket, "connect", refuse)


def test_it_loads_from_the_wheel_without_the_network(no_network: None) -> None:
    word_embedding._model.cache_clear()
    try:
        vectors = word_embedding.embed(["Who signs off the release?", "release approval"])
    finally:
        word_embedding._model.cache_clear()
    assert vectors.shape == (2, word_embedding.DIMENSIONS)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)


def test_texts_that_mean_the_same_lie_closer_than_unrelated_ones() -> None:
    a, b, c = word_embedding.embed(
        [
            "Who signs off before launch?",
            "Release approval: the product owner approves every production release.",
            "Store raw survey files in the archive with their checksums.",
        ]
    )
    assert float(a @ b) > float(a @ c)


def test_nothing_embeds_to_zeros_and_nothing_is_an_empty_matrix() -> None:
    assert word_embedding.embed([]).shape == (0, word_embedding.DIMENSIONS)
    embeddings = section_embeddings.SectionEmbeddings((), np.zeros((0, 4)), np.zeros((0, 4)))
    assert embeddings.nearest(np.ones(4), 3) == []
    assert embeddings.position("missing") is None


@pytest.mark.django_db
def test_a_wheel_without_its_weights_is_not_ready_and_named(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import wordllama

    monkeypatch.setattr(wordllama, "__file__", str(tmp_path / "__init__.py"))
    word_embedding._model.cache_clear()
    try:
        missing = readiness.missing_models()
        response = APIClient().get("/api/ready")
    finally:
        word_embedding._model.cache_clear()
    assert [m.name for m in missing] == ["word_embedding"]
    assert response.status_code == 503
    assert str(tmp_path) not in response.content.decode()
