"""From a provider's raw answer to the lanes a reviewer may see: shape, output rails, claim support.

Every provider's answer takes this one path (``assistant.pipeline.services.answer`` calls ``verify``):

1. the configured API key is scrubbed from the text (and, by ``safe_model`` / ``safe_message``,
   from the model name and error messages) before anything is logged, rendered or returned;
2. the gate (``assistant.verify.answer_check``) checks lanes, order and citation ids;
3. lane text becomes plain text (``output_rails.plain_text``);
4. output rails: no secret-shaped text the provider invented or the configured key (secret-shaped
   text quoted verbatim from an uploaded excerpt sent is the user's own: it is masked, and the
   answer stands), no approval that is not a verbatim quote of a source sent;
5. claim support (lanes split into claims by ``assistant.verify.claims``, each scored by
   ``assistant.verify.claim_support``): below the threshold, ``strict`` withholds the
   answer with a diagnostic that names claims by lane and position only, ``annotate`` shows
   the claim marked unsupported, without its citation markers.

A problem never quotes answer text: it could carry injected content.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Container, Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings

from assistant.domain.prompt import ProviderRequest
from assistant.domain.types import Citation, Lane, StructuredReview
from assistant.package.expansion import Expansion
from assistant.verify import answer_check as gate
from assistant.verify import claim_analysis, claim_support, claims, output_rails
from assistant.verify.claim_support import SupportReport

STRICT, ANNOTATE = "strict", "annotate"
#: What a lane shows in place of secret-shaped text it quotes from the user's own upload.
MASKED = "[masked: looks like a secret]"
_TRAILING = ".,;:!?)]}'\"”’…"
UNSUPPORTED_PREFIX = "(Unsupported: not found in the cited sources.)"
# Citation fields that are identifiers or URLs checked elsewhere, not source prose.
_UNTOUCHED_FIELDS = frozenset(
    {"url", "row_id", "session_source_id", "source_path", "reader_target"}
)


@dataclass(frozen=True)
class Verified:
    """Lanes that may be shown, or the problems that withhold the answer; the support scores."""

    lanes: tuple[Lane, ...]
    problems: tuple[str, ...]
    support: SupportReport | None = None

    @property
    def ok(self) -> bool:
        return not self.problems


def configured_key() -> str:
    return str(getattr(settings, "AICD_PROVIDER_API_KEY", "") or "")


def safe_message(text: str) -> str:
    """A provider-derived message with the configured key and any secret-shaped text redacted."""
    return output_rails.redact_secrets(output_rails.scrub(text, configured_key()), configured_key())


def safe_model(model: str, fallback: str) -> str:
    """The reported model name, or ``fallback`` when it carries the key or looks like a secret."""
    key = configured_key()
    if (key and key in model) or output_rails.secret_kinds(model):
        return output_rails.scrub(fallback, key)
    return model


def safe_citation(citation: Citation) -> Citation:
    """A citation whose source text (title, excerpt, fields) is plain and has secrets redacted."""
    return dataclasses.replace(
        citation,
        title=_clean(citation.title),
        excerpt=_clean(citation.excerpt),
        claim_boundary=_clean(citation.claim_boundary),
        fields={
            k: v if k in _UNTOUCHED_FIELDS else _clean_value(v) for k, v in citation.fields.items()
        },
    )


def safe_review(review: StructuredReview) -> StructuredReview:
    """A structured review whose draft and package text is plain and has secrets redacted.

    Its evidence quotes come from uploaded drafts, so they get the same treatment as a citation's
    excerpt: no link, markup or bidirectional control reaches the body, the page or the packet.
    """
    return dataclasses.replace(
        review,
        criteria=tuple(_clean_value(finding) for finding in review.criteria),
        not_evidence=tuple(_clean_value(note) for note in review.not_evidence),
    )


def _clean(text: str) -> str:
    return output_rails.redact_secrets(output_rails.plain_text(text), configured_key())


def _clean_value(value: Any) -> Any:
    if isinstance(value, str):
        return _clean(value)
    if isinstance(value, dict):
        return {k: _clean_value(v) for k, v in value.items()}
    return value


def verify(
    text: str,
    request: ProviderRequest,
    *,
    expansion: Expansion,
    vocabulary: Container[str] = (),
    threshold: float | None = None,
    on_unsupported: str | None = None,
) -> Verified:
    """Check a provider's answer; return the lanes to show, or problems, never both."""
    key = configured_key()
    threshold = settings.AICD_CLAIM_SUPPORT_THRESHOLD if threshold is None else threshold
    on_unsupported = on_unsupported or settings.AICD_UNSUPPORTED_CLAIMS
    leaked = bool(key) and key in text
    shape = gate.verify(output_rails.scrub(text, key), request)
    leak_problem = ["the answer contains the configured API key"] if leaked else []
    if not shape.ok:
        return Verified((), (*shape.problems, *leak_problem))
    shown = tuple(
        Lane(
            label=lane.label,
            text=output_rails.plain_text(lane.text),
            citation_ids=lane.citation_ids,
        )
        for lane in shape.lanes
    )
    problems: list[str] = list(leak_problem)
    own = _uploaded_texts(request)
    for lane in shown:
        kinds = sorted({kind for kind, _, _ in _invented_secrets(lane.text, key, own)})
        if kinds:
            problems.append(
                f"lane '{lane.label}' contains text shaped like a secret ({', '.join(kinds)})"
            )
    problems += _approval_problems(shown, request)
    report = claim_support.check(
        shown, request, expansion=expansion, vocabulary=vocabulary, threshold=threshold
    )
    if report.unsupported and on_unsupported == STRICT:
        problems += [_unsupported_problem(c) for c in report.unsupported]
    if problems:
        return Verified((), tuple(dict.fromkeys(problems)), report)
    if report.unsupported:
        shown = _annotated(shown, report)
    return Verified(tuple(_masked(lane, key) for lane in shown), (), report)


