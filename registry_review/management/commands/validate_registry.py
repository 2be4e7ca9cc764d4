"""Validate a current-source registry: the configured one (default), a FILE, or stdin (``-``)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from core.errors import ApplicationError
from core.issues import Issue
from registry_review import services

# Exit status: 0 valid or empty, 1 invalid (or, with --require-sources, empty), 2 usage errors.


class Command(BaseCommand):
    help = (
        "Print the registry review report. Without FILE, checks AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON; "
        "'-' reads standard input. Exits 1 when the registry is invalid. Nothing is stored."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file", nargs="?", help="a registry JSON file, or - for standard input")
        parser.add_argument(
            "--json", action="store_true", help="print exactly the API response body"
        )
        parser.add_argument(
            "--production",
            action="store_true",
            help="apply the production rules (placeholder domains rejected) whatever AICD_ENVIRONMENT says",
        )
        parser.add_argument(
            "--require-sources",
            action="store_true",
            help="also exit 1 when the registry has no sources",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        source = options["file"]
        try:
            if source is None:
                if options["production"]:
                    raise CommandError(
                        "--production applies to a FILE or '-'; the configured registry uses this server's environment."
                    )
                review = services.review_configured()
            else:
                production = True if options["production"] else None
                review = services.review_text(text=self._read(source), production=production)
        except ApplicationError as exc:
            raise CommandError(exc.message) from None
        report = review.report
        if options["json"]:
            self.stdout.write(json.dumps(report.to_dict(), indent=2, ensure_ascii=False))
        else:
            self._write_report(
                review,
                "AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON"
                if source is None
                else ("standard input" if source == "-" else source),
            )
        if report.state == "invalid":
            raise CommandError("The registry is invalid.", returncode=1)
        if report.state == "empty" and options["require_sources"]:
            raise CommandError("The registry has no sources.", returncode=1)

    def _read(self, source: str) -> str:
        """Read at most one byte over the limit, so an oversized input is refused, not loaded."""
        limit = services.MAX_REGISTRY_BYTES + 1
        if source == "-":
            data = sys.stdin.buffer.read(limit)
        else:
            try:
                with Path(source).open("rb") as handle:
                    data = handle.read(limit)
            except OSError as exc:
                raise CommandError(f"Cannot read {source}: {exc.strerror}.", returncode=2) from None
        return services.decode_submission(data)

    def _issue(self, kind: str, issue: Issue) -> str:
        where = f" in {issue.field}" if issue.field else ""
        return f"{kind}{where}: {issue.message}"

    def _write_report(self, review: services.Review, where: str) -> None:
        report = review.report
        out = self.stdout.write
        out(f"Registry: {where}")
        out(f"State: {report.state}")
        out(f"Adapter: {report.adapter_outcome}")
        if report.document_errors:
            out("Problems with the registry as a whole:")
            for issue in report.document_errors:
                out(f"  - {self._issue('error', issue)}")
        if report.records:
            out(f"Records: {len(report.records)}, valid: {len(report.valid_records)}")
            for item in report.records:
                status = "valid" if item.valid else "INVALID"
                out(f"  {item.index}. {item.id if item.id is not None else '(no id)'}: {status}")
                for issue in item.errors:
                    out(f"       {self._issue('error', issue)}")
                for issue in item.warnings:
                    out(f"       {self._issue('warning', issue)}")
        if report.valid_records:
            out("Normalised valid records:")
            out(review.normalised_json)
