"""The owner-review page: configured report, paste and upload, per-record reasons, limits, escaping."""

from __future__ import annotations

import json
import re

import pytest
from bs4 import BeautifulSoup
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from registry_review.validation import MAX_REGISTRY_BYTES
from tests.registry_review.conftest import UNSAFE_CASES, nist_record

PAGE = "/registry-review/"


def _soup(response) -> BeautifulSoup:
    return BeautifulSoup(response.content.decode(), "html.parser")


def _rows(soup: BeautifulSoup) -> dict[str, dict[str, object]]:
    rows = {}
    for tr in soup.select("tr.record"):
        rows[tr["data-record-id"]] = {
            "valid": tr["data-valid"] == "true",
            "errors": [
                (li["data-field"], li["data-code"], li.get_text(" ", strip=True))
                for li in tr.select("ul.errors li")
            ],
            "warnings": [li["data-code"] for li in tr.select("ul.warnings li")],
            "text": tr.get_text(" ", strip=True),
        }
    return rows


def _padded_registry(size: int) -> str:
    """A valid registry padded with spaces to exactly ``size`` bytes."""
    text = json.dumps({"sources": [nist_record()]})
    return text + " " * (size - len(text))


@pytest.mark.django_db
def test_get_shows_the_configured_registry(owner_client, settings, template_text) -> None:
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = template_text
    soup = _soup(owner_client.get(PAGE))
    report = soup.select_one("#report")
    assert report["data-state"] == "valid"
    assert "Configured registry" in report.get_text()
    assert (
        soup.select_one("#adapter-outcome")
        .get_text(" ", strip=True)
        .endswith("ready with 1 source")
    )
    assert list(_rows(soup)) == ["nist-ai-rmf-public-framework-candidate"]


@pytest.mark.django_db
def test_get_with_nothing_configured_says_unconfigured(owner_client, settings) -> None:
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = ""
    soup = _soup(owner_client.get(PAGE))
    assert soup.select_one("#report")["data-state"] == "empty"
    assert "unconfigured" in soup.select_one("#adapter-outcome").get_text()
    assert "The registry has no records." in soup.get_text()


@pytest.mark.django_db
def test_form_has_csrf_token_and_states_the_size_limit(owner_client) -> None:
    soup = _soup(owner_client.get(PAGE))
    form = soup.select_one("form#registry-form")
    assert form["enctype"] == "multipart/form-data"
    assert form.select_one('input[name="csrfmiddlewaretoken"]')
    assert form.select_one('textarea[name="registry_json"]') and form.select_one(
        'input[type="file"][name="registry_file"]'
    )
    assert f"Size limit: 256 KiB ({MAX_REGISTRY_BYTES} bytes)" in form.get_text(" ", strip=True)
    file_label = form.select_one(f'label[for="{form.select_one("input[type=file]")["id"]}"]')
    assert file_label.get_text(strip=True) == "… or upload a .json file (up to 256 KiB)"


@pytest.mark.django_db
def test_pasting_the_template_registry_shows_it_valid(
    owner_client, template_text, no_network
) -> None:
    response = owner_client.post(PAGE, {"registry_json": template_text})
    assert response.status_code == 200
    soup = _soup(response)
    assert soup.select_one("#report")["data-state"] == "valid"
    assert "Submitted registry" in soup.select_one("#report-heading").get_text()
    row = _rows(soup)["nist-ai-rmf-public-framework-candidate"]
    assert row["valid"] is True and row["errors"] == [] and row["warnings"] == []
    for shown in (
        "https://www.nist.gov/itl/ai-risk-management-framework",
        "/itl/ai-risk-management-framework",
        "public standards-body framework page",
        "standards",
        "Govern Map Measure Manage",
    ):
        assert shown in row["text"]
    normalised = json.loads(soup.select_one("textarea#normalised-json").get_text())
    assert normalised == {"sources": [json.loads(template_text)["sources"][0]]}


