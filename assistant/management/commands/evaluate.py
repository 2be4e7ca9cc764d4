"""Run the labelled evaluation set and print (optionally write) the grounding report."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from assistant import evaluation, verifier_benchmark
from assistant.context_pack import get_context_pack
from assistant.screening import evaluation as screening_evaluation


class Command(BaseCommand):
    help = "Score refusal precision/recall, answer rates and top-3 retrieval hits on the eval set."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--questions",
            type=Path,
            action="append",
            help="a labelled JSONL set (repeatable); default: the three sets in tests/eval/",
        )
        parser.add_argument(
            "--write", type=Path, default=None, help="also write the Markdown report"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        logging.getLogger("assistant.runs").setLevel(logging.WARNING)
        eval_dir = Path(settings.BASE_DIR) / "tests/eval"
        paths = options["questions"] or [
            eval_dir / name for name in ("questions.jsonl", "heldout.jsonl", "fresh.jsonl")
        ]
        version = get_context_pack().package_version
        parts, all_met = [], True
        for path in paths:
            report = evaluation.evaluate(evaluation.load_questions(path))
            parts.append(
                evaluation.render_markdown(report, package_version=version, source=path.name)
            )
            all_met = all_met and report.meets_targets()
        screening_report = screening_evaluation.cross_author()
        screening = screening_evaluation.render_markdown(
            screening_report, previous=screening_evaluation.previous_figures()
        )
        pack = get_context_pack()
        verifier, figures = verifier_benchmark.report(
            pack.rows, pack.index.expansion, pack.index.doc_freq, package_version=version
        )
        all_met = all_met and figures[verifier_benchmark.HELD_OUT].meets_targets()
        text = evaluation.HEADER + screening + "\n" + "\n".join(parts) + "\n" + verifier
        self.stdout.write(text)
        if options["write"]:
            options["write"].write_text(text)
        if not all_met:
            self.stderr.write("Some targets are not met.")
