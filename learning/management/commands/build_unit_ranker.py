"""Train (or, with --check, verify) the composer's unit ranker from the labelled questions."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from assistant.compose import unit_ranking
from learning import corpora
from learning.training import ranker as ranker_training
from learning.training import unit_ranker as unit_ranking_training


class Command(BaseCommand):
    help = "Learn the composer's unit ranker into AICD_MODEL_DIR/unit_ranker.json."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--check", action="store_true", help="fail if the committed model is stale"
        )
        parser.add_argument(
            "--cross-author",
            action="store_true",
            help="also print, per training author, how often the best unit holds a key fact "
            "when read by a model trained without them, against the hand score",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        items = unit_ranking_training.examples()
        model = unit_ranking_training.fit(items)
        authors = sorted({e.author for e in items})
        about: dict[str, object] = {"questions": len(items), "authors": authors}
        text = unit_ranking.UnitRanker(model.weights, model.intercept, about).to_json() + "\n"
        path = unit_ranking.SHIPPED.publish(
            text,
            "build_unit_ranker",
            check=options["check"],
            data=corpora.fingerprint(ranker_training.training_sets()),
        )
        if options["check"]:
            self.stdout.write(self.style.SUCCESS(f"Unit ranker OK: {path}"))
            return
        self.stdout.write(
            self.style.SUCCESS(
                f"Unit ranker trained on {about['questions']} questions by "
                f"{', '.join(authors)} -> {path}"
            )
        )
        if options["cross_author"]:
            for author, figures in unit_ranking_training.cross_author(items).items():
                self.stdout.write(f"{author}: best unit holds a key fact {figures}")
