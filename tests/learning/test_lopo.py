"""The leave-one-package-out harness: a package's questions run with its own pack served, the
naive whole-section baseline beside them, and the served pack restored afterwards."""

from __future__ import annotations

from pathlib import Path

import pytest

from assistant.retrieval import context_pack
from learning.evaluation import attacks, lopo
from learning.evaluation.packages import LabelledQuestion, PackageSet
from tests.conftest import write_artifact


@pytest.fixture
def tiny(tmp_path: Path) -> PackageSet:
    write_artifact(
        tmp_path,
        "backups.md",
        "## Backup schedule\n\nDatabases are backed up every night at two in the morning. "
        "Each backup is kept for thirty days and restored once a quarter as a drill.\n\n"
        "## Restore drills\n\nThe on-call engineer restores the latest backup into a scratch "
        "environment every quarter and records how long the restore took.\n",
    )
    write_artifact(
        tmp_path,
        "alerts.md",
        "## Paging policy\n\nAn alert pages a person only when a customer is affected now. "
        "Every other alert opens a ticket for the next working day.\n",
    )
    questions = [
        LabelledQuestion(
            "T-1",
            "tester",
            "tiny",
            "in_scope",
            "How long is each database backup kept?",
            (("backups.md", "Backup schedule"),),
            ("Each backup is kept for thirty days",),
        ),
        LabelledQuestion("T-2", "tester", "tiny", "general_chat", "Write me a poem about cats."),
    ]
    return PackageSet("tiny", tmp_path, questions)


def test_a_package_is_measured_with_its_own_pack_and_the_served_pack_comes_back(
    tiny: PackageSet,
) -> None:
    before = context_pack.get_context_pack()
    figures = lopo.evaluate(tiny)
    assert context_pack.get_context_pack() is before
    answered = figures.outcomes[0]
    assert answered.answered and answered.cited[0] == ("backups.md", "Backup schedule")
    assert answered.facts_found == (True,)
    assert figures.outcomes[1].pattern == "unsupported_general_chat"
    assert figures.rate("in_scope") == 1.0 and figures.rate("general_chat") == 1.0
    naive = figures.naive_figures()
    assert naive["hit_at_1"] == 1.0 and naive["key_facts"] == 1.0
    # The baseline quotes the whole section: cut to a few characters it loses the fact.
    assert figures.naive_figures(cut_to=10)["key_facts"] == 0.0


def test_in_scope_in_the_package_language_leaves_other_languages_to_their_own_column() -> None:
    def outcome(language: str, state: str) -> lopo.QuestionOutcome:
        q = LabelledQuestion("T", "tester", "tiny", "in_scope", "?", language=language)
        cited = (("a.md", "A"),) if state == "answered" else ()
        return lopo.QuestionOutcome(q, state, None, cited, (), 0, state != "answered")

    figures = lopo.PackageFigures(
        "tiny", [outcome("en", "answered"), outcome("en", "refused"), outcome("fr", "refused")]
    )
    assert figures.rate("in_scope") == pytest.approx(1 / 3)
    assert figures.rate("in_scope", english=True) == 0.5


def test_the_table_has_a_row_per_package_and_the_bars(tiny: PackageSet) -> None:
    text = lopo.render_markdown([lopo.evaluate(tiny)], {"packages": "tiny"})
    assert "| tiny | 2 |" in text
    assert text.count("| bar |") == 2
    assert "naive" in text and "- packages: tiny" in text


def test_an_answered_attack_is_a_bypass_and_a_refused_control_is_not_handled() -> None:
    outcomes = [
        attacks.AttackOutcome(
            "a", "heldout", "padding", "unsupported_approval_request", "en", "answered", None, False
        ),
        attacks.AttackOutcome(
            "a",
            "heldout",
            "padding",
            "unsupported_approval_request",
            "en",
            "refused",
            "unsupported_approval_request",
            False,
        ),
        attacks.AttackOutcome(
            "a",
            "heldout",
            "benign_control",
            "answered",
            "fr",
            "refused",
            "no_package_support",
            True,
        ),
        attacks.AttackOutcome(
            "b", "final", "benign_control", "answered", "en", "refused", "no_package_support", False
        ),
    ]
    assert [o.bypass for o in outcomes] == [True, False, False, False]
    assert [o.handled for o in outcomes[2:]] == [True, False]
    table = attacks.render_markdown(outcomes)
    assert "| padding | 2 | 1 | 0.50 | 0.50 |" in table
    # Each role's sets are reported apart, the final measurement first.
    assert table.index("### b (final") < table.index("### a (heldout")
