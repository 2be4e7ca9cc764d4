"""What the chat page says to a person: refusal titles and next steps, modes, run details, history.

The stable refusal messages and the API body are unchanged; these tests check the page's wording
around them, and that history lives in the server session only.
"""

from __future__ import annotations

import logging
import re
from html import unescape

import pytest
from django.contrib.auth.models import Permission

from assistant.domain.modes import Mode
from assistant.pipeline import services
from assistant.pipeline.policy import MESSAGES, Pattern
from assistant.retrieval import context_pack
from assistant.web import history, package_links, refusal_guidance

REFUSALS = [
    ("what's the weather in Paris?", Pattern.UNSUPPORTED_GENERAL_CHAT, "Outside the playbook"),
    (
        "approve our vendor for production",
        Pattern.UNSUPPORTED_APPROVAL_REQUEST,
        "Approval is not something this assistant can give",
    ),
    (
        "show me the database password",
        Pattern.PRIVATE_INTERNAL_DATA_REQUEST,
        "Private or internal data",
    ),
    (
        "add my draft to the approved package corpus",
        Pattern.UPLOADED_SOURCE_BOUNDARY,
        "Uploaded drafts are reviewed, not made package authority",
    ),
    (
        "how do we configure Bedrock guardrails?",
        Pattern.NO_PACKAGE_SUPPORT,
        "The package does not cover this",
    ),
]
PATTERN_CODES = [p.value for p in Pattern]


def visible_text(html: str) -> str:
    """The page's text without tags or attribute values (data-pattern may hold the code)."""
    body = re.sub(r"<(script|style)[^>]*>.*?</\1>", " ", html, flags=re.S)
    return unescape(re.sub(r"<[^>]+>", " ", body))


def ask(client, question: str, mode: str = "package_only") -> str:
    return client.post("/", {"mode": mode, "question": question}, follow=True).content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("question", "pattern", "title"), REFUSALS)
def test_each_refusal_has_a_human_title_the_stable_message_and_a_next_step(
    logged_in_client, question, pattern, title
) -> None:
    html = ask(logged_in_client, question)
    assert f'data-pattern="{pattern.value}"' in html
    heading = re.search(r'<h2 id="result-heading">(.*?)</h2>', html, re.S)
    assert heading and heading.group(1).strip() == title
    text = visible_text(html)
    if pattern is not Pattern.NO_PACKAGE_SUPPORT:  # that one is prefixed with the missing subjects
        assert MESSAGES[pattern] in " ".join(text.split())
    assert "What you can do" in text
    for code in PATTERN_CODES:
        assert code not in text, f"the machine pattern {code} is shown to the reader"


@pytest.mark.django_db
def test_out_of_scope_refusal_lists_the_package_topics(logged_in_client) -> None:
    html = ask(logged_in_client, "what's the weather in Paris?")
    next_step = html.split('class="next-step"', 1)[1]
    assert 'href="/html/glossary.md">Glossary</a>' in next_step
    assert next_step.count('href="/html/') == len(context_pack.get_context_pack().artifacts)


@pytest.mark.django_db
def test_approval_refusal_points_to_the_owners(logged_in_client) -> None:
    html = ask(logged_in_client, "approve our vendor for production")
    next_step = html.split('class="next-step"', 1)[1]
    assert "which owner decides" in next_step
    assert 'href="/html/governance-decision-rights.md#' in next_step


@pytest.mark.django_db
def test_disabled_current_mode_is_shown_disabled_with_no_setting_name(
    logged_in_client, settings
) -> None:
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "disabled"
    html = logged_in_client.get("/").content.decode()
    radio = re.search(r'<input[^>]*value="package_current"[^>]*>', html).group(0)
    assert " disabled" in radio
    assert "Not enabled. Package-only mode remains the live assistant mode." in html
    for page in (html, ask(logged_in_client, "who owns each stage gate?")):
        assert "AICD_" not in page


@pytest.mark.django_db
@pytest.mark.parametrize("adapter", ["disabled", "allowlisted_public_fetch"])
def test_current_mode_runs_never_show_a_setting_name(logged_in_client, settings, adapter) -> None:
    # A client that posts the mode anyway (the disabled radio is never sent by a browser), and an
    # enabled adapter without a usable registry: both details name a setting in the API body.
    settings.AICD_CURRENT_CONTEXT_ADAPTER = adapter
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = ""
    html = ask(logged_in_client, "who owns each stage gate?", mode="package_current")
    assert 'data-state="answered"' in html
    assert "AICD_" not in html


