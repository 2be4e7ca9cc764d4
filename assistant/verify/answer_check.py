"""The answer check: parses provider text into lanes and verifies lane shape and citation ids.

Whatever a provider returns, a reviewer only sees lanes whose citations name sources that were
actually sent, in the class the lane admits; anything else becomes a sanitized diagnostic.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from assistant.domain import lane_labels, lanes
from assistant.domain.prompt import ProviderRequest
from assistant.domain.types import Lane
from assistant.review import findings as review_findings

MARKER_RE = re.compile(r"\[\s*([A-Za-z]+\d+(?:\s*[,;]\s*[A-Za-z]*\d+)*)\s*\]")
_LABEL_ALTERNATION = "|".join(re.escape(label) for label in lanes.ALL_LABELS)
# A label line: the label alone (as heading, bold or numbered item), or followed by a colon and
# the lane's first sentence, e.g. "**Package says:** Owners are named [P1]."
LABEL_LINE_RE = re.compile(
    r"^[ \t]*(?:#{1,6}[ \t]*)?(?:\d{1,2}[.)][ \t]*)?(?:\*\*|__)?(?P<label>"
    + _LABEL_ALTERNATION
    + r")[ \t]*(?P<colon1>:)?[ \t]*(?:\*\*|__)?[ \t]*(?P<colon2>:)?[ \t]*(?P<rest>.*?)[ \t]*$",
    re.I | re.M,
)
# Bracketed text that tries to be a citation but is not one the gate can read: "[1]", "[P1-P3]",
# "[source P2]". Real markers are removed before this is searched.
LOOSE_MARKER_RE = re.compile(r"\[[^\[\]\n]{0,40}?\b[PCUpcu]?\d+\b[^\[\]\n]{0,40}?\]")
LINK_RE = re.compile(r"https?://[^\s<>()\[\]]+|\bwww\.[^\s<>()\[\]]+|\]\([^)\s]*\)", re.I)
HTML_RE = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*(?:\s[^<>]*)?/?>|<!--|&#?\w+;")
SAFE_ID_RE = re.compile(r"[PCU]\d{1,4}")
MAX_ANSWER_CHARS = 20_000
# Lanes that may cite any class that was sent, and must cite at least one source.
SYNTHESIS_LANES = (lanes.SYNTHESIS, lanes.ASSESSMENT)


@dataclass(frozen=True)
class GateResult:
    """Verified lanes, or the list of problems that make the answer unshowable."""

    lanes: tuple[Lane, ...]
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        return not self.problems


def citation_ids(text: str, literal: frozenset[str] = frozenset()) -> list[str]:
    """Every citation id in ``text`` in order of appearance, e.g. ``[P1, P2]`` gives P1, P2.

    A marker in ``literal`` is source text, not a citation: see ``quoted_markers``."""
    ids: list[str] = []
    for match in MARKER_RE.finditer(text):
        if match.group(0) in literal:
            continue
        for part in re.split(r"\s*[,;]\s*", match.group(1)):
            if part:
                ids.append(part.upper())
    return ids


def quoted_markers(sent_text: str, sent: dict[str, str]) -> frozenset[str]:
    """Marker-shaped text of the sources sent that names no source sent ("Box<[u8]>", a "[H1]"
    footnote): quoted verbatim, it is the source's own text, not a citation of a source that
    was never sent. A marker naming a sent source stays a citation wherever it appears."""
    return frozenset(
        m.group(0)
        for m in MARKER_RE.finditer(sent_text)
        if any(cid not in sent for cid in citation_ids(m.group(0)))
    )


def _canonical_label(found: str) -> str:
    for label in lanes.ALL_LABELS:
        if label.lower() == found.lower():
            return label
    return found


def parse(text: str, sent_text: str = "") -> tuple[list[tuple[str, str]], list[str]]:
    """Split text at lane-label lines; text before the first label is a problem.

    A label followed by text on its line is not a label when that line repeats a source sent
    (``sent_text``), e.g. an upload titled "Package says: ..." quoted at the start of a line.
    """
    problems: list[str] = []
    snippets = lane_labels.source_label_snippets(sent_text) if sent_text else ()
    matches = [
        m
        for m in LABEL_LINE_RE.finditer(text)
        if not m.group("rest")
        or (
            (m.group("colon1") or m.group("colon2"))
            and not (snippets and lane_labels.is_source_text(m.group(0), snippets))
        )
    ]
    if not matches:
        return [], ["the answer has no lane labels"]
    if text[: matches[0].start()].strip():
        problems.append("the answer has text before its first lane label")
    sections = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = (m.group("rest") + "\n" + text[m.end() : end]).strip()
        sections.append((_canonical_label(m.group("label")), body))
    return sections, problems


def verify(text: str, request: ProviderRequest) -> GateResult:
    """Check the provider's answer against what was sent; return lanes or problems, never both."""
    if len(text) > MAX_ANSWER_CHARS:
        return GateResult((), (f"the answer is longer than {MAX_ANSWER_CHARS} characters",))
    sent = {ref.citation_id: ref.citation_class for ref in request.all_refs()}
    sent_text = _sent_text(request)
    sections, problems = parse(text, sent_text)
    problems.extend(_lane_order_problems([label for label, _ in sections], request))
    literal = quoted_markers(sent_text, sent)

    result: list[Lane] = []
    for label, body in sections:
        ids = citation_ids(body, literal)
        problems.extend(_citation_problems(label, ids, sent))
        problems.extend(_lane_content_problems(label, body, ids, request, literal))
        if label == lanes.ASSESSMENT and request.criteria:
            for name in review_findings.unknown_criteria(body, request.criteria):
                problems.append(
                    f"lane '{label}' has a finding for a criterion that was not sent: {name[:60]}"
                )
        problems.extend(_markup_problems(label, body, request))
        unique = tuple(dict.fromkeys(ids))
        result.append(Lane(label=label, text=body, citation_ids=unique))
    if problems:
        return GateResult((), tuple(dict.fromkeys(problems)))
    return GateResult(tuple(result), ())


