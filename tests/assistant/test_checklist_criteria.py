"""Criteria derived from checklist sections, for a package that declares no review criteria."""

from __future__ import annotations

from collections.abc import Iterator
from io import StringIO
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from rest_framework.test import APIClient

from assistant.package import checklist_criteria
from assistant.package.artifacts import PackageError, load_package
from assistant.package.criteria import DRAFT_KINDS
from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval.context_pack import get_context_pack
from tests.assistant.test_static_site_package import serving
from tests.conftest import write_artifact
from tests.uploads.helpers import sources_from

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_package"
PAGERDUTY = ROOT / "data" / "packages" / "pagerduty-incident-response"
CHAT = "/api/source-grounded-chat"
SOURCES = "/api/session-sources"

LAUNCH = """## Purpose

How the support team launches a new self-service help page.

## Launch checklist

- Rollback plan: how the page is taken down again if the answers are wrong.
- A named owner for the help page after launch.
- Accessibility audit of the page with a screen reader.
"""

DRAFT = """# Proposal: self-service help page for password resets

## Ownership

Priya Shah is the named owner of the help page after launch.

## Accessibility

The page was checked with a screen reader; the accessibility audit found two issues, both fixed.
"""


@pytest.fixture
def launch_package(tmp_path: Path) -> Path:
    write_artifact(tmp_path / "pkg", "launch.md", LAUNCH)
    return tmp_path / "pkg"


@pytest.fixture
def served_launch(launch_package: Path, tmp_path: Path) -> Iterator[None]:
    with serving(launch_package, tmp_path / "pack"):
        yield


def _derived(package_dir: Path) -> checklist_criteria.Derived:
    return checklist_criteria.collect(load_package(package_dir).artifacts)[2]


def test_each_checklist_item_becomes_a_criterion_citing_its_section(launch_package: Path) -> None:
    review, problems, derived = checklist_criteria.collect(load_package(launch_package).artifacts)
    assert problems == [] and review.criteria == derived.criteria
    by_name = {c.name: c for c in review.criteria}
    assert list(by_name) == [
        "Rollback plan",  # the item's own label
        "Named owner for the help page",  # its opening words
        "Accessibility audit of the page",
    ]
    owner = by_name["Named owner for the help page"]
    assert owner.evidence_expected == "A named owner for the help page after launch"
    assert owner.requires == "person"  # the item asks for a named owner
    assert by_name["Rollback plan"].requires == ""  # it asks for no element
    assert {c.row_id for c in review.criteria} == {"launch#launch-checklist"}
    assert all(c.applies_to == DRAFT_KINDS for c in review.criteria)
    # Terms are the item's own phrases; the checklist's heading word names every item, none.
    assert "rollback plan" in by_name["Rollback plan"].terms
    assert "screen reader" in by_name["Accessibility audit of the page"].terms
    assert all(c.terms and not any("launch" in t for t in c.terms) for c in review.criteria)
    # Derived again from the same package, the criteria are the same.
    assert _derived(launch_package) == derived


def test_table_rows_are_items_and_an_owner_column_names_who_confirms(tmp_path: Path) -> None:
    write_artifact(
        tmp_path,
        "release.md",
        "## Release checklist\n\n| Item | Owner |\n|---|---|\n"
        "| Change freeze date agreed with the service desk | Release manager |\n"
        "| Load test against twice the expected peak | Platform team |\n",
    )
    criteria = _derived(tmp_path).criteria
    assert [(c.name, c.confirmed_by, c.requires) for c in criteria] == [
        ("Change freeze date agreed", "Release manager", "date"),
        ("Load test against twice the expected", "Platform team", ""),
    ]
    assert criteria[1].evidence_expected == "Load test against twice the expected peak"
    assert "load test" in criteria[1].terms


def test_declared_criteria_win_and_nothing_is_derived() -> None:
    review, _, derived = checklist_criteria.collect(load_package(SAMPLE).artifacts)
    assert derived == checklist_criteria.Derived()
    # The sample's retirement checklist is a checklist section, yet only declared rows count.
    assert {c.row_id for c in review.criteria} == {
        "build-readiness#readiness-checklist",
        "architecture-review-assistant#ea-review-criteria",
    }
    assert review == get_context_pack().review


