"""One outcome per run and rails that mask (issue #30, items 4 and 5), through a loopback gateway.

A review run whose answer is withheld ends as a diagnostic and nothing else: no structured review
in the API body or ``manage.py ask --json``, no review checklist on the page, none in the review
packet. Secret-shaped text an answer quotes verbatim from the user's own upload is masked and the
answer stands; one the provider invents, or the configured key, still withholds the answer.
"""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.cache import cache
from django.core.management import call_command
from rest_framework.test import APIClient

from tests.assistant.providers import gateway as gw
from tests.assistant.providers.conftest import API_KEY
from tests.assistant.providers.test_verification_e2e import ARCHITECTURE_DRAFT, REVIEW_QUESTION

pytestmark = pytest.mark.django_db

CHAT = "/api/source-grounded-chat"
SOURCES = "/api/session-sources"


@pytest.fixture(autouse=True)
def _fresh_pack_cache():
    """These tests never change the package, so the loaded context pack is kept between them."""
    yield


@pytest.fixture
def reviewer_client(reviewer) -> APIClient:
    cache.clear()
    client = APIClient()
    client.force_login(reviewer)
    return client


def _paste(client: APIClient, title: str, text: str) -> str:
    response = client.post(SOURCES, {"title": title, "text": text}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["session_source_id"]


def _unshaped(received: gw.Received) -> str:
    """An answer that fails the lane check: one lane, no citation."""
    return "Package says\nThe draft looks fine to me."


def _quoting(received: gw.Received) -> str:
    """A review answer that passes: each lane quotes a sentence of a source it cites."""

    def quote(cid: str) -> str:
        return f"{received.first_sentence(cid)} [{cid}]"

    p, u = received.sent_ids("P")[0], received.sent_ids("U")[0]
    return (
        f"Package says\n{quote(p)}\n\nUploaded session source says\n{quote(u)}\n\n"
        f"Assessment / synthesis\n{quote(p)}\n\n"
        f"Missing evidence / owner decision needed\n- Evidence to supply for [{p}]: not in the upload."
    )


def test_a_withheld_review_returns_no_review_in_body_page_or_packet(
    configured, reviewer_client, logged_in_client
) -> None:
    sid = _paste(reviewer_client, "Architecture proposal", ARCHITECTURE_DRAFT)
    configured.default = gw.answer(_unshaped)

    response = reviewer_client.post(
        CHAT, {"question": REVIEW_QUESTION, "session_source_ids": [sid]}, format="json"
    )
    assert response.status_code == 200
    body = response.json()
    assert body["state"] == "diagnostic" and body["lanes"] == []
    assert body["review"] is None
    # The review was planned: the request carried the declared criteria to the provider.
    assert "Data boundary" in configured.requests[-1].user_message

    logged_in_client.cookies = reviewer_client.cookies
    page = logged_in_client.post(
        "/",
        {"mode": "package_only", "question": REVIEW_QUESTION, "session_source_ids": [sid]},
        follow=True,
    )
    html = page.content.decode()
    assert page.status_code == 200
    assert "did not pass verification" in html
    assert 'id="checklist"' not in html and "Review checklist" not in html
    run_path = page.redirect_chain[-1][0].split("#")[0]
    packet = logged_in_client.get(f"{run_path}/packet.md")
    assert packet.status_code == 200
    text = packet.content.decode()
    assert "Review checklist" not in text
    assert "No answer lanes" in text


def test_an_answered_review_still_carries_its_review(
    configured, reviewer_client, logged_in_client
) -> None:
    """The other side: the same review, answered, returns its structured review everywhere."""
    sid = _paste(reviewer_client, "Architecture proposal", ARCHITECTURE_DRAFT)
    configured.default = gw.answer(_quoting)

    body = reviewer_client.post(
        CHAT, {"question": REVIEW_QUESTION, "session_source_ids": [sid]}, format="json"
    ).json()
    assert body["state"] == "answered", body.get("diagnostic")
    criteria = [f["criterion"] for f in body["review"]["criteria"]]
    assert "Data boundary" in criteria

    logged_in_client.cookies = reviewer_client.cookies
    page = logged_in_client.post(
        "/",
        {"mode": "package_only", "question": REVIEW_QUESTION, "session_source_ids": [sid]},
        follow=True,
    )
    html = page.content.decode()
    assert 'id="checklist"' in html and re.search(r"Review checklist: [\w ]+", html)
    run_path = page.redirect_chain[-1][0].split("#")[0]
    assert "Review checklist" in logged_in_client.get(f"{run_path}/packet.md").content.decode()


def test_a_withheld_review_from_the_command_line_returns_no_review(configured, tmp_path) -> None:
    draft = tmp_path / "architecture-proposal.md"
    draft.write_text(ARCHITECTURE_DRAFT, encoding="utf-8")
    configured.default = gw.answer(_unshaped)
    out = StringIO()
    call_command("ask", REVIEW_QUESTION, "--source", str(draft), "--json", stdout=out)
    body = json.loads(out.getvalue())
    assert body["state"] == "diagnostic" and body["review"] is None
    assert "Data boundary" in configured.requests[-1].user_message


# ------------------------------------------------------------------- rails that mask (item 5)
#: A build id shaped like a secret (a 32-character mixed token of high entropy), in the user's
#: own draft: quoting it is quoting the user, so it is masked and the answer stands.
OWN_TOKEN = "7fQ9xLm2Rt8VbN3kPz6WcY1hJd4GsA5e"
DRAFT_WITH_TOKEN = (
    "# Claims summariser architecture\n\n"
    f"The release manifest pins the gateway client to build {OWN_TOKEN} for the pilot.\n\n"
    "Users sign in through the enterprise identity provider and the service checks their group."
)
INVENTED_TOKEN = "Zk3Lq8Vw2Nx7Rb5Tm9Pc4Hd6Gj1Fs0Ya"


def _review_quoting(received: gw.Received, uploaded: str) -> str:
    p = received.sent_ids("P")[0]
    package = f"{received.first_sentence(p)} [{p}]"
    return (
        f"Package says\n{package}\n\nUploaded session source says\n{uploaded}\n\n"
        f"Assessment / synthesis\n{package}\n\n"
        f"Missing evidence / owner decision needed\n- Evidence to supply for [{p}]: not in the upload."
    )


def _token_sentence(received: gw.Received) -> str:
    for u in received.sent_ids("U"):
        for line in received.source_text(u).splitlines():
            if OWN_TOKEN in line:
                return f"{line.strip()} [{u}]"
    raise AssertionError("the draft's token sentence was not sent")


def test_a_secret_shaped_token_quoted_from_the_users_draft_is_masked_and_the_answer_stands(
    configured, reviewer_client, logged_in_client
) -> None:
    sid = _paste(reviewer_client, "Architecture proposal", DRAFT_WITH_TOKEN)
    configured.default = gw.answer(lambda r: _review_quoting(r, _token_sentence(r)))
    body = reviewer_client.post(
        CHAT, {"question": REVIEW_QUESTION, "session_source_ids": [sid]}, format="json"
    ).json()
    assert body["state"] == "answered", body.get("diagnostic")
    uploaded = next(x for x in body["lanes"] if x["label"] == "Uploaded session source says")
    assert (
        "pins the gateway client to build [masked: looks like a secret] for the pilot"
        in uploaded["text"]
    )
    assert OWN_TOKEN not in json.dumps(body)

    logged_in_client.cookies = reviewer_client.cookies
    page = logged_in_client.post(
        "/",
        {"mode": "package_only", "question": REVIEW_QUESTION, "session_source_ids": [sid]},
        follow=True,
    )
    html = page.content.decode()
    assert "[masked: looks like a secret]" in html and OWN_TOKEN not in html


def test_a_secret_shaped_token_the_provider_invents_is_still_withheld(
    configured, reviewer_client
) -> None:
    sid = _paste(reviewer_client, "Architecture proposal", DRAFT_WITH_TOKEN)
    configured.default = gw.answer(
        lambda r: _review_quoting(r, _token_sentence(r).replace(OWN_TOKEN, INVENTED_TOKEN))
    )
    body = reviewer_client.post(
        CHAT, {"question": REVIEW_QUESTION, "session_source_ids": [sid]}, format="json"
    ).json()
    assert body["state"] == "diagnostic" and body["review"] is None
    assert (
        "lane 'Uploaded session source says' contains text shaped like a secret "
        "(high-entropy token)" in body["diagnostic"]
    )
    assert INVENTED_TOKEN not in json.dumps(body)


def test_the_configured_key_is_withheld_even_when_the_users_draft_holds_it(
    configured, reviewer_client
) -> None:
    """The key is never maskable-through: a draft that holds it does not make quoting it safe."""
    sid = _paste(
        reviewer_client,
        "Architecture proposal",
        DRAFT_WITH_TOKEN.replace(OWN_TOKEN, API_KEY),
    )
    configured.default = gw.answer(
        lambda r: _review_quoting(
            r,
            next(
                f"{line.strip()} [{u}]"
                for u in r.sent_ids("U")
                for line in r.source_text(u).splitlines()
                if "release manifest" in line
            ),
        )
    )
    response = reviewer_client.post(
        CHAT, {"question": REVIEW_QUESTION, "session_source_ids": [sid]}, format="json"
    )
    body = response.json()
    assert body["state"] == "diagnostic" and body["lanes"] == []
    assert "the answer contains the configured API key" in body["diagnostic"]
    assert API_KEY.encode() not in response.content
