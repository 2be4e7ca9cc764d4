"""Train (or, with --check, verify) the section ranker from the labelled questions."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from assistant.models import store
from assistant.models.sparse import check_committed
from assistant.retrieval import ranking
from learning import corpora
from learning.training import memory
from learning.training import ranker as ranker_training


class Command(BaseCommand):
    help = "Write the labelled-question memory and learn the section ranker into AICD_MODEL_DIR."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="fail if the committed model is stale"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if options["check"]:
            if not memory.is_current():
                raise CommandError(
                    "The question memory does not match its training sets. Run 'manage.py "
                    "build_ranker' and commit the result."
                )
        else:
            memory.publish()
        model, about = ranker_training.train(cross_package=not options["check"])
        text = model.to_json(**about) + "\n"
        if options["check"]:
            check_committed(ranking.MODEL_PATH, text, "build_ranker", _same)
            self.stdout.write(self.style.SUCCESS(f"Ranker OK: {ranking.MODEL_PATH}"))
            return
        ranking.MODEL_PATH.write_text(text, encoding="utf-8")
        store.record(
            "ranker",
            [ranking.MODEL_PATH.name],
            schema=ranking.schema(),
            data=corpora.fingerprint(ranker_training.data_files()),
        )
        ranking.model.cache_clear()
        cross = about["out_of_package_hit_at_1"]
        read = "; ".join(
            f"{slug} {figures['ranker']} (BM25 {figures['bm25']})"
            for slug, figures in cross.items()  # type: ignore[attr-defined]
        )
        self.stdout.write(
            self.style.SUCCESS(
                f"Ranker trained on {about['questions']} questions from "
                f"{len(about['trained_on'])} packages (each package read by a model trained "  # type: ignore[arg-type]
                f"without it, hit@1: {read}) -> {ranking.MODEL_PATH}"
            )
        )


# Retraining on another machine may differ in the last digits (floating-point summation order).
TOLERANCE = 1e-4


def _same(committed: dict[str, Any], trained: dict[str, Any]) -> bool:
    return (
        committed.get("features") == trained["features"]
        and all(
            abs(a - b) <= TOLERANCE
            for a, b in zip(committed.get("weights", []), trained["weights"], strict=False)
        )
        and len(committed.get("weights", [])) == len(trained["weights"])
    )
