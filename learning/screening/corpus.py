"""The labelled screening corpus: questions, their category and their author, read from data/."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

DATA_DIR = Path(__file__).with_name("data")

# What each corpus category should lead to. The screening model learns the four intent classes;
# ``no_support`` questions are on-domain asks (the model should pass them on) that the
# answerability check after retrieval refuses.
CATEGORY_CLASS = {
    "in_scope": "answer",
    "borderline": "answer",
    "no_support": "answer",
    "general_chat": "unsupported_general_chat",
    "approval": "unsupported_approval_request",
    "private_data": "private_internal_data_request",
}
CLASSES = (
    "answer",
    "unsupported_general_chat",
    "unsupported_approval_request",
    "private_internal_data_request",
)


class CorpusError(ValueError):
    """A corpus line that cannot be used, named by file and line."""


@dataclass(frozen=True)
class Example:
    author: str
    category: str
    question: str
    topic: str = ""
    # Asked with the asker's own draft uploaded and selected (a review request): the run is a
    # criteria review, so answerability against the package's wording does not apply to it.
    with_upload: bool = False

    @property
    def label(self) -> str:
        return CATEGORY_CLASS[self.category]


def load(directory: Path = DATA_DIR) -> tuple[Example, ...]:
    """Every example under ``directory`` (``*.jsonl``), in file then line order."""
    examples: list[Example] = []
    seen: set[str] = set()
    for path in sorted(directory.glob("*.jsonl")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if not line.strip():
                continue
            try:
                raw = json.loads(line)
                example = Example(
                    author=str(raw["author"]),
                    category=str(raw["category"]),
                    question=str(raw["question"]).strip(),
                    topic=str(raw.get("topic") or ""),
                    with_upload=bool(raw.get("with_upload", False)),
                )
            except (json.JSONDecodeError, KeyError, TypeError) as exc:
                raise CorpusError(f"{path.name}:{number}: {exc}") from None
            if example.category not in CATEGORY_CLASS:
                raise CorpusError(f"{path.name}:{number}: unknown category {example.category!r}")
            if not example.question:
                raise CorpusError(f"{path.name}:{number}: empty question")
            key = example.question.casefold()
            if key in seen:
                continue  # the same question written twice adds nothing and would leak across folds
            seen.add(key)
            examples.append(example)
    return tuple(examples)


def fingerprint(directory: Path = DATA_DIR) -> str:
    """A hash of the corpus files: a model built from other data is stale."""
    digest = hashlib.sha256()
    for path in sorted(directory.glob("*.jsonl")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
