"""Package parsing and `build_context_pack --check`: rows, anchors and every broken-artifact error."""

from __future__ import annotations

from io import StringIO
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import CommandError, call_command

from assistant.package.artifacts import PackageError, load_package, parse_artifact
from tests.conftest import write_artifact

GOOD = (
    "## Stage gates\n\nEach gate has an owner.\n\n## Exit criteria\n\n- kill early\n- record why\n"
)


def test_sections_become_rows_with_reader_targets(tmp_path: Path) -> None:
    write_artifact(tmp_path, "lifecycle.md", GOOD, title="Lifecycle")
    package = load_package(tmp_path)
    rows = package.rows()
    assert [r.heading for r in rows] == ["Stage gates", "Exit criteria"]
    first = rows[0]
    assert first.row_id == "lifecycle#stage-gates"
    assert first.reader_target == "/html/lifecycle.md#stage-gates"
    assert first.source_path == "lifecycle.md"
    assert first.source_family == "playbook-doctrine"
    assert first.source_quality == "approved package guidance"
    assert first.claim_boundary == "Test guidance only; approves nothing."
    assert rows[1].text == "- kill early\n- record why"  # list items keep their markers


def test_version_changes_with_content(tmp_path: Path) -> None:
    path = write_artifact(tmp_path, "a.md", GOOD)
    before = load_package(tmp_path).version
    path.write_text(path.read_text().replace("owner", "named owner"))
    assert load_package(tmp_path).version != before


@pytest.mark.parametrize(
    ("body", "meta", "expected"),
    [
        (GOOD, {"claim_boundary": None}, "front matter is missing 'claim_boundary'"),
        (GOOD, {"source_quality": None}, "front matter is missing 'source_quality'"),
        (GOOD, {"topic_number": "two"}, "topic_number must be an integer"),
        (GOOD, {"topic": "Not A Slug"}, "topic must be a slug"),
        ("## Gates\n\n## Next\n\n", {}, "no text to cite"),
    ],
)
def test_broken_artifacts_are_reported(
    tmp_path: Path, body: str, meta: dict, expected: str
) -> None:
    write_artifact(tmp_path, "broken.md", body, **meta)
    with pytest.raises(PackageError) as exc:
        load_package(tmp_path)
    assert any(expected in p for p in exc.value.problems), exc.value.problems
    assert all(p.startswith("broken.md:") for p in exc.value.problems)


def test_missing_front_matter_and_bad_encoding() -> None:
    # A page without front matter takes its title from its "#" heading; nothing gives the rest.
    with pytest.raises(PackageError) as exc:
        parse_artifact("x.md", b"# T\n\n## A\n\ntext\n")
    assert exc.value.problems == [
        f"x.md: front matter is missing {key!r} (and package.yaml gives no default)"
        for key in ("source_family", "source_quality", "claim_boundary")
    ]
    with pytest.raises(PackageError, match="not UTF-8"):
        parse_artifact("x.md", b"---\ntitle: x\n---\n\xff\xfe")


def test_check_command_fails_with_every_problem(tmp_path: Path) -> None:
    write_artifact(tmp_path, "one.md", "## A\n\n## B\n", topic="One")
    write_artifact(tmp_path, "two.md", GOOD, source_family=None)
    with pytest.raises(CommandError) as exc:
        call_command("build_context_pack", "--check", "--package-dir", str(tmp_path))
    message = str(exc.value)
    assert "one.md: no text to cite" in message
    assert "one.md: topic must be a slug" in message
    assert "two.md: front matter is missing 'source_family'" in message


def test_check_command_passes_on_sample_and_writes_nothing(tmp_path: Path) -> None:
    out = StringIO()
    call_command("build_context_pack", "--check", "--out", str(tmp_path / "pack"), stdout=out)
    assert "Package OK" in out.getvalue()
    assert not (tmp_path / "pack").exists()


def test_build_writes_a_loadable_pack(tmp_path: Path) -> None:
    out = StringIO()
    call_command("build_context_pack", "--out", str(tmp_path / "pack"), stdout=out)
    assert (tmp_path / "pack" / "manifest.json").exists()
    assert (tmp_path / "pack" / "index" / "bm25").is_dir()
    assert "Context pack built" in out.getvalue()


def test_sample_package_covers_every_mission_topic() -> None:
    package = load_package(Path(settings.AICD_PACKAGE_DIR))
    numbers = {a.topic_number for a in package.artifacts}
    assert set(range(1, 15)) <= numbers
    assert "glossary" in {a.topic for a in package.artifacts}
    assert len(package.rows()) >= 120
    assert package.glossary_synonyms(), "the glossary must list 'Also called:' synonyms"
