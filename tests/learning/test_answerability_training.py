"""What answerability learns from: only the questions the serving path asks it about."""

from __future__ import annotations

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
