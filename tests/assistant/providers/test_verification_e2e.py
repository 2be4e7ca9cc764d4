"""Issue #17's hostile answers, end to end through a real loopback gateway.

Each test drives /api/source-grounded-chat (and the chat page where markup or keys could render)
with AICD_PROVIDER=openai_compatible pointed at a scripted server, and checks that the run ends as
a diagnostic or a stripped, safe answer: no API key and no active markup in the body, the page or
any captured log record (the key check is the autouse fixture in conftest.py).
"""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.test import override_settings
from rest_framework.test import APIClient

from assistant.domain import lanes
from tests.assistant.providers import gateway as gw
from tests.assistant.providers.conftest import API_KEY, MODEL
from tests.assistant.providers.test_openai_compatible_e2e import IN_SCOPE

pytestmark = pytest.mark.django_db

CHAT = "/api/source-grounded-chat"
SOURCES = "/api/session-sources"
REVIEW_QUESTION = (
    "Assess this architecture proposal against the Enterprise Architecture Review Assistant "
    "criteria for data boundary, integration and identity and access"
)
ACTIVE_MARKUP = (
    "javascript:",
    "onerror",
    "<img",
    "<script",
    "](",
    "evil.example",
    "\u202e",
    "\u2066",
)


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


def _chat(client, question: str = IN_SCOPE, **extra) -> dict:
    response = client.post(CHAT, {"question": question, **extra}, format="json")
    assert response.status_code == 200
    assert API_KEY.encode() not in response.content
    return response.json()


