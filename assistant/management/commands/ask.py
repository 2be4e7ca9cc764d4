"""Ask one question through the same pipeline as the API and the chat page."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from assistant.domain.modes import Mode
from assistant.pipeline import services
from core.errors import ApplicationError
from uploads import services as uploads


class Command(BaseCommand):
    help = "Ask the approved package one question; --json prints exactly the API response body."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("question")
        parser.add_argument(
            "--mode", choices=[m.value for m in Mode], default=Mode.PACKAGE_ONLY.value
        )
        parser.add_argument("--json", action="store_true", help="print the API response body")
        parser.add_argument(
            "--source",
            action="append",
            default=[],
            type=Path,
            metavar="FILE",
            help="a file to review as a user-provided session source (repeatable, at most 5)",
        )
        parser.add_argument(
            "--paste-file",
            type=Path,
            metavar="FILE",
            help="a UTF-8 text file used as the run's pasted source",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        question = options["question"].strip()
        if not question:
            raise CommandError("The question is empty.")
        try:
            sources = uploads.load_local(files=options["source"], paste_file=options["paste_file"])
        except OSError as exc:
            raise CommandError(f"Cannot read a session source file: {exc.strerror}.") from None
        except ApplicationError as exc:
            raise CommandError(f"Session source refused ({exc.code}): {exc.message}") from None
        run = services.answer(
            question=question, mode=Mode(options["mode"]), session_sources=sources
        )
        if options["json"]:
            self.stdout.write(json.dumps(run.to_dict(), indent=2, ensure_ascii=False))
            return
        self.stdout.write(f"[{run.state.value}] mode={run.mode.value} run={run.run_id}")
        if run.refusal:
            self.stdout.write(f"Refused ({run.refusal.pattern}): {run.refusal.message}")
        if run.diagnostic:
            self.stdout.write(f"Diagnostic: {run.diagnostic}")
        for notice in run.notices:
            self.stdout.write(f"Notice ({notice.pattern}): {notice.message}")
        for lane in run.lanes:
            self.stdout.write(f"\n{lane.label}\n{lane.text}")
        if run.citations:
            self.stdout.write("\nCitations")
            for c in run.citations:
                where = c.fields.get("reader_target") or c.fields.get("url") or ""
                self.stdout.write(f"  [{c.id}] {c.citation_class}: {c.title} {where}")
        cc = run.current_context
        self.stdout.write(f"\nCurrent context: {cc.adapter} / {cc.state} — {cc.detail}")
        self.stdout.write(f"Behaviors: {', '.join(run.telemetry['behaviors'])}")
