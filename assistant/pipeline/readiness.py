"""Whether this worker can answer: every learnt model loads and fits the code (never trained here)."""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.core.checks import CheckMessage, Warning, register

from assistant.compose import unit_ranking
from assistant.models import sparse, store, word_embedding
from assistant.models.store import ModelNotReady
from assistant.retrieval import question_memory, ranking
from assistant.retrieval.context_pack import get_context_pack
from assistant.review import criterion_evidence
from assistant.screening import artifact as screening_artifact
from assistant.screening.artifact import get_screening

logger = logging.getLogger(__name__)


def _question_memory() -> object:
    return question_memory.for_index(get_context_pack().index)


LOADERS: dict[str, Callable[[], object]] = {
    "screening": get_screening,
    "ranker": ranking.model,
    "question_memory": _question_memory,
    "unit_ranker": unit_ranking.model,
    "evidence_model": criterion_evidence.model,
    # Installed with the project, not built: a wheel without its weights fails here.
    "word_embedding": word_embedding.model,
}


def schemas() -> dict[str, str]:
    """The schema each model must have been built for, as this code reads it."""
    return {
        "screening": screening_artifact.schema(),
        "ranker": ranking.schema(),
        "question_memory": question_memory.MEMORY_SCHEMA,
        "unit_ranker": sparse.SCHEMA,
        "evidence_model": sparse.SCHEMA,
    }


@register()
def models_built(app_configs: Any = None, **kwargs: Any) -> list[CheckMessage]:
    """Every model is recorded in the model manifest for this code's schema, its files present.

    Reads the manifest only (no model is loaded); a warning, so the build commands still run.
    """
    recorded = store.manifest()
    messages: list[CheckMessage] = []
    for name, schema in schemas().items():
        entry = recorded.get(name)
        command = f"manage.py {store.BUILT_BY[name]}"
        if entry is None:
            problem = "is not built"
        elif entry.get("schema") != schema:
            problem = "was built for other features than this code computes"
        elif not all((store.directory() / f).exists() for f in entry.get("files", ())):
            problem = "has files missing"
        else:
            continue
        messages.append(
            Warning(
                f"The {name} model {problem} in AICD_MODEL_DIR; the worker will not answer "
                f"until it is: run '{command}'.",
                id="models.W001",
            )
        )
    return messages


def missing_models() -> list[ModelNotReady]:
    """The models that do not load, each naming the command that builds it (logged, not shown)."""
    missing = []
    for name, load in LOADERS.items():
        try:
            load()
        except ModelNotReady as exc:
            logger.warning("Model %s is not ready: %s", name, exc)
            missing.append(exc)
    return missing
