"""A docs folder as a static-site generator keeps it (``tests/fixtures/static_site_docs``),
served as it comes: ``--check`` warns and succeeds, questions are answered with citations of
its overview and heading-only rows, and its reader pages link its pages to each other."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.test import override_settings

from assistant.package.artifacts import load_package
from assistant.pipeline import services
from tests.conftest import write_artifact

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "tests" / "fixtures" / "static_site_docs"
CHAT = "/api/source-grounded-chat"


@contextmanager
def serving(package_dir: Path, pack_dir: Path) -> Iterator[None]:
    """Serve ``package_dir`` as the configured package, its pack built by the command."""
    with override_settings(AICD_PACKAGE_DIR=str(package_dir), AICD_CONTEXT_PACK_DIR=str(pack_dir)):
        call_command("build_context_pack", stdout=StringIO())
        yield


@pytest.fixture
def served_docs(tmp_path: Path) -> Iterator[None]:
    with serving(DOCS, tmp_path / "pack"):
        yield


def test_the_docs_folder_loads_with_overview_parent_and_renamed_rows() -> None:
    package = load_package(DOCS)
    rows = {row.row_id: row for row in package.rows()}
    # Pages without front matter take the "#" title and package.yaml's defaults; the one page
    # with front matter overrides only what it sets.
    titles = {a.source_path: (a.title, a.source_quality) for a in package.artifacts}
    assert titles == {
        "index.md": ("Kiln Studio Handbook", "studio committee guidance"),
        "safety.md": ("Kiln safety", "studio committee guidance"),
        "guides/loading.md": ("Loading the kiln", "studio volunteer notes"),
    }
    assert rows["index#overview"].text.startswith("This handbook is for members")
    assert rows["index#firing-schedules"].text == (
        "This section has 2 parts: Bisque firing and Glaze firing."
    )
    # "####" headings stay inside their section, as lines of its text.
    assert "Candling\nWork that still feels cool" in rows["index#bisque-firing"].text
    assert "When unloading\nWear the gloves" in rows["safety#protective-equipment"].text
    # The second "Checklist" of the page is renamed, as site generators do.
    assert rows["safety#checklist"].text.startswith("- The extraction fan")
    assert rows["safety#checklist-1"].text.startswith("- Gloves are on")
    # A link's text stays in the row; its address does not.
    assert "Check the glaze firing schedule and the ventilation rules" in (
        rows["guides-loading#overview"].text
    )
    assert ".md" not in rows["guides-loading#overview"].text


def test_check_lists_the_warnings_with_their_files_and_succeeds() -> None:
    out = StringIO()
    call_command("build_context_pack", "--check", "--package-dir", str(DOCS), stdout=out)
    printed = out.getvalue()
    assert "5 warning(s):" in printed
    for warning in (
        "index.md: the text before the first section is the row 'Overview' (#overview)",
        "index.md: section 'Firing schedules' has no text of its own; its row names its 2 parts",
        "safety.md: duplicate heading 'Checklist' is anchored #checklist-1",
        "guides/loading.md: the text before the first section is the row 'Overview'",
    ):
        assert warning in printed
    assert "Package OK: 3 artifacts, 13 sections" in printed


def test_check_exits_zero_from_the_command_line_on_warnings_only() -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", "build_context_pack", "--check", "--package-dir", str(DOCS)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "5 warning(s):" in done.stdout


def test_a_broken_page_beside_it_still_fails_the_check(tmp_path: Path) -> None:
    (tmp_path / "docs").mkdir()
    for path in DOCS.rglob("*"):
        if path.is_file():
            target = tmp_path / "docs" / path.relative_to(DOCS)
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(path.read_bytes())
    (tmp_path / "docs" / "broken.md").write_text("---\ntopic: Not A Slug\n---\n## A\n\ntext\n")
    out = StringIO()
    with pytest.raises(CommandError, match="broken.md: topic must be a slug") as exc:
        call_command(
            "build_context_pack", "--check", "--package-dir", str(tmp_path / "docs"), stdout=out
        )
    assert "1 problem(s)" in str(exc.value)
    assert "index.md: section 'Firing schedules' has no text of its own" in out.getvalue()


@pytest.mark.django_db
def test_a_question_is_answered_from_the_overview_row(served_docs: None) -> None:
    run = services.answer(question="Who signs the kiln log after a firing?")
    assert run.state == "answered"
    lead = run.citations[0]
    assert lead.fields["reader_target"] == "/html/index.md#overview"
    assert lead.title == "Kiln Studio Handbook — Overview"
    assert "signs the kiln log" in run.lanes[0].text


@pytest.mark.django_db
def test_a_question_is_answered_from_the_heading_only_parent_row(served_docs: None) -> None:
    run = services.answer(question="What parts do the firing schedules have?")
    assert run.state == "answered"
    targets = [c.fields["reader_target"] for c in run.citations]
    assert targets[0] == "/html/index.md#firing-schedules"
    assert "Bisque firing and Glaze firing" in run.lanes[0].text


@pytest.mark.django_db
def test_a_cited_overview_opens_at_its_heading_on_the_reader_page(
    served_docs: None, api_client, logged_in_client
) -> None:
    body = api_client.post(
        CHAT, {"question": "Who signs the kiln log after a firing?"}, format="json"
    ).json()
    assert body["state"] == "answered"
    target = body["citations"][0]["reader_target"]
    path, anchor = target.split("#")
    page = logged_in_client.get(path).content.decode()
    assert f'<h2 id="{anchor}" class="section-heading">Overview</h2>' in page


@pytest.mark.django_db
def test_every_row_has_its_anchor_on_its_reader_page(served_docs: None, logged_in_client) -> None:
    for artifact in load_package(DOCS).artifacts:
        page = logged_in_client.get(artifact.reader_path).content.decode()
        ids = re.findall(r'<h[23] id="([^"]+)" class="section-heading"', page)
        assert ids == [s.anchor for s in artifact.sections], artifact.source_path


@pytest.mark.django_db
def test_links_to_other_pages_become_reader_links(served_docs: None, logged_in_client) -> None:
    index = logged_in_client.get("/html/index.md").content.decode()
    assert '<a href="/html/safety.md">safety rules</a>' in index
    assert '<a href="/html/guides/loading.md">loading guide</a>' in index
    assert '<a href="/html/guides/loading.md#preparing-shelves">preparing shelves</a>' in index
    loading = logged_in_client.get("/html/guides/loading.md").content.decode()
    # "../index.md#anchor" and the published form "../safety/#anchor" both find the page.
    assert '<a href="/html/index.md#glaze-firing">glaze firing schedule</a>' in loading
    assert '<a href="/html/safety.md#ventilation">ventilation rules</a>' in loading
    # The reader links open pages that exist, at headings that exist.
    for href in re.findall(r'href="(/html/[^"]+)"', index + loading):
        path, _, anchor = href.partition("#")
        page = logged_in_client.get(path)
        assert page.status_code == 200, href
        assert not anchor or f'id="{anchor}"' in page.content.decode(), href


@pytest.mark.django_db
def test_an_external_link_stays_as_written(served_docs: None, logged_in_client) -> None:
    index = logged_in_client.get("/html/index.md").content.decode()
    assert '<a href="https://example.org/kiln-manual">operating manual</a>' in index


@pytest.mark.django_db
def test_unsafe_and_unknown_links_show_as_text_only(tmp_path: Path, logged_in_client) -> None:
    write_artifact(
        tmp_path / "pkg",
        "page.md",
        "## Links\n\n"
        "A [script link](javascript:alert(1)), a [data link](data:text/html,x), an "
        "[outside file](../../etc/passwd.md), a [missing page](nowhere.md#top), a "
        "[mail link](mailto:studio@example.org) and <a href='https://evil.example'>raw</a>.\n",
    )
    with serving(tmp_path / "pkg", tmp_path / "pack"):
        page = logged_in_client.get("/html/page.md").content.decode()
    body = page[page.index('class="artifact-body"') :]
    hrefs = re.findall(r'<a href="([^"]*)"', body)
    assert hrefs == ["mailto:studio@example.org"]
    for text in ("script link", "data link", "outside file", "missing page"):
        assert text in body
    assert "&lt;a href=" in body  # raw HTML shows as text, never as a link
