"""Build (or only validate, with --check) the context pack from the configured package.

Errors (the package cannot load) fail the command; warnings (it loads but will read badly:
intro text folded into an overview, heading-only or empty sections, placeholder headings,
renamed duplicate anchors, very long sections or anchors) are listed, each with its file, and
the command still succeeds. For a package that declares no review criteria, how many were
derived from its checklist sections is reported as information.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from assistant.package import checklist_criteria, rule_criteria
from assistant.package.artifacts import Package, PackageError, load_package
from assistant.package.criteria import RULES_BASIS
from assistant.retrieval import context_pack


class Command(BaseCommand):
    help = "Turn the package's Markdown artifacts into context-pack rows and a search index."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--check", action="store_true", help="validate only; write nothing")
        parser.add_argument(
            "--package-dir", type=Path, default=None, help="override AICD_PACKAGE_DIR"
        )
        parser.add_argument("--out", type=Path, default=None, help="override AICD_CONTEXT_PACK_DIR")

    def handle(self, *args: Any, **options: Any) -> None:
        package_dir = options["package_dir"] or Path(settings.AICD_PACKAGE_DIR)
        try:
            package = load_package(package_dir)
        except PackageError as exc:
            lines = "\n".join(f"  - {p}" for p in exc.problems)
            self._warn(exc.warnings)
            raise CommandError(
                f"The package in {package_dir} is broken ({len(exc.problems)} problem(s)):\n{lines}"
            ) from None
        self._warn(package.warnings)
        self._derived(package)
        rows = package.rows()
        summary = f"{len(package.artifacts)} artifacts, {len(rows)} sections, package version {package.version}"
        if options["check"]:
            self.stdout.write(self.style.SUCCESS(f"Package OK: {summary} ({package_dir})"))
            return
        out = options["out"] or Path(settings.AICD_CONTEXT_PACK_DIR)
        context_pack.write(context_pack.build(package), out)
        context_pack.reset_cache()
        self.stdout.write(self.style.SUCCESS(f"Context pack built: {summary} -> {out}"))

    def _derived(self, package: Package) -> None:
        """How many review criteria the package's checklists (or, without any, its rule
        sentences) give, when it declares none."""
        derived = checklist_criteria.collect(package.artifacts)[2]
        if not derived.criteria:
            return
        if derived.basis == RULES_BASIS:
            note = f"{len(derived.criteria)} review criteria derived from sections' rule sentences"
            left_out, cap = "rule section(s)", rule_criteria.MAX_DERIVED
        else:
            note = f"{len(derived.criteria)} review criteria derived from checklist sections"
            left_out, cap = "checklist item(s)", checklist_criteria.MAX_DERIVED
        if derived.left_out:
            note += f" ({derived.left_out} further {left_out} left out: at most {cap} are derived)"
        self.stdout.write(f"{note}; the package declares none.")

    def _warn(self, warnings: list[str]) -> None:
        """List what will read badly (on stdout: warnings never fail the command)."""
        if not warnings:
            return
        lines = "\n".join(f"  - {w}" for w in warnings)
        self.stdout.write(self.style.WARNING(f"{len(warnings)} warning(s):\n{lines}"))
