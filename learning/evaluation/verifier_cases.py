"""The claim verifier benchmark's cases: claims built from the package's own rows, supported or not.

Every case is one claim cited to one package row, with one other row of the same half. Supported
variants of a row sentence: verbatim, clauses reordered, a glossary term replaced by one of its
listed synonyms, and a claim joined from two sentences of the row. Unsupported variants: a
number, a named role, a duration or a modal changed, the negation flipped, an invented
organisation inserted, and the verbatim sentence cited to another row.

Deterministic (seeded). The artifacts are split in two halves by a seeded shuffle: the
verifier's threshold and rules were tuned on the ``tune`` half only, and the figures that
matter are those of the ``held_out`` half.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from assistant.domain.types import PackageRow
from assistant.package.sentences import split_sentences
from assistant.verify import claims

SEED = 17
SENTENCES_PER_ROW = 3
MIN_WORDS = 7
TUNE, HELD_OUT = "tune", "held_out"

SUPPORTED_KINDS = ("verbatim", "reordered", "glossary paraphrase", "two-sentence summary")
UNSUPPORTED_KINDS = (
    "number changed",
    "role changed",
    "duration changed",
    "modal changed",
    "negation flipped",
    "entity invented",
    "wrong row",
)
INVENTED = ("Contoso", "Fabrikam", "Northwind Traders", "Initech", "Globex", "Tailspin Toys")
ROLES = (
    "product owner",
    "risk owner",
    "source owner",
    "platform owner",
    "model owner",
    "data protection officer",
    "security reviewer",
    "gate owner",
)
_MODAL_SWAPS = (
    (r"\bmust not\b", "may"),
    (r"\bcannot\b", "can"),
    (r"\bmust\b", "may"),
    (r"\bshould\b", "must"),
    (r"\bmay\b", "must"),
    (r"\bshall\b", "may"),
)
_NEGATION_REMOVALS = (
    (r"\b(must|should|may|can|does|do|is|are|will|shall) not\b", r"\1"),
    (r"\bcannot\b", "can"),
    (r"\bnever\b", "always"),
    (r"\bno\b", "some"),
    (r"\bwithout\b", "with"),
)
_NEGATION_INSERTS = (r"\b(is|are|must|should|can|will|does|do)\b", r"\1 not")
_UNITS = ("day", "week", "month", "quarter", "year", "hour")
_SYNONYM_LINE = re.compile(r"Also called:\s*(.+)")


@dataclass(frozen=True)
class Case:
    """One benchmark claim: which half, what kind, whether it is supported, and the sources."""

    half: str
    kind: str
    supported: bool
    claim: str
    cited: PackageRow
    other: PackageRow


def halves(rows: Sequence[PackageRow], seed: int = SEED) -> dict[str, str]:
    """Each artifact's half: a seeded shuffle of the artifact paths, split in the middle."""
    paths = sorted({row.source_path for row in rows})
    random.Random(seed).shuffle(paths)  # noqa: S311 - a seeded, reproducible split, not a secret
    middle = len(paths) // 2
    return {path: (TUNE if i < middle else HELD_OUT) for i, path in enumerate(paths)}


def glossary(rows: Iterable[PackageRow]) -> dict[str, list[str]]:
    """Glossary terms and their listed synonyms, read from the glossary rows of the pack."""
    out: dict[str, list[str]] = {}
    for row in rows:
        match = _SYNONYM_LINE.search(row.text) if row.topic == "glossary" else None
        if match:
            out[row.heading] = [w.strip() for w in match.group(1).split(";") if w.strip()]
    return out


def _candidates(row: PackageRow) -> list[str]:
    return [
        s
        for s in split_sentences(row.text)
        if len(s.split()) >= MIN_WORDS and not s.endswith(":") and '"' not in s and "|" not in s
    ]


def _sub_once(pattern: str, replacement: str, text: str) -> str | None:
    changed, n = re.subn(pattern, replacement, text, count=1, flags=re.I)
    return changed if n else None


def _reordered(sentence: str) -> str | None:
    body = sentence.rstrip(".")
    head, sep, tail = body.partition(", ")
    if not sep or len(head.split()) < 3 or len(tail.split()) < 3 or "," in tail:
        return None
    return f"{tail[0].upper()}{tail[1:]}, {head[0].lower()}{head[1:]}."


