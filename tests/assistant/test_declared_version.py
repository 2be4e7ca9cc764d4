"""The package version as the package declares it; the content hash as detail."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings

from assistant.package.artifacts import PackageError, load_package
from assistant.package.declared_version import label
from assistant.retrieval import context_pack
from tests.conftest import write_artifact

BODY = "## Purpose\n\nThe package explains its purpose here in a sentence.\n"


def test_a_version_in_front_matter_is_the_packages_declared_version(tmp_path: Path) -> None:
    write_artifact(tmp_path, "overview.md", BODY, version="2.0.1")
    write_artifact(tmp_path, "other.md", BODY)
    package = load_package(tmp_path)
    assert package.declared_version == "2.0.1"
    assert re.fullmatch(r"[0-9a-f]{12}", package.version)  # the content hash stays the identity
    pack = context_pack.build(package)
    assert pack.version_label.shown == "2.0.1"
    assert pack.version_label.text == f"2.0.1 (content hash {package.version})"


def test_no_declared_version_shows_the_hash_and_two_versions_are_a_problem(
    tmp_path: Path,
) -> None:
    write_artifact(tmp_path, "overview.md", BODY)
    package = load_package(tmp_path)
    assert package.declared_version == ""
    shown = label(declared_version="", content_hash=package.version)
    assert (shown.shown, shown.declared, shown.text) == (package.version, False, package.version)
    write_artifact(tmp_path, "a.md", BODY, version="1.0.0", topic="a")
    write_artifact(tmp_path, "b.md", BODY, version="1.1.0", topic="b")
    with pytest.raises(PackageError, match="declare different package versions"):
        load_package(tmp_path)


def test_the_built_pack_keeps_the_declared_version(tmp_path: Path) -> None:
    write_artifact(tmp_path / "pkg", "overview.md", BODY, version="3.2.0")
    pack = context_pack.build(load_package(tmp_path / "pkg"))
    context_pack.write(pack, tmp_path / "pack")
    assert context_pack.read(tmp_path / "pack").declared_version == "3.2.0"


def test_the_sample_declares_the_version_its_own_text_cites() -> None:
    overview = (Path(settings.AICD_PACKAGE_DIR) / "package-overview.md").read_text()
    assert "package version 1.4.0" in overview
    assert load_package(Path(settings.AICD_PACKAGE_DIR)).declared_version == "1.4.0"


@pytest.mark.django_db
def test_reader_pages_show_the_declared_version_with_the_hash_as_detail(
    logged_in_client, built_sample_pack
) -> None:
    index = logged_in_client.get("/html/").content.decode()
    assert '<strong class="package-version">1.4.0</strong>' in index
    assert f"Content hash of this build: <code>{built_sample_pack.package_version}</code>" in index
    page = logged_in_client.get("/html/build-readiness.md").content.decode()
    assert re.search(r'class="package-version"[^>]*>1\.4\.0</span>', page)
