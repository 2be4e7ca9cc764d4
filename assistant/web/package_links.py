"""Pointers into the package for a person: reader links to its artifacts and sections, example questions."""

from __future__ import annotations

from dataclasses import dataclass

from assistant.domain.types import PackageRow
from assistant.retrieval.context_pack import ContextPack

EXAMPLE_COUNT = 4


@dataclass(frozen=True)
class Link:
    text: str
    href: str


def _row(pack: ContextPack, topic: str, *heading_words: str) -> PackageRow | None:
    """The first row of ``topic`` whose heading holds every word in ``heading_words``."""
    for row in pack.rows:
        heading = row.heading.lower()
        if row.topic == topic and all(w in heading for w in heading_words):
            return row
    return None


def section_link(pack: ContextPack, topic: str, *heading_words: str) -> tuple[Link, ...]:
    row = _row(pack, topic, *heading_words)
    if row is None:
        return ()
    return (Link(f"{row.title}: {row.heading}", row.reader_target),)


def topic_links(pack: ContextPack) -> tuple[Link, ...]:
    """Every artifact of the package, as a reader link, in the package's own topic order."""
    artifacts = sorted(
        pack.artifacts, key=lambda a: (a.get("topic_number") is None, a.get("topic_number") or 0)
    )
    return tuple(Link(str(a["title"]), f"/html/{a['source_path']}") for a in artifacts)


def _term(heading: str) -> str:
    """A glossary heading as it reads mid-sentence: 'Stage gate' -> 'stage gate', 'AI ...' kept."""
    if len(heading) > 1 and heading[0].isupper() and heading[1].islower():
        return heading[0].lower() + heading[1:]
    return heading


def example_questions(pack: ContextPack, count: int = EXAMPLE_COUNT) -> list[str]:
    """A few questions the package answers, made from its glossary terms, spread across it.

    Without a glossary, the artifact titles serve instead.
    """
    terms = [row.heading for row in pack.rows if row.topic == "glossary"]
    if terms:
        step = max(1, len(terms) // count)
        return [f"What does “{_term(t)}” mean?" for t in terms[::step][:count]]
    titles = [link.text for link in topic_links(pack)][:count]
    return [f"What does the package say about {t.lower()}?" for t in titles]
