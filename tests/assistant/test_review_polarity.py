"""A criterion's status follows from what its evidence says (issue #30 item 1).

Polarity: a sentence that does what a package rule forbids is a blocker or a concern, never a
pass, even when another clause of it holds a denial; one that denies the forbidden thing keeps
the rule. Applicability: a rule about one subject (a developer's laptop) is not applied to a
sentence about another (end users' laptops). Each status carries the reason a reviewer reads.
The drafts are written for these tests.
"""

from __future__ import annotations

from assistant.pipeline import services
from assistant.providers.deterministic import DeterministicProvider
from assistant.retrieval.context_pack import get_context_pack
from assistant.review import rule_polarity
from assistant.review.criterion_assessment import (
    CONTRADICTED,
    PARTIAL,
    PRESENT,
    Check,
    assess,
)
from tests.uploads.helpers import sources_from

OPENING = """# Product requirements document: benefits questions helper

## Problem

Our primary outcome is to cut the median time to answer a benefits question from 9 minutes to 3 minutes.

"""


def _checks(body: str, kind: str = "prd") -> dict[str, Check]:
    review = get_context_pack().review
    sources = sources_from(("d.md", (OPENING + body).encode()))
    return {c.criterion.name: c for c in assess(review, kind, sources)}


def _prohibition(criterion: str):  # type: ignore[no-untyped-def]
    return get_context_pack().review.prohibitions_for(criterion)[0]


# Polarity -----------------------------------------------------------------------------------


def test_answering_from_general_knowledge_where_sources_are_silent_is_never_a_pass() -> None:
    check = _checks(
        "## Sources\n\n"
        "Where the benefits handbook does not cover a question, the helper will answer from the "
        "model's general knowledge of benefits practice, so that staff always get a reply.\n"
    )["Source authority"]
    assert check.status == CONTRADICTED
    assert check.evidence is not None and "general knowledge" in check.evidence.text
    assert "general knowledge" in check.reason and check.prohibition is not None
    assert check.prohibition.rule in check.reason


def test_refusing_instead_of_general_knowledge_keeps_the_rule() -> None:
    check = _checks(
        "## Sources\n\n"
        "The benefits handbook is the source of record. Where it does not cover a question, "
        "the helper refuses and never answers from the model's general knowledge.\n"
    )["Source authority"]
    assert check.status != CONTRADICTED


def test_a_denial_scopes_over_its_own_clause_only() -> None:
    rule = _prohibition("Source authority")
    broken = "If the handbook has no answer, the helper answers from its own knowledge instead."
    kept = "The helper does not fall back on the model's own knowledge at any point."
    rather = "The helper refuses rather than answering from the model's general knowledge."
    assert rule_polarity.signal_match(broken, rule) is not None
    assert rule_polarity.signal_match(kept, rule) is None
    assert rule_polarity.signal_match(rather, rule) is None


def test_a_fail_open_sentence_with_a_denial_in_its_tail_is_a_blocker() -> None:
    check = _checks(
        "## Failure behaviour\n\n"
        "If the handbook index times out, the assistant still returns the model's answer without "
        "citations, so that nobody is left waiting.\n",
        kind="architecture_proposal",
    )["Resilience"]
    assert check.status == CONTRADICTED


def test_saying_the_draft_sets_no_kill_criteria_is_not_a_pass() -> None:
    check = _checks(
        "## Stopping\n\n"
        "We are deliberately not setting kill criteria before the pilot; we will decide whether "
        "to carry on once the results are in.\n"
        "The helper would stop if accuracy on the 200-question reference set fell below 80 percent.\n"
    )["Kill criteria"]
    assert check.status in (PARTIAL, CONTRADICTED)
    assert check.evidence is not None and "not setting kill criteria" in check.evidence.text
    assert "not setting kill criteria" in check.reason


def test_a_denial_the_criterion_itself_allows_is_not_held_against_the_draft() -> None:
    # "Confirmation that personal data is absent" is the criterion's own expected evidence.
    check = _checks(
        "## Personal data\n\n"
        "Nadia Okafor, the data protection officer, confirmed on 3 March that no personal data is "
        "in scope for the pilot.\n"
    )["Personal data"]
    assert check.status == PRESENT


def test_a_question_asserts_nothing() -> None:
    assert (
        rule_polarity.denies("Model route not yet approved for the data class?", "model route")
        == ""
    )
    assert (
        rule_polarity.denies("The model route is not pinned.", "model route")
        == "model route is not"
    )


# Applicability ------------------------------------------------------------------------------


def test_a_developer_laptop_rule_is_not_applied_to_end_users_laptops() -> None:
    check = _checks(
        "## Environment\n\n"
        "Employees reach the helper through the intranet in a browser on end users' own laptops, "
        "and every model call is made server-side through the AI gateway.\n"
    )["Environment access"]
    assert check.status != CONTRADICTED
    assert check.not_applied is not None
    assert check.not_applied.draft_subject == "users"
    assert "does not apply" in check.reason


def test_the_rule_still_applies_to_the_teams_own_laptops() -> None:
    for sentence in (
        "Until the platform tenancy is ready, the two developers will build the helper on their "
        "own laptops with personal API keys.",
        "Until the platform tenancy is ready, Omar will build the helper on his own laptop.",
        "For the first sprint the helper runs on our dev laptops.",
    ):
        check = _checks(f"## Environment\n\n{sentence}\n")["Environment access"]
        assert check.status == CONTRADICTED, sentence
        assert check.not_applied is None


def test_a_possessive_takes_its_clauses_agent_as_the_subject() -> None:
    rule = _prohibition("Environment access")
    match = rule_polarity.signal_match(
        "Customers open the helper on their laptops after signing in.", rule
    )
    assert match is not None
    other = rule_polarity.inapplicable(match)
    assert other is not None and other.rule_subject == "developer"
    assert other.draft_subject == "customers"


# The reason reaches the run ------------------------------------------------------------------


def test_each_finding_of_a_run_says_why_its_status_follows() -> None:
    sources = sources_from(
        paste=(
            "helper-prd.md",
            OPENING
            + "## Sources\n\nWhere the handbook does not cover a question, the helper answers "
            "from the model's general knowledge.\n",
        )
    )
    run = services.answer(
        question="Review this draft.", session_sources=sources, provider=DeterministicProvider()
    )
    assert run.review is not None
    findings = {f["criterion"]: f for f in run.review.criteria}
    assert all(f["reason"] for f in findings.values())
    source = findings["Source authority"]
    assert source["finding_label"] == "blocker"
    assert source["reason"].startswith('the draft\'s sentence affirms "general knowledge"')
    assert "does what the package rule forbids" in source["reason"]


def test_a_reason_says_what_the_sentence_denies_when_the_rule_is_broken_by_leaving_out() -> None:
    check = _checks(
        "## Personal data\n\n"
        "Staff names are sent to the model, and we are not planning a data protection review for "
        "the pilot.\n"
    )["Personal data"]
    assert check.status == CONTRADICTED
    assert 'denies "data protection review"' in check.reason
    assert "affirms" not in check.reason


def test_nothing_denies_what_follows_it() -> None:
    rule = next(
        p for p in get_context_pack().review.prohibitions_for("Integration") if "browser" in p.rule
    )
    assert (
        rule_polarity.signal_match("Nothing in the browser calls the model provider.", rule) is None
    )
    assert rule_polarity.signal_match("The browser calls the model provider directly.", rule)
