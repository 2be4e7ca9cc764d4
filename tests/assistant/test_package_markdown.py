"""Real-world Markdown in the loader: intro text, heading-only sections, deeper headings,
duplicate and long anchors, pages without front matter and the package file's defaults."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.package.anchors import PageAnchors, slug
from assistant.package.artifacts import PackageError, load_package, parse_artifact
from tests.conftest import write_artifact

DEFAULTS = (
    "defaults:\n"
    "  source_family: handbook\n"
    "  source_quality: team guidance\n"
    "  claim_boundary: Team practice only; it approves nothing.\n"
)


def _rows(tmp_path: Path, body: str, **meta: object) -> list:
    write_artifact(tmp_path, "page.md", body, **meta)
    return load_package(tmp_path).rows()


def test_text_before_the_first_section_is_an_overview_row(tmp_path: Path) -> None:
    rows = _rows(
        tmp_path, "Every firing has a named warden.\n\n## Gates\n\nEach gate has an owner.\n"
    )
    assert [(r.heading, r.anchor, r.text) for r in rows] == [
        ("Overview", "overview", "Every firing has a named warden."),
        ("Gates", "gates", "Each gate has an owner."),
    ]
    assert rows[0].row_id == "page#overview"
    assert rows[0].reader_target == "/html/page.md#overview"
    artifact = load_package(tmp_path).artifacts[0]
    assert artifact.overview_anchor == "overview"
    assert any("before the first section is the row 'Overview'" in w for w in artifact.warnings)


def test_the_overview_takes_a_name_no_heading_of_the_page_uses(tmp_path: Path) -> None:
    rows = _rows(tmp_path, "Lead-in prose.\n\n## Overview\n\nThe real overview.\n")
    assert [(r.heading, r.anchor) for r in rows] == [
        ("Introduction", "introduction"),
        ("Overview", "overview"),
    ]


def test_a_heading_only_section_gets_a_row_naming_its_subsections(tmp_path: Path) -> None:
    body = (
        "## Firing schedules\n\n### Bisque firing\n\nSlow to 1000 degrees.\n\n"
        "### Glaze firing\n\nFast to 1240 degrees.\n\n## Safety\n\nGloves always.\n"
    )
    rows = _rows(tmp_path, body)
    assert [r.heading for r in rows] == [
        "Firing schedules",
        "Bisque firing",
        "Glaze firing",
        "Safety",
    ]
    assert rows[0].text == "This section has 2 parts: Bisque firing and Glaze firing."
    assert rows[0].reader_target == "/html/page.md#firing-schedules"
    warnings = load_package(tmp_path).warnings
    assert any("'Firing schedules' has no text of its own" in w for w in warnings)


def test_package_file_may_keep_heading_only_sections_without_a_row(tmp_path: Path) -> None:
    (tmp_path / "package.yaml").write_text("heading_only_sections: skip\n")
    body = "## Parent\n\n### Child\n\nChild text.\n"
    assert [r.heading for r in _rows(tmp_path, body)] == ["Child"]


def test_deeper_headings_stay_inside_their_section(tmp_path: Path) -> None:
    body = "## Firing\n\nIntro line.\n\n#### Cooling\n\nWait twelve hours.\n\n##### Vents\n\nOpen at 200.\n"
    rows = _rows(tmp_path, body)
    assert len(rows) == 1
    assert rows[0].text == "Intro line.\nCooling\nWait twelve hours.\nVents\nOpen at 200."


def test_duplicate_headings_are_renamed_in_order_with_a_warning(tmp_path: Path) -> None:
    body = "## Gates\n\nOne.\n\n## Gates\n\nTwo.\n\n### Gates\n\nThree.\n"
    rows = _rows(tmp_path, body)
    assert [r.anchor for r in rows] == ["gates", "gates-1", "gates-2"]
    assert [r.text for r in rows] == ["One.", "Two.", "Three."]
    warnings = load_package(tmp_path).warnings
    assert (
        "page.md: duplicate heading 'Gates' is anchored #gates-1 (#gates is taken by 'Gates')"
        in warnings
    )


def test_anchor_rules() -> None:
    anchors = PageAnchors()
    assert [anchors.claim(h) for h in ("Gates 1", "Gates", "Gates", "Gates")] == [
        "gates-1",
        "gates",
        "gates-2",  # gates-1 is taken by the heading "Gates 1"
        "gates-3",
    ]
    assert slug("概要") == "概要"
    assert slug("???") == "section"
    long_heading = "word " * 40
    assert slug(long_heading) == "-".join(["word"] * 40)  # never cut: links written to it resolve


def test_empty_sections_and_placeholders_warn_and_long_anchors_warn(tmp_path: Path) -> None:
    body = "## {{ page.title }}\n\nTemplate text.\n\n## TODO\n\n## " + "long " * 25 + "\n\nText.\n"
    rows = _rows(tmp_path, body)
    assert [r.heading for r in rows] == ["{{ page.title }}", ("long " * 25).strip()]
    warnings = "\n".join(load_package(tmp_path).warnings)
    assert "heading '{{ page.title }}' looks like a template placeholder" in warnings
    assert "section 'TODO' is empty (no row" in warnings
    assert "gives a 124-character anchor" in warnings


def test_a_very_long_section_warns(tmp_path: Path) -> None:
    _rows(tmp_path, "## Everything\n\n" + "word " * 1600 + "\n")
    assert any("'Everything' is 1600 words long" in w for w in load_package(tmp_path).warnings)


def test_a_page_without_front_matter_takes_title_topic_and_package_defaults(tmp_path: Path) -> None:
    (tmp_path / "package.yaml").write_text(DEFAULTS)
    (tmp_path / "guides").mkdir()
    (tmp_path / "guides" / "Getting_Started.md").write_text("Hello.\n\n## Setup\n\nInstall it.\n")
    (tmp_path / "kiln-care.md").write_text("# Caring for kilns\n\n## Setup\n\nVacuum it.\n")
    package = load_package(tmp_path)
    by_path = {a.source_path: a for a in package.artifacts}
    nested, titled = by_path["guides/Getting_Started.md"], by_path["kiln-care.md"]
    assert (nested.title, nested.topic) == ("Getting Started", "guides-getting_started")
    assert (titled.title, titled.topic) == ("Caring for kilns", "kiln-care")
    assert titled.source_family == "handbook"
    assert titled.source_quality == "team guidance"
    assert titled.claim_boundary == "Team practice only; it approves nothing."


def test_front_matter_wins_over_package_defaults(tmp_path: Path) -> None:
    (tmp_path / "package.yaml").write_text(DEFAULTS)
    write_artifact(tmp_path, "a.md", "## A\n\nText.\n")
    artifact = load_package(tmp_path).artifacts[0]
    assert artifact.source_family == "playbook-doctrine"
    assert artifact.claim_boundary == "Test guidance only; approves nothing."


def test_package_file_changes_the_package_version(tmp_path: Path) -> None:
    write_artifact(tmp_path, "a.md", "## A\n\nText.\n")
    before = load_package(tmp_path).version
    (tmp_path / "package.yaml").write_text("heading_only_sections: skip\n")
    assert load_package(tmp_path).version != before


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("defaults: [a]\n", "package.yaml: defaults must map front-matter keys to text"),
        ("defaults:\n  title: x\n", "package.yaml: defaults cannot set 'title'"),
        (
            "defaults:\n  claim_boundary: ''\n",
            "package.yaml: defaults.claim_boundary must be non-empty",
        ),
        (
            "heading_only_sections: maybe\n",
            "package.yaml: heading_only_sections must be one of row, skip",
        ),
        ("colour: blue\n", "package.yaml: unknown key 'colour'"),
        ("a: [\n", "package.yaml: not valid YAML"),
        ("a: &x 1\nb: *x\n", "package.yaml: not valid YAML"),
        ("- a\n", "package.yaml: must be a mapping"),
    ],
)
def test_a_broken_package_file_is_an_error(tmp_path: Path, text: str, expected: str) -> None:
    (tmp_path / "package.yaml").write_text(text)
    write_artifact(tmp_path, "a.md", "## A\n\nText.\n")
    with pytest.raises(PackageError) as exc:
        load_package(tmp_path)
    assert any(p.startswith(expected) for p in exc.value.problems), exc.value.problems


def test_required_values_nothing_provides_stay_errors(tmp_path: Path) -> None:
    (tmp_path / "package.yaml").write_text("defaults:\n  source_family: handbook\n")
    (tmp_path / "a.md").write_text("## A\n\nText.\n")
    with pytest.raises(PackageError) as exc:
        load_package(tmp_path)
    assert exc.value.problems == [
        "a.md: front matter is missing 'source_quality' (and package.yaml gives no default)",
        "a.md: front matter is missing 'claim_boundary' (and package.yaml gives no default)",
    ]


def test_a_non_text_title_is_still_an_error() -> None:
    raw = (
        b"---\ntitle: [a]\nsource_family: f\nsource_quality: q\nclaim_boundary: c\n---\n## A\n\nx\n"
    )
    with pytest.raises(PackageError, match="front matter is missing 'title'"):
        parse_artifact("x.md", raw)
