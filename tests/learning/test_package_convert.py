"""The package converter: real-world Markdown in a tiny git repo becomes a loadable package."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from assistant.package.artifacts import load_package, parse_artifact
from learning.package_sources import convert

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ROOT / "data" / "packages"

GUIDE = """---
title: Front matter title
layout: page
---
<!-- a maintainer's note that must not survive -->
# Handling Data

Intro text before any section, with a [relative link](../other/page.md) and an
[external one](https://example.org/guide).

![A diagram](img/diagram.png)

## Principles

### Minimise

Collect only what you need.

#### Worked detail

Deeper text kept as part of its subsection.

### Minimise

A second subsection with the same heading.

## Principles

Another section with a duplicate heading.

{% include footer.html %}

<div class="callout"><p>Text inside raw HTML.</p></div>

| Item | Owner |
| --- | --- |
| Retention | Data owner |

1. First step
1. Second step

- [ ] Check retention
- [x] Name the owner
"""

NO_H1 = """---
title: Only Levels Three
---
Opening words that sit before every heading of the page, long enough to count.

```{note}
A MyST note with **bold** text.
```

(target-label)=
### Deep start

Text under a third-level heading that becomes a section.

!!! warning "Careful"
    An admonition body.
"""


def _git(repo: Path, *args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


@pytest.fixture
def mirror(tmp_path: Path) -> tuple[Path, str]:
    """A one-commit repo holding two guide pages, a changelog and a licence."""
    repo = tmp_path / "src"
    (repo / "docs" / "data").mkdir(parents=True)
    (repo / "docs" / "data" / "handling_data.md").write_text(GUIDE, encoding="utf-8")
    (repo / "docs" / "data" / "index.md").write_text(
        "# Index\n\n- [One](a.md)\n- [Two](b.md)\n", encoding="utf-8"
    )
    (repo / "docs" / "levels.md").write_text(NO_H1 + "\nFiller words. " * 20, encoding="utf-8")
    (repo / "docs" / "CHANGELOG.md").write_text("# Changes\n\n## v1\n\nFirst.\n")
    (repo / "LICENSE").write_text("Public domain, for the test.\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@localhost", "commit", "-qm", "pages")
    return repo / ".git", _git(repo, "rev-parse", "HEAD")


def _source(commit: str, **options: object) -> convert.Source:
    return convert.Source.from_json(
        {
            "slug": "tiny",
            "title": "Tiny guide",
            "field": "testing",
            "repo": "example/tiny",
            "commit": commit,
            "licence": "CC0-1.0",
            "licence_file": "LICENSE",
            "root": "docs",
            "include": ["docs/data/*", "docs/*"],
            "options": {"min_words": 10, **options},
        }
    )


def test_converted_page_shapes(mirror: tuple[Path, str], tmp_path: Path) -> None:
    git_dir, commit = mirror
    out = tmp_path / "pkg"
    pages = convert.write_package(_source(commit), git_dir, out)
    assert {p.source_path: p.skipped for p in pages} == {
        "docs/data/handling_data.md": "",
        "docs/data/index.md": "mostly links (navigation page)",
        "docs/levels.md": "",
    }  # the changelog is never selected
    text = (out / "data-handling-data.md").read_text(encoding="utf-8")
    head, body = text.split("\n---\n", 1)
    assert "title: Handling Data" in head  # the H1 wins over the source's front matter
    assert "source_family: data" in head
    assert f"example/tiny@{commit[:7]}" in head and "approves nothing" in head
    assert "layout:" not in text and "maintainer's note" not in text
    assert "{%" not in text and "<div" not in text and "diagram" not in text
    assert body.lstrip().startswith("# Handling Data\n\n## Overview\n\nIntro text")
    assert "a relative link and an [external one](https://example.org/guide)" in body
    assert (
        "\n## Principles\n\nThis section has 2 parts: Minimise and Principles: Minimise.\n" in body
    )
    assert "\n### Minimise\n" in body and "\n### Principles: Minimise\n" in body
    assert "\n**Worked detail**\n\nDeeper text" in body
    assert "\n## Principles (2)\n" in body
    assert "Text inside raw HTML." in body
    assert "| Item | Owner |\n| --- | --- |\n| Retention | Data owner |" in body
    assert "1. First step\n2. Second step" in body
    assert "- Check retention\n- Name the owner" in body  # task-list boxes dropped

    levels = (out / "levels.md").read_text(encoding="utf-8")
    assert "title: Only Levels Three" in levels
    assert "## Overview\n\nOpening words" in levels
    assert "A MyST note with **bold** text." in levels and "```{note}" not in levels
    assert "target-label" not in levels
    assert "\n## Deep start\n" in levels
    assert "**Careful**\n\nAn admonition body." in levels

    assert (out / "LICENCE").read_text() == "Public domain, for the test.\n"
    assert "docs/data/index.md: mostly links" in (out / "NOTICE").read_text()


def test_output_passes_the_package_loader(mirror: tuple[Path, str], tmp_path: Path) -> None:
    git_dir, commit = mirror
    out = tmp_path / "pkg"
    convert.write_package(_source(commit), git_dir, out)
    package = load_package(out)
    assert [a.topic for a in package.artifacts] == ["data-handling-data", "levels"]
    rows = {r.row_id: r for r in package.rows()}
    assert "data-handling-data#principles-2" in rows
    assert rows["data-handling-data#overview"].text.startswith("Intro text")
    assert all(r.source_quality == "public guidance (converted)" for r in rows.values())
    assert convert.package_rows(out) == len(rows)


def test_conversion_is_deterministic(mirror: tuple[Path, str], tmp_path: Path) -> None:
    git_dir, commit = mirror
    first, second = tmp_path / "one", tmp_path / "two"
    convert.write_package(_source(commit), git_dir, first)
    convert.write_package(_source(commit), git_dir, second)
    names = sorted(p.name for p in first.iterdir())
    assert names == sorted(p.name for p in second.iterdir())
    for name in names:
        assert (first / name).read_bytes() == (second / name).read_bytes()


def test_bad_commit_is_refused(mirror: tuple[Path, str]) -> None:
    git_dir, _ = mirror
    with pytest.raises(convert.ConvertError):
        convert.convert_source(_source("0" * 40), git_dir)
    with pytest.raises(convert.ConvertError):
        _source("HEAD")


def test_emphasis_that_would_not_read_back_is_dropped() -> None:
    """A span CommonMark would not read as emphasis is written without marks, so the row text
    never gains stray asterisks."""
    raw = b"---\ntitle: T\nsource_family: f\nsource_quality: q\nclaim_boundary: c\n---\n"
    source = _source("a" * 40)
    page = convert.convert_page(
        source, "docs/t.md", "# T\n\n## S\n\nA **bold** word and *x*y and `co*de` here.\n", "t", 1
    )
    artifact = parse_artifact("t.md", page.markdown.encode())
    assert artifact.sections[0].text == "A bold word and xy and co*de here."
    assert parse_artifact("u.md", raw + b"# T\n\n## S\n\ntext\n").sections


def test_every_listed_package_exists_and_passes_the_check() -> None:
    manifest = json.loads((PACKAGES / "MANIFEST.json").read_text(encoding="utf-8"))
    sources = {s.slug: s for s in convert.load_sources()}
    assert len(manifest) >= 6
    assert len({entry["field"] for entry in manifest}) == len(manifest)
    for entry in manifest:
        out = PACKAGES / entry["slug"]
        package = load_package(out)  # raises PackageError listing every problem
        assert len(package.rows()) == entry["rows"] >= 100, entry["slug"]
        assert len(package.artifacts) == entry["files"]
        assert entry["converted_by"] == convert.CONVERTED_BY
        assert sources[entry["slug"]].commit == entry["commit"]
        assert (out / "NOTICE").is_file()
        assert (out / "LICENCE").is_file()
