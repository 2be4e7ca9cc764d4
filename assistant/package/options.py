"""The optional package file ``package.yaml``: front-matter defaults and layout choices.

A docs folder from a static-site generator rarely carries this project's front matter. The
package root may hold ``package.yaml`` with ``defaults`` (``source_family``, ``source_quality``,
``claim_boundary``) that any artifact lacking them takes, and ``heading_only_sections``: ``row``
(the default: a ``##`` whose text is all in ``###`` subsections gets a row naming them, so it is
citable) or ``skip`` (no row; the subsections are cited). See docs/package-format.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from assistant.package import safe_yaml

OPTIONS_FILE = "package.yaml"
DEFAULTABLE = ("source_family", "source_quality", "claim_boundary")
HEADING_ONLY_CHOICES = ("row", "skip")
_KEYS = ("defaults", "heading_only_sections")
MAX_OPTIONS_BYTES = 100_000


@dataclass(frozen=True)
class PackageOptions:
    """What ``package.yaml`` says (everything optional)."""

    defaults: dict[str, str] = field(default_factory=dict)
    heading_only_sections: str = "row"


def read(root: Path, problems: list[str]) -> PackageOptions:
    """The options of the package at ``root``; each problem with the file is added to
    ``problems`` (and the defaults are used instead)."""
    path = root / OPTIONS_FILE
    if not path.is_file():
        return PackageOptions()
    raw = path.read_bytes()
    if len(raw) > MAX_OPTIONS_BYTES:
        problems.append(f"{OPTIONS_FILE}: larger than {MAX_OPTIONS_BYTES} bytes")
        return PackageOptions()
    data = _parse(raw, problems)
    if data is None:
        return PackageOptions()
    found: list[str] = []
    for key in data:
        if key not in _KEYS:
            found.append(f"{OPTIONS_FILE}: unknown key {key!r} (known: {', '.join(_KEYS)})")
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict):
        found.append(f"{OPTIONS_FILE}: defaults must map front-matter keys to text")
        defaults = {}
    clean: dict[str, str] = {}
    for key, value in defaults.items():
        if key not in DEFAULTABLE:
            found.append(
                f"{OPTIONS_FILE}: defaults cannot set {key!r} (only {', '.join(DEFAULTABLE)})"
            )
        elif not isinstance(value, str) or not value.strip():
            found.append(f"{OPTIONS_FILE}: defaults.{key} must be non-empty text")
        else:
            clean[key] = value
    mode = data.get("heading_only_sections", "row")
    if mode not in HEADING_ONLY_CHOICES:
        found.append(
            f"{OPTIONS_FILE}: heading_only_sections must be one of {', '.join(HEADING_ONLY_CHOICES)}"
        )
        mode = "row"
    problems.extend(found)
    return PackageOptions(defaults=clean, heading_only_sections=str(mode))


def _parse(raw: bytes, problems: list[str]) -> dict[str, Any] | None:
    # Imported here like the artifacts' YAML: serving a built pack never parses it.
    import yaml

    try:
        data = safe_yaml.load(raw.decode("utf-8"))
    except UnicodeDecodeError:
        problems.append(f"{OPTIONS_FILE}: not UTF-8")
        return None
    except yaml.YAMLError as exc:
        problems.append(f"{OPTIONS_FILE}: not valid YAML ({exc.__class__.__name__})")
        return None
    except RecursionError:
        problems.append(f"{OPTIONS_FILE}: nested too deeply")
        return None
    if data is None:
        return {}
    if not isinstance(data, dict):
        problems.append(f"{OPTIONS_FILE}: must be a mapping of keys to values")
        return None
    return data