def test_a_package_without_checklists_still_has_no_criteria(tmp_path: Path) -> None:
    write_artifact(tmp_path, "notes.md", "## Notes\n\n- Tea is in the cupboard.\n")
    assert _derived(tmp_path).criteria == ()


def test_derived_criteria_are_capped_in_document_order(tmp_path: Path) -> None:
    items = "\n".join(f"- Control {n}: evidence of safeguard {n} is filed." for n in range(1, 26))
    write_artifact(tmp_path, "controls.md", f"## Controls checklist\n\n{items}\n")
    derived = _derived(tmp_path)
    cap = checklist_criteria.MAX_DERIVED
    assert [c.name for c in derived.criteria] == [f"Control {n}" for n in range(1, cap + 1)]
    assert derived.left_out == 25 - cap
    out = StringIO()
    call_command("build_context_pack", "--check", "--package-dir", str(tmp_path), stdout=out)
    assert (
        f"{cap} review criteria derived from checklist sections ({25 - cap} further checklist "
        f"item(s) left out: at most {cap} are derived); the package declares none."
    ) in out.getvalue()


def test_the_check_reports_derived_criteria_as_information(launch_package: Path) -> None:
    out = StringIO()
    call_command("build_context_pack", "--check", "--package-dir", str(launch_package), stdout=out)
    printed = out.getvalue()
    assert "3 review criteria derived from checklist sections; the package declares none." in (
        printed
    )
    assert "warning" not in printed and "Package OK: 1 artifacts" in printed
    sample = StringIO()
    call_command("build_context_pack", "--check", "--package-dir", str(SAMPLE), stdout=sample)
    assert "derived" not in sample.getvalue()


def test_checklist_applies_to_limits_the_draft_kinds(tmp_path: Path) -> None:
    write_artifact(tmp_path, "launch.md", LAUNCH, checklist_applies_to="[prd]")
    review = checklist_criteria.collect(load_package(tmp_path).artifacts)[0]
    assert len(review.for_kind("prd")) == 3 and review.for_kind("poc_proposal") == ()
    write_artifact(tmp_path, "launch.md", LAUNCH, checklist_applies_to="[memo]")
    with pytest.raises(PackageError) as err:
        load_package(tmp_path)
    assert any(
        "checklist_applies_to names unknown draft kinds ['memo']" in p for p in err.value.problems
    )


@pytest.mark.django_db
def test_a_draft_is_reviewed_against_the_derived_checklist_through_the_api(
    served_launch: None, reviewer
) -> None:
    cache.clear()  # other tests' sessions are in the same local-memory cache
    client = APIClient()
    client.force_login(reviewer)
    pasted = client.post(
        SOURCES, {"title": "help-page-proposal.md", "text": DRAFT}, format="json"
    ).json()
    body = client.post(
        CHAT,
        {
            "question": "Review this draft against the launch checklist.",
            "session_source_ids": [pasted["session_source_id"]],
        },
        format="json",
    ).json()
    assert body["state"] == "answered"
    findings = {f["criterion"]: f for f in body["review"]["criteria"]}
    assert {name: f["status"] for name, f in findings.items()} == {
        "Rollback plan": "missing",
        "Named owner for the help page": "present",
        "Accessibility audit of the page": "present",
    }
    owner = findings["Named owner for the help page"]
    assert owner["evidence"]["text"] == (
        "Priya Shah is the named owner of the help page after launch."
    )
    assert findings["Rollback plan"]["evidence"] is None
    cited = {c["id"]: c for c in body["citations"]}
    for finding in findings.values():
        package = finding["package"]
        assert package["row_id"] == "launch#launch-checklist"
        assert package["reader_target"] == "/html/launch.md#launch-checklist"
        assert cited[package["citation_id"]]["reader_target"] == package["reader_target"]
    lanes = {lane["label"]: lane["text"] for lane in body["lanes"]}
    assert "- Missing: Rollback plan [" in lanes["Missing evidence / owner decision needed"]


