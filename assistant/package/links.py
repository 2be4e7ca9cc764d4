"""Links between a package's artifacts: a relative Markdown link as the target's reader link.

A docs folder links its pages to each other as files (``other.md``, ``../dir/page.md#anchor``)
or as the site generator publishes them (``other/``, ``other.html``). On a reader page such a
link goes to the artifact's own reader page, ``/html/<path>#<anchor>``; a link with a scheme
(``https:``, ``mailto:``) stays as written; any other relative link (an image, a file outside
the package) has no page here, so only its text is shown.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Mapping
from urllib.parse import unquote, urlsplit

from assistant.package.anchors import slug

READER_PREFIX = "/html/"


def reader_href(href: str, *, from_path: str, anchors: Mapping[str, Collection[str]]) -> str | None:
    """The link a reader page of ``from_path`` shows for ``href``, or None for text only.

    ``anchors`` maps every artifact's source path to its section anchors; a fragment that is not
    one of the target's anchors is read as the site generator's slug of a heading and matched by
    this package's slug, else dropped (the link then opens the page).
    """
    parts = urlsplit(href)
    if parts.scheme or href.startswith("//"):
        return href
    fragment = unquote(parts.fragment)
    if not parts.path:
        known = anchors.get(from_path, ())
        return "#" + _anchor(fragment, known) if _anchor(fragment, known) else href
    target = _artifact(unquote(parts.path), from_path, anchors)
    if target is None:
        return None
    anchor = _anchor(fragment, anchors[target]) if fragment else ""
    return READER_PREFIX + target + (f"#{anchor}" if anchor else "")


def _artifact(path: str, from_path: str, anchors: Mapping[str, Collection[str]]) -> str | None:
    """The artifact ``path`` names, relative to ``from_path`` (or to the package root when it
    starts with ``/``), trying the forms site generators publish a page under."""
    base = "" if path.startswith("/") else posixpath.dirname(from_path)
    joined = posixpath.normpath(posixpath.join(base, path.lstrip("/")))
    if joined.startswith("../") or joined == "..":
        return None
    stem = joined.removesuffix(".html").removesuffix(".htm")
    candidates = (
        joined,
        stem + ".md",
        posixpath.join(stem, "index.md"),
        posixpath.join(stem, "README.md"),
    )
    return next((c for c in candidates if c in anchors), None)


def _anchor(fragment: str, known: Collection[str]) -> str:
    if not fragment:
        return ""
    if fragment in known:
        return fragment
    normalised = slug(fragment.replace("-", " "))
    return normalised if normalised in known else ""
