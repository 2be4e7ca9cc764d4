"""Building the labelled-question memory (``assistant/retrieval/question_memory.py``) as a model file.

The memory is the training answer sets' questions, authors, cited sections and key facts, written
as one JSONL file into ``AICD_MODEL_DIR``; serving reads that file, never the sets themselves.
"""

from __future__ import annotations

import json
from pathlib import Path

from assistant.models import store
from assistant.retrieval import question_memory
from learning import corpora
from learning.training.ranker import training_sets


def text() -> str:
    """The memory file's content: every training question, in manifest then line order."""
    lines = []
    for path in training_sets():
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            raw = json.loads(line)
            kept = {k: raw[k] for k in ("author", "id", "question", "sections") if k in raw}
            kept["key_facts"] = raw.get("key_facts", [])
            lines.append(json.dumps(kept, ensure_ascii=False, sort_keys=True))
    return "\n".join(lines) + "\n"


def publish(root: Path | None = None) -> Path:
    """Write the memory and its manifest entry; serving reads it on next use."""
    root = root or store.directory()
    root.mkdir(parents=True, exist_ok=True)
    path = root / question_memory.MEMORY_FILE
    path.write_text(text(), encoding="utf-8")
    store.record(
        "question_memory",
        [question_memory.MEMORY_FILE],
        schema=question_memory.MEMORY_SCHEMA,
        data=corpora.fingerprint(training_sets()),
        root=root,
    )
    question_memory.for_index.cache_clear()
    return path


def is_current(root: Path | None = None) -> bool:
    path = (root or store.directory()) / question_memory.MEMORY_FILE
    return path.exists() and path.read_text(encoding="utf-8") == text()
