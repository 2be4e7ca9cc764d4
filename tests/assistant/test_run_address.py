"""Post/redirect/get: asking answers 303 to the run's address; reading it never asks again."""

from __future__ import annotations

import re
import uuid

import pytest
from django.test import Client

from assistant.web import history

IN_SCOPE = "who owns each stage gate?"
ADDRESS = re.compile(r"^/runs/([0-9a-f-]{36})#result-heading$")


def _ask(client, question: str = IN_SCOPE, **extra: object):
    return client.post("/", {"mode": "package_only", "question": question, **extra})


@pytest.mark.django_db
def test_asking_answers_303_to_the_runs_address(logged_in_client) -> None:
    response = _ask(logged_in_client)
    assert response.status_code == 303
    found = ADDRESS.match(response["Location"])
    assert found, response["Location"]
    assert response.content == b""
    [entry] = history.entries(logged_in_client.session)
    assert entry["run_id"] == found.group(1)
    page = logged_in_client.get(response["Location"].partition("#")[0])
    html = page.content.decode()
    assert page.status_code == 200 and "no-store" in page["Cache-Control"]
    assert f'data-run-id="{entry["run_id"]}"' in html
    assert "<h3>Package says</h3>" in html
    assert f"{IN_SCOPE}</textarea>" in html
    # The answer heading takes the focus on a run's page, not the question box.
    assert not re.search(r"<textarea[^>]*autofocus", html)
    assert re.search(r"<textarea[^>]*autofocus", logged_in_client.get("/").content.decode())


@pytest.mark.django_db
def test_reading_the_address_again_asks_nothing_and_adds_nothing(
    logged_in_client, monkeypatch
) -> None:
    address = _ask(logged_in_client)["Location"].partition("#")[0]

    def no_second_run(**kwargs: object) -> None:
        pytest.fail("reading a run's address asked the question again")

    monkeypatch.setattr("assistant.pipeline.services.answer", no_second_run)
    for _ in range(3):  # reload, Back, a history link
        assert logged_in_client.get(address).status_code == 200
    assert len(history.entries(logged_in_client.session)) == 1


@pytest.mark.django_db
def test_an_unknown_foreign_or_malformed_run_is_a_404_in_the_site_frame(
    logged_in_client, django_user_model, settings
) -> None:
    settings.DEBUG = False
    address = _ask(logged_in_client)["Location"].partition("#")[0]
    other = Client()
    other.force_login(django_user_model.objects.create_user(username="olga", password="x" * 20))
    for client, path in (
        (logged_in_client, f"/runs/{uuid.uuid4()}"),
        (logged_in_client, "/runs/not-a-run"),
        (other, address),  # another user's session does not hold it
        (logged_in_client, "/?run=not-a-run"),
    ):
        response = client.get(path, follow=True)
        assert response.status_code == 404, path
        html = response.content.decode()
        assert "There is no page at this address" in html and 'class="site-header"' in html
        assert "data-run-id" not in html


@pytest.mark.django_db
def test_the_former_query_address_redirects_to_the_runs_address(logged_in_client) -> None:
    address = _ask(logged_in_client)["Location"]
    run_id = ADDRESS.match(address).group(1)
    response = logged_in_client.get(f"/?run={run_id}")
    assert response.status_code == 302 and response["Location"] == address


@pytest.mark.django_db
def test_only_get_and_head_read_a_run(logged_in_client) -> None:
    address = _ask(logged_in_client)["Location"].partition("#")[0]
    assert logged_in_client.post(address).status_code == 405
    assert logged_in_client.head(address).status_code == 200


@pytest.mark.django_db
def test_a_form_error_is_shown_in_place_and_keeps_nothing(logged_in_client) -> None:
    response = logged_in_client.post("/", {"mode": "package_only", "question": ""})
    assert response.status_code == 200
    assert history.entries(logged_in_client.session) == []


@pytest.mark.django_db
def test_the_runs_page_ticks_the_sources_the_question_was_asked_with(logged_in_client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    logged_in_client.post("/session-sources/add", {"title": "Notes", "text": "Owner: Dana."})
    logged_in_client.post(
        "/session-sources/add", {"file": SimpleUploadedFile("minutes.txt", b"Gate 2 minutes.")}
    )
    address = _ask(logged_in_client, session_source_ids=["session-file-001"])
    html = logged_in_client.get(address["Location"].partition("#")[0]).content.decode()
    assert re.search(r'value="session-file-001" checked', html)
    assert re.search(r'value="session-paste-001">', html)  # left unticked, as it was asked
    [entry] = history.entries(logged_in_client.session)
    assert entry["session_source_ids"] == ["session-file-001"]


@pytest.mark.django_db
def test_history_entries_carry_when_they_were_asked_and_never_reach_the_database(
    logged_in_client,
) -> None:
    from django.contrib.sessions.models import Session

    _ask(logged_in_client)
    [entry] = history.entries(logged_in_client.session)
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00", entry["asked_at"])
    assert Session.objects.count() == 0