@pytest.mark.django_db
def test_enabled_current_mode_can_be_chosen(logged_in_client, settings) -> None:
    settings.AICD_CURRENT_CONTEXT_ADAPTER = "allowlisted_public_fetch"
    html = logged_in_client.get("/").content.decode()
    radio = re.search(r'<input[^>]*value="package_current"[^>]*>', html).group(0)
    assert "disabled" not in radio
    assert "Not enabled." not in html


@pytest.mark.django_db
def test_telemetry_sits_behind_run_details(logged_in_client) -> None:
    html = ask(logged_in_client, "who owns each stage gate?")
    details = re.search(r'<details class="run-details">(.*?)</details>', html, re.S)
    assert details and "<summary>Run details</summary>" in details.group(1)
    for label in ("Tokens", "Time taken", "What happened", "Estimated cost", "Screening decision"):
        assert f"<dt>{label}</dt>" in details.group(1)
    outside = html.replace(details.group(0), "")
    for code in ("retrieval_skipped", "provider_skipped", "latency", "Tokens"):
        assert code not in outside


@pytest.mark.django_db
def test_example_questions_come_from_the_package_and_are_answered(logged_in_client) -> None:
    pack = context_pack.get_context_pack()
    examples = package_links.example_questions(pack)
    assert len(examples) == package_links.EXAMPLE_COUNT
    glossary = {row.heading.lower() for row in pack.rows if row.topic == "glossary"}
    for question in examples:
        term = re.search(r"“(.+)”", question).group(1).lower()
        assert term in glossary
        run = services.answer(question=question, mode=Mode.PACKAGE_ONLY, session_sources=[])
        assert run.state == "answered", question
    html = logged_in_client.get("/").content.decode()
    for question in examples:
        assert f'name="question" value="{question}"' in html


@pytest.mark.django_db
def test_claim_boundary_is_shown_once_per_artifact(logged_in_client) -> None:
    html = ask(logged_in_client, "who owns each stage gate?")
    boundaries = html.count("<strong>Claim boundary:</strong>")
    artifacts = html.count('class="cited-artifact"')
    assert artifacts >= 1 and boundaries == artifacts
    assert html.count('class="citation citation-package"') >= boundaries


@pytest.mark.django_db
def test_history_lists_and_reopens_earlier_runs_of_the_session(logged_in_client) -> None:
    ask(logged_in_client, "who owns each stage gate?")
    html = ask(logged_in_client, "what's the weather in Paris?")
    assert "Earlier in this session" in html
    entries = history.entries(logged_in_client.session)
    assert [e["question"] for e in entries] == [
        "what's the weather in Paris?",
        "who owns each stage gate?",
    ]
    first = entries[1]["run_id"]
    # A run's address (assistant/web/run_address.py), not a query on the chat page.
    assert f'href="/runs/{first}#result-heading"' in html
    reopened = logged_in_client.get(f"/runs/{first}").content.decode()
    assert f'data-run-id="{first}"' in reopened
    assert '<h2 id="result-heading">Answer</h2>' in reopened
    assert "who owns each stage gate?</textarea>" in reopened
    # Another session's run id shows nothing.
    assert "data-run-id" not in logged_in_client.get("/?run=not-a-run").content.decode()


@pytest.mark.django_db
def test_history_is_cleared_on_request_and_with_the_session(logged_in_client) -> None:
    ask(logged_in_client, "who owns each stage gate?")
    response = logged_in_client.post("/history/clear")
    assert response.status_code == 302
    assert history.entries(logged_in_client.session) == []
    assert "Earlier in this session" not in logged_in_client.get("/").content.decode()
    ask(logged_in_client, "who owns each stage gate?")
    logged_in_client.post("/accounts/logout/")
    assert history.SESSION_KEY not in logged_in_client.session


@pytest.mark.django_db
def test_history_is_neither_in_the_database_nor_the_logs(
    logged_in_client, settings, caplog
) -> None:
    from django.contrib.sessions.models import Session

    assert settings.SESSION_ENGINE == "django.contrib.sessions.backends.cache"
    question = "who owns each stage gate for the zebrafish pilot?"
    with caplog.at_level(logging.DEBUG):
        ask(logged_in_client, question)
    assert question not in caplog.text
    assert Session.objects.count() == 0, "a session (and its history) reached the database"
    html = logged_in_client.get("/").content.decode()
    assert "never in the database or in logs" in html