@pytest.mark.django_db
def test_each_unsafe_record_is_flagged_with_its_reason(
    owner_client, unsafe_text, no_network
) -> None:
    soup = _soup(owner_client.post(PAGE, {"registry_json": unsafe_text}))
    assert soup.select_one("#report")["data-state"] == "invalid"
    rows = _rows(soup)
    assert rows["nist-ai-rmf"]["valid"] is True
    for record_id, _, code, field, reason in UNSAFE_CASES:
        row = rows[record_id]
        assert row["valid"] is False, record_id
        assert any(c == code and f == field and reason in text for f, c, text in row["errors"]), (
            record_id,
            row["errors"],
        )
    assert (
        "ready with 1 source (5 invalid records dropped)"
        in soup.select_one("#adapter-outcome").get_text()
    )
    normalised = json.loads(soup.select_one("textarea#normalised-json").get_text())
    assert [r["id"] for r in normalised["sources"]] == ["nist-ai-rmf"]


@pytest.mark.django_db
def test_json_syntax_error_is_reported_above_the_table_with_line_and_column(owner_client) -> None:
    soup = _soup(
        owner_client.post(PAGE, {"registry_json": '{\n  "sources": [\n    {"id": "a",}\n  ]\n}'})
    )
    problems = soup.select_one("#document-errors")
    assert problems is not None and soup.select("tr.record") == []
    assert re.search(r"line 3, column \d+", problems.get_text())
    assert soup.select_one("#report")["data-state"] == "invalid"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("registry", "code"),
    [
        ('["not", "an", "object"]', "not_object"),
        (
            '{"sources": ['
            + ",".join([json.dumps(nist_record(id=f"r{i}")) for i in range(51)])
            + "]}",
            "too_many_records",
        ),
    ],
)
def test_document_level_problems_are_listed_above_the_table(owner_client, registry, code) -> None:
    soup = _soup(owner_client.post(PAGE, {"registry_json": registry}))
    assert [li["data-code"] for li in soup.select("#document-errors li")] == [code]


@pytest.mark.django_db
def test_duplicate_ids_are_flagged_on_the_second_record(owner_client) -> None:
    text = json.dumps({"sources": [nist_record(), nist_record()]})
    soup = _soup(owner_client.post(PAGE, {"registry_json": text}))
    codes = [li["data-code"] for li in soup.select("tr.record-invalid ul.errors li")]
    assert codes == ["duplicate_id"]


@pytest.mark.django_db
def test_uploading_a_json_file_validates_it(owner_client, template_text, no_network) -> None:
    upload = SimpleUploadedFile(
        "registry.json", template_text.encode(), content_type="application/json"
    )
    soup = _soup(owner_client.post(PAGE, {"registry_file": upload}))
    assert soup.select_one("#report")["data-state"] == "valid"
    assert (
        soup.select_one('textarea[name="registry_json"]').get_text().strip() == ""
    )  # an upload is not echoed


@pytest.mark.django_db
def test_an_upload_over_the_limit_is_refused_with_both_sizes(owner_client) -> None:
    upload = SimpleUploadedFile("big.json", _padded_registry(MAX_REGISTRY_BYTES + 1).encode())
    response = owner_client.post(PAGE, {"registry_file": upload})
    assert response.status_code == 400
    message = _soup(response).select_one("form#registry-form .error").get_text()
    assert (
        f"The uploaded file is {MAX_REGISTRY_BYTES + 1:,} bytes; the limit is 256 KiB ({MAX_REGISTRY_BYTES} bytes)"
        in message
    )
    assert _soup(response).select_one("#report") is None


@pytest.mark.django_db
def test_an_upload_exactly_at_the_limit_is_validated(owner_client) -> None:
    upload = SimpleUploadedFile("edge.json", _padded_registry(MAX_REGISTRY_BYTES).encode())
    assert (
        _soup(owner_client.post(PAGE, {"registry_file": upload})).select_one("#report")[
            "data-state"
        ]
        == "valid"
    )


