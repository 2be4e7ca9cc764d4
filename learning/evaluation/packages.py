"""The packages the judgement is measured on: the shipped sample and the converted public ones.

Each package is a directory in the package format and the labelled questions written about it
by authors who read only that package (``data/MANIFEST.json``: kind ``questions``, or for the
sample its screening corpus and held-out answer sets). A question carries its category (the six
labels of the screening corpus), the sections an expert cites and verbatim key facts.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from django.conf import settings

from assistant.package.artifacts import load_package
from assistant.retrieval.context_pack import ContextPack, build
from learning import corpora

SAMPLE = "sample"
ANSWERABLE = frozenset({"in_scope", "borderline"})
CATEGORIES = ("in_scope", "borderline", "general_chat", "approval", "private_data", "no_support")


@dataclass(frozen=True)
class LabelledQuestion:
    id: str
    author: str
    package: str
    category: str
    question: str
    sections: tuple[tuple[str, str], ...] = ()
    key_facts: tuple[str, ...] = ()
    language: str = "en"
    with_upload: bool = False

    @property
    def answerable(self) -> bool:
        return self.category in ANSWERABLE


@dataclass
class PackageSet:
    """One package and every labelled question about it."""

    slug: str
    directory: Path
    questions: list[LabelledQuestion] = field(default_factory=list)

    @cached_property
    def pack(self) -> ContextPack:
        return build(load_package(self.directory))

    @property
    def authors(self) -> frozenset[str]:
        return frozenset(q.author for q in self.questions)


def _read(path: Path, package: str) -> list[LabelledQuestion]:
    out = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        raw = json.loads(line)
        out.append(
            LabelledQuestion(
                id=str(raw.get("id") or f"{path.stem}-{number}"),
                author=str(raw["author"]),
                package=package,
                category=str(raw.get("category") or "in_scope"),
                question=str(raw["question"]).strip(),
                sections=tuple((s["path"], s["heading"]) for s in raw.get("sections", ())),
                key_facts=tuple(raw.get("key_facts", ())),
                language=str(raw.get("language") or "en"),
                with_upload=bool(raw.get("with_upload", False)),
            )
        )
    return out


def sample() -> PackageSet:
    """The shipped sample: its screening corpus (categories) and its held-out answer sets."""
    questions: list[LabelledQuestion] = []
    for s in corpora.sets("screening"):
        questions += [q for q in _read(s.path, SAMPLE) if not q.with_upload]
    for s in corpora.sets("answers", role="heldout", package=SAMPLE):
        questions += _read(s.path, SAMPLE)
    return PackageSet(SAMPLE, Path(settings.BASE_DIR) / "sample_package", questions)


def converted() -> list[PackageSet]:
    """The converted public packages (``data/packages/``) that have labelled questions."""
    root = corpora.data_dir() / "packages"
    by_slug: dict[str, PackageSet] = {}
    for s in corpora.sets("questions"):
        entry = by_slug.setdefault(s.package, PackageSet(s.package, root / s.package))
        entry.questions += _read(s.path, s.package)
    return [by_slug[k] for k in sorted(by_slug)]


def every_package() -> list[PackageSet]:
    return [sample(), *converted()]