def _lane_order_problems(labels: list[str], request: ProviderRequest) -> list[str]:
    """Lanes not allowed in the mode, repeated, out of order or missing."""
    with_uploads = bool(request.uploaded_refs)
    required = lanes.required_lanes(request.mode, with_uploads=with_uploads)
    allowed = lanes.allowed_order(request.mode, with_uploads=with_uploads)
    problems = [
        f"lane '{label}' is not allowed in this mode" for label in labels if label not in allowed
    ]
    if len(set(labels)) != len(labels):
        problems.append("a lane label appears more than once")
    if [label for label in labels if label in allowed] != [a for a in allowed if a in labels]:
        problems.append("the lanes are not in the required order: " + ", ".join(required))
    problems += [
        f"the required lane '{label}' is missing" for label in required if label not in labels
    ]
    return problems


def _citation_problems(label: str, ids: list[str], sent: dict[str, str]) -> list[str]:
    """Ids that were not sent, or whose citation class the lane does not admit."""
    problems = []
    for cid in ids:
        if cid not in sent:
            shown = cid if SAFE_ID_RE.fullmatch(cid) else "an unrecognised id"
            problems.append(f"lane '{label}' cites {shown}, which was not among the sources sent")
        elif label in lanes.LANE_CLASS and sent[cid] != lanes.LANE_CLASS[label]:
            problems.append(
                f"lane '{label}' cites {cid}, a {sent[cid]}; it admits only {lanes.LANE_CLASS[label]}s"
            )
    return problems


def _lane_content_problems(
    label: str,
    body: str,
    ids: list[str],
    request: ProviderRequest,
    literal: frozenset[str] = frozenset(),
) -> list[str]:
    if not body:
        return [f"lane '{label}' is empty"]
    if label == lanes.CURRENT_SAYS and not request.current_refs:
        if " ".join(body.split()) != lanes.CURRENT_NOT_RETRIEVED:
            return [f"lane '{label}' makes claims although no current/public source was sent"]
        return []
    if label == lanes.DIVERGENCE and not ids:
        if " ".join(body.split()) != lanes.DIVERGENCE_FALLBACK:
            return [f"lane '{label}' has no citation and is not the exact no-divergence sentence"]
        return []
    if label in SYNTHESIS_LANES and not ids:
        return [f"lane '{label}' cites no source that was sent"]
    if label in lanes.LANE_CLASS:
        paragraphs = [p for p in re.split(r"\n\s*\n", body) if p.strip()]
        if any(not citation_ids(p, literal) for p in paragraphs):
            return [f"a paragraph of lane '{label}' has no citation"]
        if any(not re.search(r"\w", MARKER_RE.sub("", p)) for p in paragraphs):
            return [f"a paragraph of lane '{label}' has citations but no text"]
    return []


def _markup_problems(label: str, body: str, request: ProviderRequest) -> list[str]:
    """Links, HTML and unreadable markers are problems unless quoted verbatim from a source sent.

    The renderer would escape them anyway; the gate refuses them because a model that writes
    them is not answering from the sources, and a link could point anywhere.
    """
    checks = (
        (LINK_RE, f"lane '{label}' contains a link that is not in the sources sent"),
        (HTML_RE, f"lane '{label}' contains HTML markup"),
        (LOOSE_MARKER_RE, f"lane '{label}' has a citation marker the gate cannot read"),
    )
    unmarked = MARKER_RE.sub(" ", body)
    problems = []
    sent_text: str | None = None  # joined only when something needs looking up in it
    for pattern, problem in checks:
        for match in pattern.finditer(body if pattern is LINK_RE else unmarked):
            if sent_text is None:
                sent_text = _sent_text(request)
            # A link ends before the punctuation and closing quote of the sentence quoting it:
            # 'see https://x.org/a."' names https://x.org/a.
            if match.group(0).rstrip(".,;:!?\"'\u201d\u2019") not in sent_text:
                problems.append(problem)
                break
    return problems


def _sent_text(request: ProviderRequest) -> str:
    return "\n".join(
        part
        for ref in request.all_refs()
        for part in (ref.title, ref.text, *(str(v) for v in ref.meta.values()))
    )