@pytest.mark.django_db
def test_without_the_owner_sentence_the_owner_criterion_is_missing(served_launch: None) -> None:
    draft = DRAFT.replace("Priya Shah is the named owner of the help page after launch.\n", "")
    run = services.answer(
        question="Review this draft.",
        session_sources=sources_from(paste=("help-page-proposal.md", draft)),
        provider=DeterministicProvider(),
    )
    assert run.state.value == "answered" and run.review is not None
    statuses = {f["criterion"]: f["status"] for f in run.review.criteria}
    assert statuses["Named owner for the help page"] == "missing"
    assert statuses["Accessibility audit of the page"] == "present"


INCIDENT = """# Security incident report: credential stuffing on the customer portal

## What happened

On 4 March the customer portal saw a credential stuffing attack from a botnet.

## Response

We assembled the response team within ten minutes: the incident commander, two security engineers and the portal owner.
Affected instances were isolated from the load balancer and their disks were kept for forensic analysis.
The attack vector, a login endpoint without rate limiting, was cut off by a new rate limit.
"""


@pytest.mark.django_db
def test_a_converted_package_reviews_a_draft_against_its_checklist(tmp_path: Path) -> None:
    # PagerDuty's docs declare no review criteria; their security incident checklist serves.
    with serving(PAGERDUTY, tmp_path / "pack"):
        run = services.answer(
            question="Review this incident report against the security incident checklist.",
            session_sources=sources_from(paste=("portal-incident.md", INCIDENT)),
            provider=DeterministicProvider(),
        )
    assert run.state.value == "answered" and run.refusal is None and run.review is not None
    statuses = {f["criterion"]: f["status"] for f in run.review.criteria}
    assert len(statuses) == 14
    for done in ("Assemble the response team", "Isolate affected instances"):
        assert statuses[done] == "present", done
    for absent in ("Involve law enforcement", "External communication"):
        assert statuses[absent] == "missing", absent
    rows = {f["package"]["row_id"] for f in run.review.criteria}
    assert rows == {"during-security-incident-response#checklist"}
    assert all(f["package"]["citation_id"].startswith("P") for f in run.review.criteria)


def test_task_list_boxes_are_not_part_of_the_item(tmp_path: Path) -> None:
    write_artifact(
        tmp_path,
        "go-live.md",
        "## Go-live checklist\n\nTick each box:\n\n- [x] Backups restored once in staging.\n"
        "- [ ] Budget for the first month agreed.\n",
    )
    criteria = _derived(tmp_path).criteria
    assert [(c.name, c.requires) for c in criteria] == [
        ("Backups restored once in staging", ""),
        ("Budget for the first month agreed", "amount"),
    ]
    assert criteria[0].evidence_expected == "Backups restored once in staging"


@pytest.mark.django_db
def test_the_chat_page_shows_the_derived_checklist(served_launch: None, logged_in_client) -> None:
    import re
    from html import unescape

    from django.core.files.uploadedfile import SimpleUploadedFile

    logged_in_client.post(
        "/session-sources/add",
        {"file": SimpleUploadedFile("help-page-proposal.md", DRAFT.encode()), "title": ""},
    )
    html = logged_in_client.post(
        "/",
        {
            "mode": "package_only",
            "question": "Review this draft against the launch checklist.",
            "session_source_ids": ["session-file-001"],
        },
        follow=True,
    ).content.decode()
    rows = re.findall(r'<tr class="finding finding-([a-z-]+)".*?</tr>', html, re.S)
    assert rows == ["missing", "pass", "pass"]
    missing = re.search(r'<tr class="finding finding-missing".*?</tr>', html, re.S)
    assert missing is not None
    text = " ".join(unescape(re.sub(r"<[^>]+>", " ", missing.group(0))).split())
    assert text.startswith("Rollback plan missing Not found in the draft.")
    assert 'href="/html/launch.md#launch-checklist"' in missing.group(0)