@pytest.mark.django_db
def test_a_paste_over_the_limit_is_refused(owner_client) -> None:
    response = owner_client.post(PAGE, {"registry_json": _padded_registry(MAX_REGISTRY_BYTES + 10)})
    assert response.status_code == 400
    assert (
        "the limit is 256 KiB" in _soup(response).select_one("form#registry-form .error").get_text()
    )


@pytest.mark.django_db
def test_a_request_body_far_over_the_limit_is_refused_unread(owner_client) -> None:
    upload = SimpleUploadedFile("huge.json", b" " * (3 * 1024 * 1024))
    response = owner_client.post(PAGE, {"registry_file": upload})
    assert response.status_code == 413
    assert "the limit is 256 KiB" in _soup(response).select_one("[data-refusal]").get_text()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({}, "Paste a registry or choose a .json file to upload."),
        (
            {"registry_file": SimpleUploadedFile("notes.txt", b'{"sources": []}')},
            "Upload a file whose name ends in .json.",
        ),
        (
            {
                "registry_file": SimpleUploadedFile(
                    "latin1.json", '{"sources": [], "owner": "Zo\xeb"}'.encode("latin-1")
                )
            },
            "is not UTF-8 text",
        ),
        (
            {
                "registry_json": '{"sources": []}',
                "registry_file": SimpleUploadedFile("r.json", b'{"sources": []}'),
            },
            "Paste a registry or upload a file, not both.",
        ),
    ],
)
def test_bad_submissions_get_a_specific_message(owner_client, data, message) -> None:
    response = owner_client.post(PAGE, data)
    assert response.status_code == 400
    assert message in _soup(response).select_one("form#registry-form").get_text()


@pytest.mark.django_db
def test_post_without_csrf_token_is_rejected(source_owner, template_text) -> None:
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(source_owner)
    assert strict.post(PAGE, {"registry_json": template_text}).status_code == 403
    token = _soup(strict.get(PAGE)).select_one('input[name="csrfmiddlewaretoken"]')["value"]
    upload = SimpleUploadedFile("registry.json", template_text.encode())
    response = strict.post(PAGE, {"csrfmiddlewaretoken": token, "registry_file": upload})
    assert response.status_code == 200
    assert _soup(response).select_one("#report")["data-state"] == "valid"


@pytest.mark.django_db
def test_everything_submitted_is_html_escaped(owner_client) -> None:
    hostile = "</textarea><script>alert(1)</script><img src=x onerror=alert(2)>"
    text = json.dumps(
        {"sources": [nist_record(title=hostile), nist_record(id="broken", url=hostile)]}
    )
    html = owner_client.post(PAGE, {"registry_json": text}).content.decode()
    assert "<script>alert(1)</script>" not in html and "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    soup = BeautifulSoup(html, "html.parser")
    assert soup.select("script") == soup.select(
        "script[src]"
    )  # only the static file, no inline script
    assert hostile in soup.select_one("textarea#normalised-json").get_text()


@pytest.mark.django_db
def test_the_response_is_not_cacheable(owner_client, template_text) -> None:
    response = owner_client.post(PAGE, {"registry_json": template_text})
    assert "no-store" in response["Cache-Control"]
    assert "script-src 'self'" in response["Content-Security-Policy"]


@pytest.mark.django_db
def test_broken_json_offers_nothing_to_copy(owner_client) -> None:
    soup = _soup(owner_client.post(PAGE, {"registry_json": '{"sources": ['}))
    assert soup.select_one("textarea#normalised-json") is None
    assert soup.select_one("#copy-normalised") is None
    assert "nothing to copy" in soup.select_one("#no-valid-records").get_text()


@pytest.mark.django_db
def test_every_cell_names_its_column_for_the_narrow_card_layout(
    owner_client, template_text
) -> None:
    soup = _soup(owner_client.post(PAGE, {"registry_json": template_text}))
    headers = [th.get_text() for th in soup.select(".registry-table thead th")]
    for row in soup.select(".registry-table tbody tr"):
        labels = [td.get("data-label") for td in row.select("td")]
        assert len(labels) == len(headers) and all(labels)
