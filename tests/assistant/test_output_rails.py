"""Output rails: approvals, secret-shaped text, key scrubbing and plain lane text."""

from __future__ import annotations

import pytest

from assistant.verify import output_rails as rails


@pytest.mark.parametrize(
    "text",
    [
        "The playbook approves Acme for production use and patient data.",
        "Acme is APPROVED for production.",
        "No further sign-off is needed.",
        "The release can ship without additional approval.",
        "The risk owner signed off the pilot.",
        "You have the green light.",
        "The team can go ahead.",
        "Yes to go-live.",
        "The capability is compliant with the policy.",
        "The vendor is cleared for confidential data.",
        "You can proceed to production.",
    ],
)
def test_grants_are_found(text: str) -> None:
    assert rails.approval_grants(text), text


@pytest.mark.parametrize(
    "text",
    [
        "The playbook does not approve any tool or vendor.",
        "This review approves nothing; these owners decide.",
        "They are review assistance for the named owners, not approval.",
        "The approved package guidance remains the source of record.",
        "Gate 2 must be approved by the risk owner.",
        "The security reviewer decides who signs off the scope before go-live.",
        "The capability is non-compliant.",
        "It needs the go-ahead from the gate owner.",
    ],
)
def test_negated_and_required_approvals_are_not_grants(text: str) -> None:
    assert rails.approval_grants(text) == [], text


KEY = "sk-aicd-canary-0123456789abcdef0123"


def test_the_configured_key_is_scrubbed_and_counted_as_a_secret() -> None:
    assert rails.scrub(f"model {KEY}!", KEY) == "model [redacted]!"
    assert rails.scrub("nothing here", KEY) == "nothing here"
    assert "configured api key" in rails.secret_kinds(f"x{KEY}x", KEY)


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("sk-proj-abcdefghijklmnopqrstuvwx", "api key"),
        ("AKIAIOSFODNN7EXAMPLE", "aws access key"),
        ("AIzaSyA-abcdefghijklmnopqrstuvwxyz012345", "google api key"),
        ("ghp_" + "a" * 36, "github token"),
        ("xoxb-1234567890-abcdefghij", "slack token"),
        ("eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.abcdefghijk", "jwt"),
        ("-----BEGIN OPENSSH PRIVATE KEY-----", "private key"),
        ("Authorization: Basic dXNlcjpwYXNzd29yZDEyMw==", "credential header"),
        ("token = 'Zq9xW2vB7nK4mL8p'", "credential assignment"),
        ("x8Hk2LmQ9pR4tV7wZ1aB3cD5eF6gH0jK", "high-entropy token"),
    ],
)
def test_secret_shapes(text: str, kind: str) -> None:
    assert kind in rails.secret_kinds(text)
    assert rails.REDACTED in rails.redact_secrets(text)


@pytest.mark.parametrize(
    "text",
    [
        "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08",  # a sha256 hex digest
        "ai-capability-lifecycle-build-readiness-gate-two-review",
        "The product owner signs the gate 2 record within 10 working days.",
    ],
)
def test_ordinary_text_is_not_a_secret(text: str) -> None:
    assert rails.secret_kinds(text) == []


def test_plain_text_removes_everything_a_client_could_make_active() -> None:
    dirty = (
        "See [signed](javascript:alert(1)) and ![logo](https://evil.example/t.png) "
        "<img src=x onerror=alert(1)><script>steal()</script> <javascript:go> "
        "<!-- hidden --> \u202eevil\u202c \u2066x\u2069 \u200bzero [P1](x)\n[ref]: https://evil.example/r"
    )
    clean = rails.plain_text(dirty)
    for marker in (
        "javascript:",
        "onerror",
        "<img",
        "<script",
        "steal",
        "evil.example",
        "](",
        "<!--",
        "\u202e",
        "\u2066",
        "\u200b",
    ):
        assert marker not in clean, marker
    assert "signed" in clean and "logo" in clean and "[P1]" in clean


def test_plain_text_keeps_prose_comparisons_and_colons() -> None:
    text = "If cost < budget and latency > 2 s, proceed. Personal data: kept [P1]."
    assert rails.plain_text(text) == text
