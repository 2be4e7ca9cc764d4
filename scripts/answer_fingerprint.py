"""A fingerprint of the offline answers to a fixed set of questions, to show a reshaping changed none.

Runs ``services.answer`` with the deterministic provider on the first 200 questions of
``data/answers/heldout/*.jsonl`` (against the shipped sample) and on the questions of
``data/questions/gds-way/*.jsonl`` (against that converted package), and prints one SHA-256 of
every run's state, refusal pattern, lane texts and citation ids, with one line per question to
``--each FILE`` so that two runs that differ can be compared question by question.

    PYTHONPATH=$PWD .venv/bin/python scripts/answer_fingerprint.py [--each FILE]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from pathlib import Path

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "aicd.settings")
django.setup()

from assistant.domain.types import Run  # noqa: E402
from assistant.pipeline import services  # noqa: E402
from assistant.providers.deterministic import DeterministicProvider  # noqa: E402
from learning.evaluation.lopo import serving  # noqa: E402
from learning.evaluation.packages import PackageSet  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent


def _questions(pattern: str, limit: int | None = None) -> list[str]:
    out = []
    for path in sorted(ROOT.glob(pattern)):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                out.append(str(json.loads(line)["question"]))
    return out[:limit] if limit else out


def _digest(run: Run) -> str:
    body = {
        "state": str(run.state),
        "refusal": run.refusal.pattern if run.refusal else None,
        "lanes": [(lane.label, lane.text, list(lane.citation_ids)) for lane in run.lanes],
        "citations": [c.id for c in run.citations],
    }
    return hashlib.sha256(json.dumps(body, sort_keys=True, default=str).encode()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--each", type=Path)
    args = parser.parse_args()
    provider = DeterministicProvider()
    sets = (
        ("sample", ROOT / "sample_package", _questions("data/answers/heldout/*.jsonl", 200)),
        ("gds-way", ROOT / "data/packages/gds-way", _questions("data/questions/gds-way/*.jsonl")),
    )
    total = hashlib.sha256()
    lines = []
    for slug, directory, questions in sets:
        with serving(PackageSet(slug, directory).pack):
            for n, question in enumerate(questions):
                digest = _digest(services.answer(question=question, provider=provider))
                total.update(digest.encode())
                lines.append(f"{slug}\t{n}\t{digest}")
        print(f"{slug}: {len(questions)} questions")
    if args.each:
        args.each.write_text("\n".join(lines) + "\n")
    print(total.hexdigest())
    return 0


if __name__ == "__main__":
    sys.exit(main())
