"""What answerability learns from: only the questions the serving path asks it about."""

from __future__ import annotations

import numpy as np

from assistant.screening.model import CLASSES
from learning.screening import answerability
from learning.screening.corpus import Example


def test_training_leaves_out_what_serving_never_asks_answerability_about() -> None:
    examples = [
        Example("a", "in_scope", "Who decides the production go-live?"),
        Example("a", "no_support", "Which vector database does the playbook recommend for HNSW?"),
        # Answered with the language notice before retrieval: never judged for answerability.
        Example("a", "in_scope", "¿Quién decide la puesta en producción y en qué etapa se hace?"),
        # Answered by the criteria review: answerability is not applied.
        Example("a", "in_scope", "Review this draft against the checklist.", with_upload=True),
        # Refused by the intent screen: no answerability label.
        Example("a", "general_chat", "Write me a poem about autumn."),
    ]
    measured = answerability.measure(examples, answerability.sample_pack())
    assert [m.example.question for m in measured] == [e.question for e in examples[:2]]
    assert [m.answerable for m in measured] == [True, False]


CHAT = CLASSES.index("unsupported_general_chat")
ANSWER = CLASSES.index("answer")


def test_covers_overrules_general_chat_only_as_far_as_the_package_covers_the_question() -> None:
    # Both read as general chat by the intent screen; the package covers the first well.
    decided = np.array([CHAT, CHAT, ANSWER])
    probs = np.array([0.9, 0.2, 0.05])
    category = np.array(["in_scope", "general_chat", "no_support"])
    covers = answerability.best_covers(decided, probs, category, threshold=0.1)
    # The highest value that answers the covered question and keeps the chat refused.
    assert covers == 0.9


def test_covers_never_overrules_when_overruling_lets_general_chat_through() -> None:
    decided = np.array([CHAT, CHAT])
    probs = np.array([0.6, 0.95])
    category = np.array(["general_chat", "general_chat"])
    assert answerability.best_covers(decided, probs, category, threshold=0.1) > 1.0