def _paraphrased(sentence: str, terms: dict[str, list[str]], rng: random.Random) -> str | None:
    for term in sorted(terms, key=len, reverse=True):
        if terms[term] and re.search(rf"\b{re.escape(term)}\b", sentence, re.I):
            synonym = rng.choice(terms[term])
            return re.sub(rf"\b{re.escape(term)}\b", synonym, sentence, count=1, flags=re.I)
    return None


def _summary(first: str, second: str) -> str:
    a = first.rstrip(".;").split("; ")[0]
    b = second.rstrip(".;").split("; ")[0]
    return f"{a}; {b[0].lower()}{b[1:]}."


def _number_changed(sentence: str) -> str | None:
    match = re.search(r"(?<![\w.])\d+(?![\w.]\d)", sentence)
    if match is None:
        return None
    return sentence[: match.start()] + str(int(match.group(0)) + 1) + sentence[match.end() :]


def _role_changed(sentence: str, rng: random.Random) -> str | None:
    found = claims.roles(sentence)
    if not found:
        return None
    old = sorted(found)[0]
    new = rng.choice([r for r in ROLES if r not in found])
    return _sub_once(rf"\b{re.escape(old)}s?\b", new, sentence)


def _duration_changed(sentence: str) -> str | None:
    match = re.search(
        r"\b(\d+|one|two|three|four|six|twelve)[\s-]+(" + "|".join(_UNITS) + r")s?\b",
        sentence,
        re.I,
    )
    if match is None:
        return None
    unit = match.group(2).lower()
    other = _UNITS[(_UNITS.index(unit) + 1) % len(_UNITS)]
    return sentence[: match.start(2)] + other + sentence[match.start(2) + len(unit) :]


def _modal_changed(sentence: str) -> str | None:
    for pattern, replacement in _MODAL_SWAPS:
        changed = _sub_once(pattern, replacement, sentence)
        if changed:
            return changed
    return None


def _negation_flipped(sentence: str) -> str | None:
    for pattern, replacement in _NEGATION_REMOVALS:
        changed = _sub_once(pattern, replacement, sentence)
        if changed:
            return changed
    return _sub_once(*_NEGATION_INSERTS, sentence)


def _entity_invented(sentence: str, rng: random.Random) -> str:
    return f"{sentence.rstrip('.')} at {rng.choice(INVENTED)}."


def build_cases(rows: Sequence[PackageRow], seed: int = SEED) -> list[Case]:
    """Every benchmark case, in a deterministic order."""
    rng = random.Random(seed)  # noqa: S311 - reproducible benchmark variants, not a secret
    half_of = halves(rows, seed)
    terms = glossary(rows)
    usable = [row for row in rows if row.topic != "glossary" and _candidates(row)]
    cases: list[Case] = []
    for row in usable:
        half = half_of[row.source_path]
        others = [
            r for r in usable if r.source_path != row.source_path and half_of[r.source_path] == half
        ]
        sentences = _candidates(row)
        picked = rng.sample(sentences, min(SENTENCES_PER_ROW, len(sentences)))
        for sentence in picked:
            other = rng.choice(others)
            rest = [s for s in sentences if s != sentence]
            variants = [
                ("reordered", True, _reordered(sentence)),
                ("glossary paraphrase", True, _paraphrased(sentence, terms, rng)),
                (
                    "two-sentence summary",
                    True,
                    _summary(sentence, rng.choice(rest)) if rest else None,
                ),
                ("number changed", False, _number_changed(sentence)),
                ("role changed", False, _role_changed(sentence, rng)),
                ("duration changed", False, _duration_changed(sentence)),
                ("modal changed", False, _modal_changed(sentence)),
                ("negation flipped", False, _negation_flipped(sentence)),
                ("entity invented", False, _entity_invented(sentence, rng)),
            ]
            cases.append(Case(half, "verbatim", True, sentence, row, other))
            cases += [
                Case(half, kind, supported, claim, row, other)
                for kind, supported, claim in variants
                if claim and claim != sentence
            ]
            # A sentence the other row also states (shared boilerplate) is not a wrong citation.
            if claims.flat(sentence).rstrip(".") not in claims.flat(other.text):
                cases.append(Case(half, "wrong row", False, sentence, other, row))
    return cases
