"""What the chat page says about its history, removed sources and dead ends."""

from __future__ import annotations

import re
import uuid

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from assistant.pipeline.policy import Pattern
from assistant.retrieval import context_pack
from assistant.web import history, refusal_guidance
from tests.assistant.test_views_presentation import visible_text

DRAFT = b"# Draft\n\n## Stage gates\n\nThe product owner owns the stage gate decision.\n"
REVIEW = "who owns the stage gate decision?"
NOT_COVERED = "how do we configure Bedrock guardrails?"


def _ask(client, question: str, **extra: object) -> str:
    response = client.post("/", {"mode": "package_only", "question": question, **extra})
    assert response.status_code == 303
    return response["Location"].partition("#")[0]


def _review_of_an_upload(client) -> str:
    client.post("/session-sources/add", {"file": SimpleUploadedFile("draft.md", DRAFT)})
    return _ask(client, REVIEW, session_source_ids=["session-file-001"])


@pytest.mark.django_db
def test_a_review_stays_listed_marked_source_removed_after_its_source_goes(
    logged_in_client,
) -> None:
    address = _review_of_an_upload(logged_in_client)
    run_id = address.rsplit("/", 1)[1]
    logged_in_client.post("/session-sources/session-file-001/remove")
    html = logged_in_client.get("/").content.decode()
    item = re.search(r'<li class="history-item[^"]*"[^>]*>.*?</li>', html, re.S).group(0)
    assert REVIEW in item and "source removed" in item
    assert "owns the stage gate decision." not in html  # nothing of the draft remains
    # Its address says what happened and offers the question again, not a 404.
    page = logged_in_client.get(address)
    text = visible_text(page.content.decode())
    assert page.status_code == 200
    assert "This answer went with its session source" in text
    assert f"{REVIEW}</textarea>" in page.content.decode()
    # Its packet and its reader marks went with it.
    assert logged_in_client.get(f"/runs/{run_id}/packet.md").status_code == 404
    assert history.find(logged_in_client.session, run_id) is None


@pytest.mark.django_db
def test_removal_notices_name_the_source_by_title_and_say_what_it_takes(
    logged_in_client,
) -> None:
    logged_in_client.post(
        "/session-sources/add", {"file": SimpleUploadedFile("draft.md", DRAFT), "title": "PRD v3"}
    )
    logged_in_client.get("/")  # shows (and so consumes) the "Added" confirmation
    logged_in_client.post("/session-sources/session-file-001/remove")
    text = visible_text(logged_in_client.get("/").content.decode())
    assert "Removed “PRD v3” from this session." in text
    assert "session-file-001" not in text
    assert "stays in your history, marked “source removed”, without its text" in text


@pytest.mark.django_db
def test_remove_clear_all_and_clear_history_are_two_step_forms(logged_in_client) -> None:
    _review_of_an_upload(logged_in_client)
    html = logged_in_client.get("/").content.decode()
    for summary, question, button in (
        ("Remove", "Remove “draft.md” and its extracted text from this session?", "Yes, remove"),
        (
            "Clear all session sources…",
            "Remove the one session source (“draft.md”) and its text from this session?",
            "Yes, clear all session sources",
        ),
        (
            "Clear this session's history…",
            "This forgets the question and answer listed above, with its review packet.",
            "Yes, clear the history",
        ),
    ):
        found = re.search(
            r'<details class="confirm[^"]*"[^>]*>\s*<summary>'
            + re.escape(summary)
            + r".*?</details>",
            html,
            re.S,
        )
        assert found, summary
        step = unescape_text(found.group(0))
        assert question in step and button in step
        # The acting form sits inside the closed disclosure: one click cannot act.
        assert 'method="post"' in found.group(0) and " open" not in found.group(0)[:40]


def unescape_text(html: str) -> str:
    return " ".join(visible_text(html).split())


@pytest.mark.django_db
def test_the_history_states_its_limit(logged_in_client) -> None:
    _ask(logged_in_client, "who owns each stage gate?")
    text = unescape_text(logged_in_client.get("/").content.decode())
    assert f"The last {history.MAX_ENTRIES} questions are kept." in text
    session = logged_in_client.session
    body = history.entries(session)[0]["body"]
    for n in range(history.MAX_ENTRIES - 1):
        history.add(session, question=f"q{n}", body={**body, "run_id": str(uuid.uuid4())})
    session.save()
    text = unescape_text(logged_in_client.get("/").content.decode())
    assert (
        f"The last {history.MAX_ENTRIES} questions are kept; asking another drops the oldest."
        in (text)
    )


@pytest.mark.django_db
def test_the_disabled_current_option_says_who_enables_it_and_where(logged_in_client) -> None:
    html = logged_in_client.get("/").content.decode()
    note = re.search(r'<p class="mode-help" id="id_mode_1-note">(.*?)</p>', html, re.S).group(1)
    text = unescape_text(note)
    assert "An operator enables current context on the server" in text
    assert "docs/operations.md" in text
    assert "AICD_" not in html  # the setting's name stays in the operations guide


@pytest.mark.django_db
def test_not_covered_mentions_current_context_only_when_it_is_enabled(
    logged_in_client, settings
) -> None:
    pack = context_pack.get_context_pack()
    plain = refusal_guidance.next_step(Pattern.NO_PACKAGE_SUPPORT, pack)
    assert "current" not in plain.text.lower()
    offered = refusal_guidance.next_step(Pattern.NO_PACKAGE_SUPPORT, pack, current_available=True)
    assert refusal_guidance.CURRENT_CONTEXT_NOTE in offered.text
    other = refusal_guidance.next_step(
        Pattern.UNSUPPORTED_GENERAL_CHAT, pack, current_available=True
    )
    assert "current" not in other.text.lower()

    address = _ask(logged_in_client, NOT_COVERED)
    assert "Package + current context" not in unescape_text(
        re.search(
            r'<div class="next-step">.*?</div>',
            logged_in_client.get(address).content.decode(),
            re.S,
        ).group(0)
    )
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    step = re.search(
        r'<div class="next-step">.*?</div>', logged_in_client.get(address).content.decode(), re.S
    ).group(0)
    assert "This server also offers Package + current context" in unescape_text(step)