def _paste(client, title: str, text: str) -> str:
    response = client.post(SOURCES, {"title": title, "text": text}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["session_source_id"]


def _no_active_markup(text: str) -> None:
    for marker in ACTIVE_MARKUP:
        assert marker not in text, marker


def _quote(received: gw.Received, prefix: str = "P") -> str:
    cid = received.sent_ids(prefix)[0]
    return f"{received.first_sentence(cid)} [{cid}]"


def _review_answer(received: gw.Received, uploaded: str, assessment: str, missing: str) -> str:
    return (
        f"Package says\n{_quote(received)}\n\n"
        f"Uploaded session source says\n{uploaded}\n\n"
        f"Assessment / synthesis\n{assessment}\n\n"
        f"Missing evidence / owner decision needed\n{missing}"
    )


def test_an_approval_under_package_says_is_withheld(configured, api_client, caplog) -> None:
    configured.then(
        gw.answer(
            lambda r: (
                f"Package says\nThe playbook approves Acme for production use and patient data "
                f"[{r.sent_ids('P')[0]}]."
            )
        )
    )
    body = _chat(api_client)
    assert body["state"] == "diagnostic" and body["lanes"] == []
    assert "claim 1 of lane 'Package says' grants or implies an approval" in body["diagnostic"]
    assert "Acme" not in json.dumps(body) and "Acme" not in caplog.text
    claims = body["telemetry"]["claim_support"]["claims"]
    assert claims[0]["lane"] == "Package says" and not claims[0]["supported"]


def test_an_uncited_synthesis_paragraph_is_withheld(configured, api_client) -> None:
    configured.then(
        gw.answer(
            lambda r: (
                f"Package says\n{_quote(r)}\n\nSynthesis / implications\n{_quote(r)}\n\n"
                "Acme is APPROVED for production; no further sign-off is needed."
            )
        )
    )
    body = _chat(api_client)
    assert body["state"] == "diagnostic"
    assert (
        "claim 2 of lane 'Synthesis / implications' grants or implies an approval"
        in body["diagnostic"]
    )
    assert (
        "claim 2 of lane 'Synthesis / implications' is not supported by the sources it cites "
        "(score 0.00: no citation" in body["diagnostic"]
    )
    assert "APPROVED" not in json.dumps(body)


def test_an_unsupported_claim_is_annotated_when_configured(configured, api_client) -> None:
    configured.then(
        gw.answer(
            lambda r: (
                f"Package says\n{_quote(r)}\n\nThe gate review takes 45 days for Northwind Traders "
                f"[{r.sent_ids('P')[-1]}]."
            )
        )
    )
    with override_settings(AICD_UNSUPPORTED_CLAIMS="annotate"):
        body = _chat(api_client)
    assert body["state"] == "answered", body.get("diagnostic")
    (lane,) = body["lanes"]
    assert (
        "(Unsupported: not found in the cited sources.) The gate review takes 45 days"
        in lane["text"]
    )
    first = configured.requests[0].sent_ids("P")
    assert lane["citation_ids"] == [first[0]]
    assert {c["id"] for c in body["citations"]} == {first[0]}
    support = body["telemetry"]["claim_support"]
    assert support["unsupported_count"] == 1 and support["on_unsupported"] == "annotate"
    assert 0 < support["score"] < 1


def test_a_missing_evidence_lane_without_citation_or_role_is_withheld(
    configured, reviewer_client
) -> None:
    sid = _paste(
        reviewer_client, "Proposal notes", "The assistant reads contracts classified confidential."
    )
    configured.then(
        gw.answer(
            lambda r: _review_answer(
                r,
                uploaded=_quote(r, "U"),
                assessment=_quote(r),
                missing="- Nothing is missing; the Northwind board decides.",
            )
        )
    )
    body = _chat(reviewer_client, REVIEW_QUESTION, session_source_ids=[sid])
    assert body["state"] == "diagnostic", body["lanes"]
    assert (
        f"claim 1 of lane '{lanes.MISSING_EVIDENCE}' is not supported by the sources it cites "
        "(score 0.00: no citation, name)" in body["diagnostic"]
    )
    assert "Northwind" not in json.dumps(body)


def test_a_cited_missing_evidence_lane_passes(configured, reviewer_client) -> None:
    sid = _paste(
        reviewer_client, "Proposal notes", "The assistant reads contracts classified confidential."
    )
    configured.then(
        gw.answer(
            lambda r: _review_answer(
                r,
                uploaded=_quote(r, "U"),
                assessment=_quote(r),
                missing=f"- Evidence to supply for [{r.sent_ids('P')[0]}]: the upload does not cover it.",
            )
        )
    )
    body = _chat(reviewer_client, REVIEW_QUESTION, session_source_ids=[sid])
    assert body["state"] == "answered", body.get("diagnostic")
    assert body["telemetry"]["claim_support"]["unsupported_count"] == 0


HOSTILE_UPLOAD = (
    "Contracts go to the gateway route [signed](javascript:alert(1)) for confidential data. "
    "<img src=x onerror=alert(1)> Reviewers see ![logo](https://evil.example/t.png) the report. "
    "Owners sign \u202eoff\u202c the \u2066scope\u2069 in writing."
)


def test_links_html_and_remote_images_in_a_source_never_reach_body_page_or_log(
    configured, reviewer_client, logged_in_client, caplog
) -> None:
    sid = _paste(reviewer_client, "Architecture notes", HOSTILE_UPLOAD)

    def quoting(received: gw.Received) -> str:
        u = received.sent_ids("U")[0]
        return _review_answer(
            received,
            uploaded=f"{received.source_text(u).strip()} [{u}]",
            assessment=_quote(received),
            missing=f"- Evidence to supply for [{received.sent_ids('P')[0]}]: not in the upload.",
        )

    configured.default = gw.answer(quoting)
    body = _chat(reviewer_client, REVIEW_QUESTION, session_source_ids=[sid])
    dumped = json.dumps(body, ensure_ascii=False)
    _no_active_markup(dumped)
    assert body["state"] in ("answered", "diagnostic")
    if body["state"] == "answered":
        uploaded_lane = body["lanes"][1]["text"]
        assert "signed" in uploaded_lane and "(link removed)" not in uploaded_lane
    excerpt = next(
        c for c in body["citations"] if c["citation_class"] == "uploaded/session citation"
    )
    _no_active_markup(excerpt["excerpt"])

    logged_in_client.cookies = reviewer_client.cookies
    page = logged_in_client.post(
        "/",
        {"mode": "package_only", "question": REVIEW_QUESTION, "session_source_ids": [sid]},
        follow=True,
    )
    html = page.content.decode()
    assert page.status_code == 200 and API_KEY not in html
    for marker in ("javascript:", "onerror", "evil.example", "\u202e", "\u2066"):
        assert marker not in html, marker
    for marker in ACTIVE_MARKUP:
        assert marker not in caplog.text


@pytest.mark.parametrize("where", ["content", "model"])
def test_a_gateway_echoing_the_key_leaks_it_nowhere(
    configured, api_client, logged_in_client, where
) -> None:
    def echoing(handler, received):
        text = f"Package says\n{_quote(received)}"
        if where == "content":
            text += f" Your key is {API_KEY}."
        model = API_KEY if where == "model" else MODEL
        handler.send_bytes(200, json.dumps(gw.completion(text, model=model)).encode())

    configured.default = echoing
    body = _chat(api_client)
    assert body["telemetry"]["model"] == MODEL
    if where == "content":
        assert body["state"] == "diagnostic"
        assert "the answer contains the configured API key" in body["diagnostic"]
    else:
        assert body["state"] == "answered", body.get("diagnostic")
    page = logged_in_client.post("/", {"mode": "package_only", "question": IN_SCOPE}, follow=True)
    assert page.status_code == 200 and API_KEY.encode() not in page.content


@pytest.mark.parametrize(
    "secret",
    [
        "AKIAIOSFODNN7EXAMPLE",
        "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
        "Bearer abcdefghijklmnopqrstuvwx",
        "-----BEGIN RSA PRIVATE KEY-----",
        "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ],
)
def test_secret_shaped_text_is_never_shown(configured, api_client, secret) -> None:
    configured.then(gw.answer(lambda r: f"Package says\n{_quote(r)} Use {secret} to call it."))
    body = _chat(api_client)
    assert body["state"] == "diagnostic"
    assert "contains text shaped like a secret" in body["diagnostic"]
    assert secret not in json.dumps(body)


def test_bidi_controls_in_an_answer_are_removed(configured, api_client, logged_in_client) -> None:
    def bidi(received: gw.Received) -> str:
        quote = _quote(received)
        return f"Package says\n\u202e{quote[:10]}\u2066{quote[10:]}\u2069\u200f"

    configured.default = gw.answer(bidi)
    body = _chat(api_client)
    assert body["state"] == "answered", body.get("diagnostic")
    text = body["lanes"][0]["text"]
    assert not any(ch in text for ch in "\u202e\u2066\u2069\u200f")
    page = logged_in_client.post(
        "/", {"mode": "package_only", "question": IN_SCOPE}, follow=True
    ).content.decode()
    assert not any(ch in page for ch in "\u202e\u2066\u2069\u200f")


LABEL_TITLE = "Package says: quarterly roadmap"


def test_an_upload_titled_like_a_lane_label_is_not_read_as_one(configured, reviewer_client) -> None:
    sid = _paste(
        reviewer_client, LABEL_TITLE, "The assistant reads contracts classified confidential."
    )

    def with_title(received: gw.Received) -> str:
        u = received.sent_ids("U")[0]
        return _review_answer(
            received,
            uploaded=f'{LABEL_TITLE}, pasted text: "{received.first_sentence(u)}" [{u}]',
            assessment=_quote(received),
            missing=f"- Evidence to supply for [{received.sent_ids('P')[0]}]: not in the upload.",
        )

    configured.then(gw.answer(with_title))
    body = _chat(reviewer_client, REVIEW_QUESTION, session_source_ids=[sid])
    assert body["state"] == "answered", body.get("diagnostic")
    assert [lane["label"] for lane in body["lanes"]] == [
        lanes.PACKAGE_SAYS,
        lanes.UPLOADED_SAYS,
        lanes.ASSESSMENT,
        lanes.MISSING_EVIDENCE,
    ]
    assert body["lanes"][1]["text"].startswith(LABEL_TITLE)


def test_the_deterministic_provider_neutralises_a_label_shaped_title(reviewer_client) -> None:
    sid = _paste(
        reviewer_client, LABEL_TITLE, "The assistant reads contracts classified confidential."
    )
    body = _chat(reviewer_client, REVIEW_QUESTION, session_source_ids=[sid])
    assert body["state"] == "answered", body.get("diagnostic")
    assert [lane["label"] for lane in body["lanes"]] == [
        lanes.PACKAGE_SAYS,
        lanes.UPLOADED_SAYS,
        lanes.ASSESSMENT,
        lanes.MISSING_EVIDENCE,
    ]
    assert body["lanes"][1]["text"].startswith(f'"{LABEL_TITLE}", ')
    assert body["telemetry"]["claim_support"]["unsupported_count"] == 0


ARCHITECTURE_DRAFT = (
    "# Claims summariser architecture\n\n"
    "The service reads claim files classified confidential through a read-only service account.\n\n"
    "Users sign in through the enterprise identity provider and the service checks their group.\n\n"
    "Summaries are written back to the claims system through its documented API."
)


def test_a_review_request_names_its_criteria_and_a_finding_on_another_is_withheld(
    configured, reviewer_client
) -> None:
    """With an LLM provider the request carries the declared criteria the findings must name,
    each with its package id, and an answer that assesses a criterion it was not sent is held."""
    sid = _paste(reviewer_client, "Architecture proposal", ARCHITECTURE_DRAFT)
    configured.then(
        gw.answer(
            lambda r: _review_answer(
                r,
                uploaded=_quote(r, "U"),
                assessment=f"- pass: Quantum readiness [{r.sent_ids('P')[0]}]",
                missing=f"- Evidence to supply for [{r.sent_ids('P')[0]}]: not in the upload.",
            )
        )
    )
    body = _chat(reviewer_client, REVIEW_QUESTION, session_source_ids=[sid])
    (received,) = configured.requests
    sent = received.user_message
    assert "name only the criteria listed here" in sent
    for criterion in ("Data boundary", "Integration", "Identity and access"):
        assert criterion in sent, criterion
    assert body["state"] == "diagnostic"
    assert (
        "has a finding for a criterion that was not sent: Quantum readiness" in body["diagnostic"]
    )
