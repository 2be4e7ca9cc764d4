"""The labelled screening corpus: questions, their category and their author, read from data/."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from learning import corpora

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
    #: The package the question was written about (``sample``: the shipped sample package).
    package: str = "sample"

    @property
    def label(self) -> str:
        return CATEGORY_CLASS[self.category]


def files() -> list[Path]:
    """The screening sets of ``data/MANIFEST.json`` about the sample package."""
    return [s.path for s in corpora.sets("screening", package="sample")]


def other_package_files() -> list[Path]:
    """The screening sets about the converted packages (intent labels, each with its package)."""
    return [s.path for s in corpora.sets("screening") if s.package != "sample"]


def load(source: Path | list[Path] | None = None) -> tuple[Example, ...]:
    """Every example of ``source`` (files, a folder of ``*.jsonl``, or by default the manifest's
    screening sets), in file then line order."""
    if source is None:
        paths = files()
    elif isinstance(source, Path):
        paths = sorted(source.glob("*.jsonl"))
    else:
        paths = source
    examples: list[Example] = []
    seen: set[str] = set()
    for path in paths:
        for example in _read(path):
            key = example.question.casefold()
            if key in seen:
                continue  # the same question written twice adds nothing and would leak across folds
            seen.add(key)
            examples.append(example)
    return tuple(examples)


def _read(path: Path, package: str = "sample") -> Iterator[Example]:
    """The examples of one JSONL set, each checked; a broken line is named by file and line."""
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
                package=package,
            )
        except (json.JSONDecodeError, KeyError, TypeError) as exc:
            raise CorpusError(f"{path.name}:{number}: {exc}") from None
        if example.category not in CATEGORY_CLASS:
            raise CorpusError(f"{path.name}:{number}: unknown category {example.category!r}")
        if not example.question:
            raise CorpusError(f"{path.name}:{number}: empty question")
        yield example


def package_files() -> list[Path]:
    """The labelled question sets about the converted packages (``data/MANIFEST.json``, kind
    ``questions``): each author wrote about one package and labelled every question's category."""
    return corpora.paths("questions")


def load_packages(paths: list[Path] | None = None) -> tuple[Example, ...]:
    """The converted packages' questions as screening examples, each with its package: their
    labelled question sets and the screening sets written about them."""
    sets = corpora.sets("questions") + tuple(
        s for s in corpora.sets("screening") if s.package != "sample"
    )
    chosen = sets if paths is None else [s for s in sets if s.path in paths]
    return tuple(example for s in chosen for example in _read(s.path, s.package))


def load_all() -> tuple[Example, ...]:
    """What the shipped screening learns from: the sample's corpus and every package's questions."""
    return load() + load_packages()


def fingerprint(paths: list[Path] | None = None) -> str:
    """A hash of the corpus files: a model built from other data is stale."""
    digest = hashlib.sha256()
    root = corpora.data_dir()
    chosen = paths if paths is not None else files() + other_package_files() + package_files()
    for path in sorted(chosen):
        digest.update(path.relative_to(root).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