def _uploaded_texts(request: ProviderRequest) -> tuple[str, ...]:
    """The uploaded excerpts sent, as a lane shows them: plain, whitespace collapsed, and with
    square brackets as round ones too (the deterministic review lanes write them so)."""
    texts = []
    for text in (*(ref.text for ref in request.uploaded_refs), *request.page_joined_texts()):
        flat = " ".join(output_rails.plain_text(text).split())
        texts += [flat, flat.replace("[", "(").replace("]", ")")]
    return tuple(texts)


def _invented_secrets(text: str, key: str, own: Sequence[str]) -> list[tuple[str, int, int]]:
    """The secret-shaped spans of ``text`` that are not the user's own quoted content.

    A span is the user's own when it appears verbatim (whitespace collapsed, trailing punctuation
    aside) in an uploaded excerpt that was sent. The configured API key is never the user's own,
    wherever it appears, and neither is anything the provider wrote that no upload holds.
    """
    invented = []
    for kind, start, end in output_rails.secret_spans(text, key):
        span = " ".join(text[start:end].split()).rstrip(_TRAILING)
        if kind == output_rails.CONFIGURED_KEY or not span or not any(span in t for t in own):
            invented.append((kind, start, end))
    return invented


def _masked(lane: Lane, key: str) -> Lane:
    """A checked lane with the user's own secret-shaped text masked (invented ones withheld it)."""
    spans = output_rails.secret_spans(lane.text, key)
    if not spans:
        return lane
    return dataclasses.replace(lane, text=output_rails.replace_spans(lane.text, spans, MASKED))


def _unsupported_problem(score: claim_support.ClaimScore) -> str:
    why = ", ".join(score.reasons) or "below the threshold"
    return (
        f"claim {score.position} of lane '{score.lane}' is not supported by the sources it cites "
        f"(score {score.score:.2f}: {why})"
    )


def _approval_problems(shown: Sequence[Lane], request: ProviderRequest) -> list[str]:
    sent = claims.flat(
        "\n".join(
            output_rails.plain_text(part)
            for ref in request.all_refs()
            for part in (ref.title, ref.text, *claim_analysis.row_readings(ref.text))
        )
        + "\n"
        + "\n".join(output_rails.plain_text(text) for text in request.page_joined_texts())
    )
    problems = []
    for lane in shown:
        for claim in claims.lane_claims(lane):
            own_words = claims.without_quotes_of(claim.body, sent)
            if output_rails.approval_grants(own_words) and not claims.verbatim(claim.body, sent):
                problems.append(
                    f"claim {claim.position} of lane '{lane.label}' grants or implies an approval "
                    "that is not a verbatim quote of a source sent"
                )
    return problems


def _annotated(shown: Sequence[Lane], report: SupportReport) -> tuple[Lane, ...]:
    """Unsupported claims marked, their citation markers removed; lane ids from what is left."""
    bad = {(c.lane, c.position) for c in report.unsupported}
    out = []
    for lane in shown:
        text = lane.text
        for claim in reversed(claims.lane_claims(lane)):
            if (lane.label, claim.position) in bad:
                marked = (
                    f"{UNSUPPORTED_PREFIX} {' '.join(gate.MARKER_RE.sub(' ', claim.text).split())}"
                )
                text = text[: claim.start] + marked + text[claim.end :]
        ids = tuple(dict.fromkeys(gate.citation_ids(text)))
        out.append(Lane(label=lane.label, text=text, citation_ids=ids))
    return tuple(out)


def telemetry(report: SupportReport | None, on_unsupported: str | None = None) -> dict[str, Any]:
    """The run summary's ``claim_support`` entry: overall and per-claim scores, never claim text."""
    return {
        "claim_support": {
            "checked": report is not None,
            "score": report.score if report is not None else None,
            "threshold": report.threshold
            if report is not None
            else settings.AICD_CLAIM_SUPPORT_THRESHOLD,
            "on_unsupported": on_unsupported or settings.AICD_UNSUPPORTED_CLAIMS,
            "unsupported_count": len(report.unsupported) if report is not None else 0,
            "claims": [c.to_dict() for c in report.claims] if report is not None else [],
        }
    }
