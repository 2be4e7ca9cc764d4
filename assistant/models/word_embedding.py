"""A small general-English word embedding whose weights ship inside its wheel: WordLlama.

BM25 and the package's own latent space (``assistant/retrieval/section_space.py``) only see the
package's words; a question put in other words ("who signs off before launch" for a section on
release approval) needs a sense of meaning learnt elsewhere. WordLlama ``l2_supercat`` (MIT,
the ``wordllama`` package on PyPI) is a 256-dimension token-embedding table pooled into one
vector per text: 16 MB of weights and its tokenizer inside the installed package, no network,
about 0.2 s to load.

Its default loader looks for missing files on the network; here it is pointed at the installed
package folder with downloads disabled, so a wheel without its weights fails loudly at load
(``/api/ready`` names it) instead of fetching anything. The embedding is never trained here.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from assistant.models.store import ModelNotReady

CONFIG = "l2_supercat"
DIMENSIONS = 256


class EmbeddingNotInstalled(ModelNotReady):
    """The ``wordllama`` package, or the weights inside it, is not installed."""

    def __init__(self, reason: str) -> None:
        super().__init__("word_embedding", reason)
        self.command = "pip install -e . (the wordllama wheel carries the weights)"
        self.args = (f"word_embedding {reason}; reinstall the project ({self.command})",)


@lru_cache(maxsize=1)
def _model() -> Any:
    try:
        import wordllama
        from wordllama import WordLlama
    except ImportError as exc:  # pragma: no cover - a broken install
        raise EmbeddingNotInstalled("is not installed") from exc
    folder = Path(wordllama.__file__).parent
    try:
        return WordLlama.load(CONFIG, cache_dir=folder, dim=DIMENSIONS, disable_download=True)
    except (FileNotFoundError, OSError, ValueError) as exc:
        raise EmbeddingNotInstalled(f"cannot load its weights from {folder.name}") from exc


def model() -> object:
    """Load the embedding (readiness probes call this)."""
    return _model()


def embed(texts: Sequence[str]) -> np.ndarray:
    """One unit vector per text (a row of zeros for a text with no known token)."""
    if not texts:
        return np.zeros((0, DIMENSIONS), dtype=np.float32)
    vectors = np.asarray(_model().embed(list(texts)), dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return np.divide(vectors, norms, out=np.zeros_like(vectors), where=norms > 0)
