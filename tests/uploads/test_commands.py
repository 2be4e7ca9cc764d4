"""`manage.py ask --source FILE --paste-file FILE`: the same review through the same pipeline."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from tests.uploads.builders import docx_bytes, text_pdf
from tests.uploads.test_review_flow import PRD_PAGES, REVIEW_QUESTION, architecture


def test_ask_reviews_local_files_and_a_paste_file(tmp_path) -> None:
    prd = tmp_path / "Draft PRD.pdf"
    prd.write_bytes(text_pdf(PRD_PAGES))
    arch = tmp_path / "proposal.docx"
    arch.write_bytes(docx_bytes(architecture))
    notes = tmp_path / "notes.txt"
    notes.write_text(
        "Integration owner: the legal platform team runs the contract repository API.\n"
    )
    out = StringIO()
    call_command(
        "ask",
        REVIEW_QUESTION,
        "--source",
        str(prd),
        "--source",
        str(arch),
        "--paste-file",
        str(notes),
        "--json",
        stdout=out,
    )
    body = json.loads(out.getvalue())
    assert body["state"] == "answered"
    uploaded = [c for c in body["citations"] if c["citation_class"] == "uploaded/session citation"]
    # One citation per finding: the PRD and the paste evidence criteria; the docx repeats them.
    assert {c["session_source_id"] for c in uploaded} >= {"session-file-001"}
    assert {c["file_type"] for c in uploaded} <= {"pdf", "docx", "paste"}
    assert body["lanes"][1]["label"] == "Uploaded session source says"


def test_ask_text_output_names_uploaded_anchors(tmp_path) -> None:
    prd = tmp_path / "prd.pdf"
    prd.write_bytes(text_pdf(PRD_PAGES))
    out = StringIO()
    call_command("ask", REVIEW_QUESTION, "--source", str(prd), stdout=out)
    assert "[U2] uploaded/session citation: prd.pdf — page 2" in out.getvalue()


@pytest.mark.parametrize(
    ("name", "data", "code"),
    [("tool.txt", b"MZ" + bytes(100), "executable"), ("a.pdf", b"not a pdf", "type_mismatch")],
)
def test_refused_source_stops_the_command_with_its_reason(tmp_path, name, data, code) -> None:
    path = tmp_path / name
    path.write_bytes(data)
    with pytest.raises(CommandError, match=rf"Session source refused \({code}\)"):
        call_command("ask", REVIEW_QUESTION, "--source", str(path))


def test_missing_source_file_is_a_clear_error(tmp_path) -> None:
    with pytest.raises(CommandError, match="Cannot read a session source file"):
        call_command("ask", REVIEW_QUESTION, "--source", str(tmp_path / "absent.pdf"))
