"""Answer lanes: the exact labels, which lanes each mode carries, and which citation class each admits."""

from __future__ import annotations

from assistant.domain.modes import Mode

PACKAGE_SAYS = "Package says"
CURRENT_SAYS = "Current/public source says"
SYNTHESIS = "Synthesis / implications"
DIVERGENCE = "Divergence / update candidate"
UPLOADED_SAYS = "Uploaded session source says"
ASSESSMENT = "Assessment / synthesis"
MISSING_EVIDENCE = "Missing evidence / owner decision needed"

ALL_LABELS = (
    PACKAGE_SAYS,
    CURRENT_SAYS,
    SYNTHESIS,
    DIVERGENCE,
    UPLOADED_SAYS,
    ASSESSMENT,
    MISSING_EVIDENCE,
)

PACKAGE_CITATION = "package citation"
CURRENT_CITATION = "current/public citation"
UPLOADED_CITATION = "uploaded/session citation"
CITATION_CLASSES = (PACKAGE_CITATION, CURRENT_CITATION, UPLOADED_CITATION)
ID_PREFIX = {PACKAGE_CITATION: "P", CURRENT_CITATION: "C", UPLOADED_CITATION: "U"}
CLASS_OF_PREFIX = {v: k for k, v in ID_PREFIX.items()}

# Source lanes admit one citation class only; the others may cite anything that was sent.
LANE_CLASS = {
    PACKAGE_SAYS: PACKAGE_CITATION,
    CURRENT_SAYS: CURRENT_CITATION,
    UPLOADED_SAYS: UPLOADED_CITATION,
}

DIVERGENCE_FALLBACK = (
    "No direct divergence found in the cited sources. No package update candidate is proposed "
    "from this answer alone."
)
CURRENT_NOT_RETRIEVED = (
    "Not retrieved. No current/public source was retrieved for this question, so no current "
    "claim is made."
)


# The lanes of a package + current answer, and those session sources add to any answer, in order.
CURRENT_MODE_LANES = (PACKAGE_SAYS, CURRENT_SAYS, SYNTHESIS, DIVERGENCE)
UPLOAD_LANES = (UPLOADED_SAYS, ASSESSMENT, MISSING_EVIDENCE)


def required_lanes(mode: Mode, *, with_uploads: bool) -> tuple[str, ...]:
    """Lanes an answer must carry, in order."""
    lanes = CURRENT_MODE_LANES if mode is Mode.PACKAGE_CURRENT else (PACKAGE_SAYS,)
    return lanes + UPLOAD_LANES if with_uploads else lanes


def allowed_order(mode: Mode, *, with_uploads: bool) -> tuple[str, ...]:
    """Every lane the mode admits, in the order they must appear (package-only may add a synthesis)."""
    lanes = CURRENT_MODE_LANES if mode is Mode.PACKAGE_CURRENT else (PACKAGE_SAYS, SYNTHESIS)
    return lanes + UPLOAD_LANES if with_uploads else lanes


# How the offline answer introduces anti-pattern text (never quoted as guidance); the claim check
# reads the quoted text after it, so the frame itself needs no source.
WARNS_AGAINST = "The playbook warns against:"
