"""Limits as a reviewer expects: per-file limits refuse, the session's character budget truncates.

A file within its own limits is kept, in part if the session's 120,000 extracted characters
would be passed, on whole pages, rows, sections or lines, with a record of what was kept. The
same content twice is answered "already in the session", and nothing is stored twice.
"""

from __future__ import annotations

import copy
import json

import pytest

from tests.uploads.builders import docx_bytes, text_pdf
from uploads import selection, services
from uploads.limits import LIMITS
from uploads.rejections import SourceRefused
from uploads.store import SESSION_KEY, SessionSourceStore

WORDS = "reviewers check the data boundary gateway route owner decision evidence table".split()


def _line(page: int, n: int) -> str:
    """About 80 characters of prose, different on every page and line."""
    words = [WORDS[(page * 7 + n * 3 + i) % len(WORDS)] for i in range(12)]
    return f"Page {page} line {n}: " + " ".join(words)


def standards_pdf(pages: int, lines_per_page: int = 22) -> bytes:
    """A PDF of ``pages`` pages of about 2,200 characters each, like a real standards document."""
    return text_pdf(
        [[_line(p, n) for n in range(lines_per_page)] for p in range(1, pages + 1)],
        compress=True,
    )


def _refusal(call, **kwargs) -> SourceRefused:
    with pytest.raises(SourceRefused) as info:
        call(**kwargs)
    return info.value


def test_a_74_page_pdf_is_kept_truncated_at_whole_pages_as_the_first_upload() -> None:
    session: dict = {}
    record = services.add_file(
        session=session, owner="1", data=standards_pdf(74), filename="standard.pdf"
    )
    assert record.extraction_status == "truncated"
    assert record.notices == ("uploaded_source_truncated",)
    source = SessionSourceStore(session, "1").sources()[0]
    kept_pages = source.text.count("\f") + 1
    assert 40 < kept_pages < 74
    assert record.kept == f"pages 1-{kept_pages} of 74"
    assert record.extracted_character_count == len(source.text) <= LIMITS.session_chars
    # Whole pages: the last kept page ends where the page does, and the next would not have fit.
    assert source.text.rsplit("\f", 1)[1].endswith(_line(kept_pages, 21).split(": ", 1)[1])
    assert len(source.text) + len(source.text.split("\f")[0]) > LIMITS.session_chars


def test_a_48_page_pdf_then_a_docx_are_both_kept() -> None:
    session: dict = {}
    pdf = services.add_file(
        session=session, owner="1", data=standards_pdf(48), filename="standard.pdf"
    )
    assert pdf.extraction_status == "accepted" and pdf.kept == ""

    def build(document) -> None:
        for section in range(12):
            document.add_heading(f"Section {section}", 1)
            for n in range(6):
                document.add_paragraph(" ".join([_line(section, n)] * 3))

    word = services.add_file(
        session=session, owner="1", data=docx_bytes(build), filename="draft.docx"
    )
    assert word.extraction_status == "truncated"
    kept_sections = int(word.kept.split(" of ")[0].split("-")[-1])
    assert word.kept == f"sections 1-{kept_sections} of 12"
    text = SessionSourceStore(session, "1").sources()[1].text
    assert text.split("\n")[-1].startswith("Page")  # ends on a whole section's last paragraph
    assert SessionSourceStore(session, "1").totals().chars <= LIMITS.session_chars


def test_per_file_limits_stay_refusals_and_name_the_limit() -> None:
    pages = _refusal(
        services.add_file, session={}, owner="1", data=standards_pdf(76, 2), filename="a.pdf"
    )
    assert pages.code == "too_large" and "76 pages" in pages.message and "75 pages" in pages.message
    rows = "\n".join(["name,value"] + [f"r{i},{i}" for i in range(LIMITS.tabular_rows + 1)])
    error = _refusal(services.add_file, session={}, owner="1", data=rows.encode(), filename="t.csv")
    assert error.code == "too_large" and "5,000 rows" in error.message
    # A table over 250,000 characters is refused even though the session would keep part of it.
    wide = "\n".join(["a,b"] + [f"{'x' * 60},{i}" for i in range(4_500)])
    error = _refusal(services.add_file, session={}, owner="1", data=wide.encode(), filename="w.csv")
    assert error.code == "too_large" and "250,000 extracted characters" in error.message


