"""Section anchors: a heading's slug, made unique within its page the way site generators do."""

from __future__ import annotations

from dataclasses import dataclass, field

from django.utils.text import slugify

# The anchor of a heading that has no letters or digits at all ("## ???").
FALLBACK_ANCHOR = "section"


def slug(heading: str) -> str:
    """The heading's anchor before de-duplication: Django's slug (ASCII), else a Unicode slug for
    a heading with no ASCII letters ("## 概要"), else ``section``."""
    return slugify(heading) or slugify(heading, allow_unicode=True) or FALLBACK_ANCHOR


@dataclass
class PageAnchors:
    """The anchors taken in one page, in document order.

    A repeated slug gets ``-1``, ``-2`` ... (the first free one), as GitHub, MkDocs and
    markdown-it-anchor do, so every heading of a page keeps a distinct, stable anchor.
    """

    taken: dict[str, str] = field(default_factory=dict)  # anchor -> the heading that took it

    def claim(self, heading: str) -> str:
        """The next free anchor for ``heading``, recorded as taken."""
        base = slug(heading)
        anchor, n = base, 0
        while anchor in self.taken:
            n += 1
            anchor = f"{base}-{n}"
        self.taken[anchor] = heading
        return anchor
