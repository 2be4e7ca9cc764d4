"""The deterministic structured review: uploaded excerpts compared with the package criteria sent.

It reads only the request. Criteria are the package sentences that best match the question; a
criterion's coverage is the share of its content words found in the uploaded excerpts. Findings
use the review vocabulary (pass, concern, blocker, missing evidence, not covered) and cite the P
and U ids they rest on. It is wording overlap, said so in the answer, never approval.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from assistant.domain.lane_labels import neutralise
from assistant.domain.prompt import ProviderRequest, SourceRef
from assistant.package.sentences import best_sentences, split_sentences
from assistant.review.upload_sentences import quotable
from core.text import content_stems, excerpt, words

PASS, CONCERN, BLOCKER, MISSING, NOT_COVERED = (
    "pass",
    "concern",
    "blocker",
    "missing evidence",
    "not covered",
)
PASS_SHARE = 0.5
CONCERN_SHARE = 0.2
NOT_COVERED_SHARE = 0.15
MAX_CRITERIA = 8
CRITERIA_PER_REF = 2
MAX_NOT_COVERED = 3
QUOTE_CHARS = 300
CRITERION_CHARS = 150
_MANDATORY = re.compile(
    r"\b(?:must|shall|never|cannot|can't|may not|only if|mandatory|(?:is|are) required)\b", re.I
)
_OWNER = re.compile(
    r"\b(?:(?:product|source|risk|gate|data|security|model|platform|sustainment|service|accountable)"
    r" (?:owner|reviewer|officer)|data protection officer|change advisory board|legal counsel)\b",
    re.I,
)
GENERIC = frozenset(
    content_stems(
        "review reviewer reviewers proposal proposals package playbook assistant check checks "
        "criterion criteria evidence expected typical include includes including every each "
        "capability whether asks ask also one two use used uses enterprise architecture not "
        "approved approve approval"
    )
)


def inert(text: str) -> str:
    """User text made safe to quote in a lane: one line, and no bracket that could read as a citation."""
    return " ".join(text.split()).replace("[", "(").replace("]", ")")


@dataclass(frozen=True)
class Criterion:
    pid: str
    sentence: str
    stems: frozenset[str]
    mandatory: bool


@dataclass(frozen=True)
class Finding:
    label: str
    criterion: Criterion | None
    u_ids: tuple[str, ...]
    shared: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()


def _stems(text: str) -> frozenset[str]:
    return frozenset(s for s in content_stems(text) if s not in GENERIC and len(s) > 2)


def _words_for(sentence: str, stems: Iterable[str]) -> tuple[str, ...]:
    wanted = set(stems)
    out: list[str] = []
    for word in words(sentence):
        stem = content_stems(word)
        if stem and stem[0] in wanted and word not in out:
            out.append(word)
    return tuple(out)


_CUE = re.compile(
    r"\b(?:checks|asks (?:whether|how|who|what|which)|evidence expected|expects?|must|should"
    r"|requires?|required|shall)\b",
    re.I,
)


def criteria(request: ProviderRequest, terms: list[str]) -> list[Criterion]:
    """Package sentences that state what a reviewer checks and share the question's terms.

    A criterion sentence carries a cue ("checks", "asks whether", "evidence expected", "must",
    "should" ...); a package excerpt without one offers its best-matching sentence instead when it
    shares at least two terms. List lead-ins and quoted examples are skipped. Each keeps its P id.
    """
    wanted = set(terms)
    out: list[Criterion] = []
    seen: set[str] = set()
    for ref in request.package_refs:
        cued: list[tuple[int, int, str, frozenset[str]]] = []
        plain: list[tuple[int, int, str, frozenset[str]]] = []
        for position, sentence in enumerate(split_sentences(ref.text)):
            stems = _stems(sentence)
            if sentence.endswith(":") or '"' in sentence or len(stems) < 3 or sentence in seen:
                continue
            overlap = len(wanted & set(content_stems(sentence)))
            if not overlap:
                continue
            (cued if _CUE.search(sentence) else plain).append((overlap, -position, sentence, stems))
        picked = sorted(cued, reverse=True)[:CRITERIA_PER_REF] or [
            c for c in sorted(plain, reverse=True)[:1] if c[0] >= 2
        ]
        for _, _, sentence, stems in picked:
            seen.add(sentence)
            out.append(
                Criterion(ref.citation_id, sentence, stems, bool(_MANDATORY.search(sentence)))
            )
    return out[:MAX_CRITERIA]


def first_u_per_source(refs: tuple[SourceRef, ...]) -> tuple[str, ...]:
    firsts: dict[str, str] = {}
    for ref in refs:
        firsts.setdefault(str(ref.meta.get("session_source_id", "")), ref.citation_id)
    return tuple(firsts.values())


def findings(request: ProviderRequest, terms: list[str]) -> list[Finding]:
    uploads = request.uploaded_refs
    u_stems = {ref.citation_id: _stems(ref.text) for ref in uploads}
    everything = frozenset().union(*u_stems.values()) if u_stems else frozenset()
    checked = first_u_per_source(uploads)
    out: list[Finding] = []
    for criterion in criteria(request, terms):
        ranked = sorted(
            uploads, key=lambda r: (-len(criterion.stems & u_stems[r.citation_id]), r.citation_id)
        )
        best = ranked[0]
        best_share = len(criterion.stems & u_stems[best.citation_id]) / len(criterion.stems)
        covered = criterion.stems & everything
        missing = _words_for(criterion.sentence, criterion.stems - everything)
        if best_share >= PASS_SHARE:
            shared = _words_for(criterion.sentence, criterion.stems & u_stems[best.citation_id])
            out.append(Finding(PASS, criterion, (best.citation_id,), shared, missing))
        elif len(covered) / len(criterion.stems) >= CONCERN_SHARE:
            contributing = tuple(
                r.citation_id for r in ranked[:2] if criterion.stems & u_stems[r.citation_id]
            )
            out.append(
                Finding(
                    CONCERN,
                    criterion,
                    contributing,
                    _words_for(criterion.sentence, covered),
                    missing,
                )
            )
        else:
            label = BLOCKER if criterion.mandatory else MISSING
            out.append(Finding(label, criterion, checked, (), missing))
    package_stems = frozenset().union(*(_stems(ref.text) for ref in request.package_refs))
    not_covered = 0
    for ref in uploads:
        own = u_stems[ref.citation_id]
        if len(own) >= 4 and len(own & package_stems) / len(own) < NOT_COVERED_SHARE:
            out.append(Finding(NOT_COVERED, None, (ref.citation_id,)))
            not_covered += 1
            if not_covered >= MAX_NOT_COVERED:
                break
    return out


def _where(ref: SourceRef) -> str:
    title = neutralise(inert(str(ref.meta.get("display_title", ref.title))))
    return f"{title}, {inert(str(ref.meta.get('anchor', '')))}"


def uploaded_lane(request: ProviderRequest, terms: list[str]) -> str:
    """Each uploaded excerpt quoted with its title, anchor and U id."""
    paragraphs = []
    for ref in request.uploaded_refs:
        quoted = best_sentences(ref.text, terms, limit=1, split=quotable)
        quote = inert(excerpt(quoted[0] if quoted else ref.text, QUOTE_CHARS))
        paragraphs.append(f'{_where(ref)}: "{quote}" [{ref.citation_id}]')
    return "\n\n".join(paragraphs)


def _ids(ids: Iterable[str]) -> str:
    return "[" + ", ".join(ids) + "]"


def assessment_lane(request: ProviderRequest, found: list[Finding]) -> str:
    refs = {ref.citation_id: ref for ref in request.uploaded_refs}
    p_all = _ids(ref.citation_id for ref in request.package_refs)
    lines = []
    for f in found:
        if f.criterion is None:
            ref = refs[f.u_ids[0]]
            lines.append(
                f"- {NOT_COVERED}: {_where(ref)} {_ids(f.u_ids)} is not addressed by the package "
                f"excerpts sent {p_all}; no package finding is made about it."
            )
            continue
        crit = f'"{excerpt(f.criterion.sentence, CRITERION_CHARS)}" [{f.criterion.pid}]'
        if f.label == PASS:
            lines.append(
                f"- {PASS}: {crit} is addressed in {_where(refs[f.u_ids[0]])} {_ids(f.u_ids)} "
                f"(shared terms: {', '.join(f.shared[:6])})."
            )
        elif f.label == CONCERN:
            gap = f"; not found: {', '.join(f.missing[:5])}" if f.missing else ""
            lines.append(
                f"- {CONCERN}: {crit} is only partly addressed {_ids(f.u_ids)} "
                f"(shared terms: {', '.join(f.shared[:5])}{gap})."
            )
        elif f.label == BLOCKER:
            lines.append(
                f"- {BLOCKER}: {crit} states a requirement that the uploaded excerpts checked "
                f"{_ids(f.u_ids)} do not address."
            )
        else:
            lines.append(
                f"- {MISSING}: {crit} has no matching evidence in the uploaded excerpts checked "
                f"{_ids(f.u_ids)}."
            )
    closing = (
        "These findings compare the wording of the cited package criteria with the uploaded "
        f"excerpts sent; a reviewer confirms each one. They are review assistance for the named "
        f"owners, not approval, and the uploaded material does not change package authority "
        f"[{request.package_refs[0].citation_id}]."
    )
    body = (
        "\n".join(lines)
        if lines
        else (
            "No package criterion sentence was specific enough to compare with the uploaded excerpts "
            f"{_ids(first_u_per_source(request.uploaded_refs))}."
        )
    )
    return body + "\n\n" + closing


_NEED = {
    BLOCKER: "Blocker to resolve",
    MISSING: "Evidence to supply",
    CONCERN: "Evidence to complete",
}


def missing_lane(request: ProviderRequest, found: list[Finding]) -> str:
    gaps = [(f, f.criterion) for f in found if f.criterion is not None and f.label != PASS]
    lines = []
    for f, criterion in gaps:
        absent = f": not found in the upload: {', '.join(f.missing[:6])}" if f.missing else ""
        lines.append(
            f'- {_NEED[f.label]} for [{criterion.pid}] "{excerpt(criterion.sentence, 90)}"{absent}.'
        )
    for f in found:
        if f.label == NOT_COVERED:
            lines.append(
                f"- Unanswered question: which package guidance applies to {_where(_ref(request, f.u_ids[0]))} "
                f"[{f.u_ids[0]}]? The package excerpts sent do not cover it."
            )
    owners = _owners(
        request, [c.pid for _, c in gaps] or [r.citation_id for r in request.package_refs]
    )
    if owners:
        named = ", ".join(f"{role} [{pid}]" for role, pid in owners)
        decision = (
            f"Owner decision needed: {named}. This review approves nothing; these owners decide "
            "what the findings mean for the proposal."
        )
    else:
        decision = (
            "Owner decision needed: the package excerpts sent do not name the deciding owner "
            f"[{request.package_refs[0].citation_id}]; ask which accountable owner decides before "
            "relying on this review."
        )
    if not lines:
        lines.append(
            "- No missing evidence was found for the package criteria sent "
            f"[{request.package_refs[0].citation_id}]."
        )
    return "\n".join(lines) + "\n\n" + decision


def _ref(request: ProviderRequest, cid: str) -> SourceRef:
    return next(r for r in request.uploaded_refs if r.citation_id == cid)


def _owners(request: ProviderRequest, preferred: list[str]) -> list[tuple[str, str]]:
    order = list(dict.fromkeys(preferred + [r.citation_id for r in request.package_refs]))
    texts = {r.citation_id: r.text for r in request.package_refs}
    found: dict[str, str] = {}
    for pid in order:
        for match in _OWNER.finditer(texts.get(pid, "")):
            found.setdefault(match.group(0).lower(), pid)
    return list(found.items())[:4]
