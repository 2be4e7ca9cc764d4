"""OpenAPI documentation of the chat API's responses: the run body and the CONTRACT error body.

These serializers describe what ``Run.to_dict()`` produces (the error body is in core/openapi.py); they are used only
by drf-spectacular, never to build a response, so the schema cannot drift from a second encoder.
Schemathesis checks real responses against them in tests/aicd/test_openapi.py.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, OpenApiResponse
from rest_framework import serializers

from assistant.current import base as current_states
from assistant.domain import lanes
from assistant.domain.modes import Mode, RunState
from core.openapi import error_responses

_CITATION_CLASSES = list(lanes.CITATION_CLASSES)


class NoticeSerializer(serializers.Serializer):
    pattern = serializers.CharField()
    message = serializers.CharField()


class LaneSerializer(serializers.Serializer):
    label = serializers.ChoiceField(choices=list(lanes.ALL_LABELS))  # type: ignore[assignment]
    text = serializers.CharField(
        help_text=(
            "Plain text with [P1]/[C1]/[U1] citation markers: paragraphs separated by blank lines, "
            "list items starting with '- '. Never HTML or Markdown to render: links, images, HTML "
            "tags, javascript:/data: URLs and bidi or zero-width control characters are removed, "
            "from quoted source text too. With AICD_UNSUPPORTED_CLAIMS=annotate a claim the sources "
            "do not support starts with '(Unsupported: not found in the cited sources.)' and keeps "
            "no citation marker."
        )
    )
    citation_ids = serializers.ListField(child=serializers.CharField())


class CitationSerializer(serializers.Serializer):
    id = serializers.CharField(help_text="P1… package, C1… current/public, U1… uploaded/session.")
    citation_class = serializers.ChoiceField(choices=_CITATION_CLASSES)
    title = serializers.CharField()
    excerpt = serializers.CharField()
    claim_boundary = serializers.CharField()
    source_path = serializers.CharField(required=False, help_text="Package citations.")
    reader_target = serializers.CharField(
        required=False, help_text="Package: /html/<path>#<anchor>."
    )
    source_family = serializers.CharField(required=False)
    source_quality = serializers.CharField(required=False)
    url = serializers.CharField(required=False, help_text="Current/public citations.")
    source_type = serializers.CharField(required=False)
    trust_label = serializers.CharField(required=False)
    freshness_label = serializers.CharField(required=False)
    retrieved_at = serializers.CharField(required=False, help_text="ISO 8601.")
    session_source_id = serializers.CharField(
        required=False, help_text="Uploaded/session citations."
    )
    display_title = serializers.CharField(required=False)
    file_type = serializers.CharField(required=False)
    anchor = serializers.DictField(required=False, child=serializers.JSONField())
    extraction_confidence = serializers.CharField(required=False)
    retention = serializers.CharField(required=False)
    authority_note = serializers.CharField(required=False)


class CurrentContextSerializer(serializers.Serializer):
    adapter = serializers.CharField()
    state = serializers.ChoiceField(
        choices=[
            current_states.DISABLED,
            current_states.UNCONFIGURED,
            current_states.NOT_RETRIEVED,
            current_states.FAIL_CLOSED,
            current_states.RETRIEVED,
            current_states.SKIPPED,
        ]
    )
    detail = serializers.CharField()


class ClaimScoreSerializer(serializers.Serializer):
    lane = serializers.CharField(help_text="The lane label, as in lanes[].label.")
    position = serializers.IntegerField(
        help_text="1-based position of the claim in its lane; 0 for a fixed sentence."
    )
    kind = serializers.ChoiceField(
        choices=["source", "implication", "owner", "fixed"],
        help_text="The rule applied: a claim about its cited sources, a labelled implication, a "
        "missing-evidence item, or an exact fixed sentence.",
    )
    score = serializers.FloatField(min_value=0.0, max_value=1.0)
    supported = serializers.BooleanField()
    source_ids = serializers.ListField(
        child=serializers.CharField(), help_text="The cited ids that support it."
    )
    reasons = serializers.ListField(
        child=serializers.CharField(),
        help_text="Why it falls short, e.g. number, negation, modal strength.",
    )


class ClaimSupportSerializer(serializers.Serializer):
    checked = serializers.BooleanField(
        help_text="False when no provider answer was checked (refusal, provider error, malformed shape)."
    )
    score = serializers.FloatField(
        allow_null=True, help_text="Overall support: the mean claim score."
    )
    threshold = serializers.FloatField(help_text="AICD_CLAIM_SUPPORT_THRESHOLD.")
    on_unsupported = serializers.ChoiceField(
        choices=["strict", "annotate"], help_text="AICD_UNSUPPORTED_CLAIMS."
    )
    unsupported_count = serializers.IntegerField()
    claims = ClaimScoreSerializer(
        many=True, help_text="Per-claim scores, by lane and position; never claim text."
    )


class TelemetrySerializer(serializers.Serializer):
    mode = serializers.ChoiceField(choices=[m.value for m in Mode])
    behaviors = serializers.ListField(child=serializers.CharField())
    package_refs_selected = serializers.IntegerField()
    current_refs_selected = serializers.IntegerField()
    uploaded_refs_selected = serializers.IntegerField()
    provider = serializers.CharField()
    model = serializers.CharField()
    tokens = serializers.DictField(child=serializers.IntegerField())
    estimated_cost = serializers.JSONField(allow_null=True)
    latency_ms = serializers.DictField(child=serializers.FloatField())
    refusal_state = serializers.CharField()
    citation_class_counts = serializers.DictField(child=serializers.IntegerField())
    source_freshness = serializers.DictField(child=serializers.JSONField())
    external_retrieval_count = serializers.IntegerField()
    durable_logging = serializers.CharField()
    claim_support = ClaimSupportSerializer()


class PackageRefSerializer(serializers.Serializer):
    citation_id = serializers.CharField(help_text="The P id sent with the run; empty if not sent.")
    row_id = serializers.CharField()
    title = serializers.CharField()
    reader_target = serializers.CharField()


class RuleSerializer(PackageRefSerializer):
    text = serializers.CharField(help_text="The package rule the draft breaks, quoted.")


class EvidenceSerializer(serializers.Serializer):
    text = serializers.CharField(
        help_text="The uploaded sentence, verbatim (whitespace collapsed)."
    )
    location = serializers.CharField(help_text="Where it is in the upload: page or line.")
    citation_id = serializers.CharField(
        help_text="The U id of the excerpt that holds it; empty when outside the excerpts sent."
    )
    session_source_id = serializers.CharField()
    display_title = serializers.CharField()


class NotEvidenceSerializer(serializers.Serializer):
    text = serializers.CharField(
        help_text="The uploaded sentence, verbatim (whitespace collapsed)."
    )
    location = serializers.CharField(help_text="Where it is in the upload: page or line.")
    session_source_id = serializers.CharField()
    display_title = serializers.CharField()
    kind = serializers.ChoiceField(choices=["instruction", "claimed_approval", "restatement"])
    note = serializers.CharField(help_text="Why the sentence is never evidence, in plain words.")
    restates = serializers.CharField(
        help_text="For a restatement: the criterion whose wording it restates; else empty."
    )


class FindingSerializer(serializers.Serializer):
    criterion = serializers.CharField()
    status = serializers.ChoiceField(
        choices=["present", "partial", "missing", "contradicted", "not_covered"],
        help_text="not_covered: an aspect the question asked about that no declared criterion "
        "covers; its criterion is the aspect as asked and its package row the package's own "
        '"not covered" row.',
    )
    finding_label = serializers.ChoiceField(
        choices=["pass", "concern", "missing evidence", "blocker", "not covered"]
    )
    reason = serializers.CharField(
        help_text="Why the status follows from the evidence: what the draft's sentence says "
        "beside the criterion and its package rules (a rule about another subject is named "
        "as not applied)."
    )
    evidence_expected = serializers.CharField()
    confirmed_by = serializers.CharField()
    evidence = EvidenceSerializer(allow_null=True)
    package = PackageRefSerializer()
    rule = RuleSerializer(allow_null=True, help_text="Set when status is contradicted.")
    not_evidence = NotEvidenceSerializer(
        allow_null=True,
        help_text="The draft sentence this criterion would have rested on, set aside because it "
        "instructs the reviewer, claims an approval or restates a criterion; else null.",
    )


class StructuredReviewSerializer(serializers.Serializer):
    draft_kind = serializers.CharField()
    criteria = FindingSerializer(many=True)
    not_evidence = NotEvidenceSerializer(
        many=True, help_text="Every draft sentence that is never evidence, in draft order."
    )


class RunSerializer(serializers.Serializer):
    run_id = serializers.UUIDField()
    mode = serializers.ChoiceField(choices=[m.value for m in Mode])
    state = serializers.ChoiceField(choices=[s.value for s in RunState])
    refusal = NoticeSerializer(allow_null=True)
    notices = NoticeSerializer(many=True)
    lanes = LaneSerializer(many=True)
    citations = CitationSerializer(many=True)
    current_context = CurrentContextSerializer()
    derivative_output_label = serializers.CharField()
    telemetry = TelemetrySerializer()
    review = StructuredReviewSerializer(
        allow_null=True,
        help_text="The criteria-driven review when uploaded drafts were reviewed; else null.",
    )
    diagnostic = serializers.CharField(
        required=False, help_text="Present only when state is diagnostic: why no answer is shown."
    )


CHAT_RESPONSES = {
    200: OpenApiResponse(
        response=RunSerializer,
        description="A handled run: answered, refused (a normal result) or diagnostic.",
    ),
    **error_responses(400, 401, 403, 413, 415, 429),
}

CHAT_REQUEST_EXAMPLES = [
    OpenApiExample(
        "package_only",
        value={"mode": "package_only", "question": "Who owns each stage gate?"},
        request_only=True,
    ),
    OpenApiExample(
        "package_current",
        value={
            "mode": "package_current",
            "question": "How does the playbook align with NIST AI RMF?",
        },
        request_only=True,
    ),
]

__all__ = ["CHAT_REQUEST_EXAMPLES", "CHAT_RESPONSES", "RunSerializer"]