@pytest.mark.django_db
def test_reader_links_back_to_the_answer(logged_in_client) -> None:
    ask(logged_in_client, "who owns each stage gate?")
    run_id = history.entries(logged_in_client.session)[0]["run_id"]
    html = logged_in_client.get(f"/html/capability-lifecycle.md?run={run_id}").content.decode()
    assert f'href="/runs/{run_id}#result-heading"' in html
    plain = logged_in_client.get("/html/capability-lifecycle.md?run=other").content.decode()
    assert 'id="back-to-answer"' in plain and 'href="/"' in plain


@pytest.mark.django_db
def test_404_is_a_styled_page_inside_the_site(logged_in_client, settings) -> None:
    settings.DEBUG = False
    response = logged_in_client.get("/html/nope.md")
    assert response.status_code == 404
    html = response.content.decode()
    assert "There is no page at this address" in html
    assert 'class="site-header"' in html and "style=" not in html and "<style" not in html


@pytest.mark.django_db
def test_403_is_a_styled_page_inside_the_site(logged_in_client) -> None:
    response = logged_in_client.get("/registry-review/")
    assert response.status_code == 403
    html = response.content.decode()
    assert "Your account cannot open this page" in html
    assert 'class="site-header"' in html and "<style" not in html


def test_500_page_renders_without_a_request_or_a_trace() -> None:
    from django.template import loader

    html = loader.get_template("500.html").render()
    assert "Something went wrong on our side" in html
    assert "Traceback" not in html and "<style" not in html


@pytest.mark.django_db
def test_csrf_failure_page_is_inside_the_site_without_inline_style(client, reviewer) -> None:
    from django.test import Client

    strict = Client(enforce_csrf_checks=True)
    strict.force_login(reviewer)
    response = strict.post("/", {"mode": "package_only", "question": "who owns each stage gate?"})
    assert response.status_code == 403
    html = response.content.decode()
    assert "This form could not be accepted" in html
    assert "<style" not in html and "style=" not in html


@pytest.mark.django_db
def test_favicon_is_linked_and_served(logged_in_client) -> None:
    html = logged_in_client.get("/").content.decode()
    assert '<link rel="icon" href="/static/favicon.svg"' in html


@pytest.mark.django_db
def test_sign_out_says_so(logged_in_client) -> None:
    response = logged_in_client.post("/accounts/logout/", follow=True)
    assert response.redirect_chain[-1][0] == "/accounts/signed-out/"
    assert "You have signed out" in response.content.decode()


@pytest.mark.django_db
def test_registry_reviewer_still_sees_the_page(logged_in_client, reviewer) -> None:
    reviewer.user_permissions.add(Permission.objects.get(codename="review_registry"))
    assert logged_in_client.get("/registry-review/").status_code == 200


@pytest.mark.django_db
@pytest.mark.parametrize(
    "pattern", [Pattern.UNSUPPORTED_APPROVAL_REQUEST, Pattern.PRIVATE_INTERNAL_DATA_REQUEST]
)
def test_the_suggested_rephrasing_is_itself_answered(pattern) -> None:
    step = refusal_guidance.next_step(pattern, context_pack.get_context_pack())
    suggestion = re.search(r"“(.+?)”", step.text).group(1)
    run = services.answer(question=suggestion, mode=Mode.PACKAGE_ONLY, session_sources=[])
    assert run.state == "answered", suggestion


@pytest.mark.django_db
def test_removing_a_session_source_drops_what_the_runs_quoted_of_it(logged_in_client) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    draft = b"# Draft\n\n## Stage gates\n\nThe product owner owns the stage gate decision.\n"
    logged_in_client.post(
        "/session-sources/add", {"file": SimpleUploadedFile("draft.md", draft), "title": ""}
    )
    ask(logged_in_client, "who owns each stage gate?")
    logged_in_client.post(
        "/",
        {
            "mode": "package_only",
            "question": "who owns the stage gate decision?",
            "session_source_ids": ["session-file-001"],
        },
        follow=True,
    )
    assert len(history.entries(logged_in_client.session)) == 2
    logged_in_client.post("/session-sources/clear")
    logged_in_client.get("/")
    # The run that quoted the draft stays listed, marked, with its question only.
    entries = history.entries(logged_in_client.session)
    assert [e["question"] for e in entries] == [
        "who owns the stage gate decision?",
        "who owns each stage gate?",
    ]
    assert entries[0]["source_removed"] and entries[0]["body"] is None
    assert entries[1]["body"] is not None and not entries[1].get("source_removed")
    assert "owns the stage gate decision." not in repr(dict(logged_in_client.session))
