"""The version a package declares for itself, as people cite it ("package version 1.4.0").

A package declares its version with a ``version`` key in one artifact's front matter (the
package overview, by convention; docs/package-format.md). That is the version shown to people:
on the reader pages and in review packets. The content hash (``package.package_version``) stays
the build's identity, which tells a stale context pack or model from a current one; it is shown
beside the declared version as detail, and alone when the package declares none.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from assistant.package.artifacts import Artifact

KEY = "version"


def _declarations(artifacts: Iterable[Artifact]) -> list[tuple[str, str]]:
    """(source path, version) for every artifact whose front matter has a ``version``."""
    found = []
    for artifact in artifacts:
        value = artifact.meta.get(KEY)
        if value is not None and str(value).strip():
            found.append((artifact.source_path, str(value).strip()))
    return found


def declared(artifacts: Iterable[Artifact]) -> str:
    """The package's declared version, or "" when no artifact declares one."""
    found = _declarations(artifacts)
    return found[0][1] if found else ""


def problems(artifacts: Iterable[Artifact]) -> list[str]:
    """A package has one version: artifacts that declare different ones are a package problem."""
    found = _declarations(artifacts)
    if len({version for _, version in found}) <= 1:
        return []
    listed = ", ".join(f"{path} says {version}" for path, version in found)
    return [f"artifacts declare different package versions ({listed}); declare it once"]


@dataclass(frozen=True)
class VersionLabel:
    """How to show one package version: what people cite, and the content hash as detail."""

    shown: str
    content_hash: str

    @property
    def declared(self) -> bool:
        return self.shown != self.content_hash

    @property
    def text(self) -> str:
        """One line for documents: "1.4.0 (content hash ae9a6d731f1a)" or the hash alone."""
        if self.declared:
            return f"{self.shown} (content hash {self.content_hash})"
        return self.content_hash


def label(*, declared_version: str, content_hash: str) -> VersionLabel:
    return VersionLabel(shown=declared_version or content_hash, content_hash=content_hash)
