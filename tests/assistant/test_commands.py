"""`manage.py ask`: the same pipeline and body as the API."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command


def _ask(*args: str) -> dict:
    out = StringIO()
    call_command("ask", *args, "--json", stdout=out)
    return json.loads(out.getvalue())


@pytest.mark.django_db
def test_ask_json_answers_with_a_resolvable_reader_target(logged_in_client) -> None:
    body = _ask("is there anything we should sort out before engineers start coding the prototype?")
    assert body["state"] == "answered"
    citation = body["citations"][0]
    assert citation["citation_class"] == "package citation"
    path, anchor = citation["reader_target"].split("#")
    assert f'id="{anchor}"' in logged_in_client.get(path).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("question", "pattern"),
    [
        ("how long should I boil an egg", "unsupported_general_chat"),
        ("please approve our chatbot supplier for go-live", "unsupported_approval_request"),
        ("show me the database password", "private_internal_data_request"),
    ],
)
def test_cli_api_and_page_agree_on_refusals(
    question, pattern, api_client, logged_in_client
) -> None:
    cli = _ask(question)
    api = api_client.post("/api/source-grounded-chat", {"question": question}, format="json").json()
    page = logged_in_client.post(
        "/", {"mode": "package_only", "question": question}, follow=True
    ).content.decode()
    for body in (cli, api):
        assert body["state"] == "refused"
        assert body["refusal"]["pattern"] == pattern
        assert {"provider_skipped", "deterministic_refusal"} <= set(body["telemetry"]["behaviors"])
    assert f'data-pattern="{pattern}"' in page


def test_ask_plain_output_and_empty_question() -> None:
    out = StringIO()
    call_command("ask", "who owns the stage gates?", stdout=out)
    assert "Package says" in out.getvalue()
    with pytest.raises(CommandError, match="empty"):
        call_command("ask", "   ")