def test_a_table_past_the_session_budget_keeps_the_header_and_whole_rows() -> None:
    session: dict = {}
    services.add_file(session=session, owner="1", data=standards_pdf(50), filename="s.pdf")
    rows = "\n".join(["name,notes"] + [f"row {i},{'note ' * 10}" for i in range(2_000)])
    record = services.add_file(session=session, owner="1", data=rows.encode(), filename="t.csv")
    assert record.extraction_status == "truncated"
    text = SessionSourceStore(session, "1").sources()[1].text
    lines = text.split("\n")
    assert lines[0] == "name\tnotes" and lines[-1].startswith(f"row {len(lines) - 2}\t")
    assert record.kept == f"the header and {len(lines) - 1:,} of 2,000 data rows"


def test_text_json_and_paste_are_cut_on_whole_lines_and_values() -> None:
    session: dict = {}
    services.add_file(session=session, owner="1", data=standards_pdf(53), filename="s.pdf")
    left = LIMITS.session_chars - SessionSourceStore(session, "1").totals().chars
    assert 0 < left < 5_000
    values = json.dumps({"items": [f"value number {i}" for i in range(1_000)]}).encode()
    record = services.add_file(session=session, owner="1", data=values, filename="v.json")
    kept = SessionSourceStore(session, "1").sources()[1].text.split("\n")
    assert record.kept == f"values 1-{len(kept):,} of 1,000"
    assert kept[-1] == f"/items/{len(kept) - 1}\tvalue number {len(kept) - 1}"

    session = {}
    services.add_file(session=session, owner="1", data=standards_pdf(53), filename="s.pdf")
    paste = "\n".join(f"Line {i} of the pasted notes." for i in range(600))
    record = services.add_paste(session=session, owner="1", title="Notes", text=paste)
    kept = SessionSourceStore(session, "1").sources()[1].text.split("\n")
    assert record.kept == f"lines 1-{len(kept):,} of 600"
    assert kept == paste.split("\n")[: len(kept)]


def test_a_full_session_refuses_and_keeps_nothing() -> None:
    session: dict = {}
    services.add_file(session=session, owner="1", data=standards_pdf(74), filename="s.pdf")
    before = copy.deepcopy(session)
    error = _refusal(
        services.add_file,
        session=session,
        owner="1",
        data=b"\n".join([b"x" * 9_000] * 2),
        filename="n.txt",
    )
    assert error.code == "session_limit" and "Remove a source" in error.message
    assert session == before


def test_the_same_content_twice_is_already_in_the_session_and_stored_once() -> None:
    session: dict = {}
    pdf = standards_pdf(2)
    first = services.add_file(session=session, owner="1", data=pdf, filename="a.pdf")
    before = copy.deepcopy(session)
    error = _refusal(
        services.add_file, session=session, owner="1", data=pdf, filename="renamed.pdf"
    )
    assert error.code == "already_in_session" and error.status_code == 409
    assert first.session_source_id in error.message
    assert error.fields == {"session_source_id": first.session_source_id}
    assert session == before
    services.add_paste(session=session, owner="1", title="Notes", text="Same words.")
    services.remove(session=session, owner="1", source_id="session-paste-001")
    again = services.add_paste(session=session, owner="1", title="Notes", text="Same words.")
    assert again.session_source_id == "session-paste-002"  # removed content may come back
    assert all(len(item["sha256"]) == 64 for item in session[SESSION_KEY]["items"])


def test_a_source_kept_in_part_makes_every_run_using_it_say_truncated() -> None:
    session: dict = {}
    services.add_file(session=session, owner="1", data=standards_pdf(74), filename="s.pdf")
    sources = tuple(SessionSourceStore(session, "1").sources())
    picked = selection.select(
        sources=sources, question="owner decision", package_text="", package_tokens=0
    )
    assert picked.excerpts and picked.truncated_source_count == 1 and picked.cut
