"""The session-source API over HTTP: records, refusals, isolation, cleanup and the review run."""

from __future__ import annotations

import pickle
import tempfile

import pytest
from django.contrib.sessions.backends.cache import KEY_PREFIX
from django.core.cache import cache
from django.core.files import uploadedfile
from rest_framework.test import APIClient
from rest_framework.throttling import ScopedRateThrottle

from core import tokens
from core.throttling import SharedScopedRateThrottle
from tests.uploads.builders import docx_bytes, plain_zip, text_pdf, text_pdf_of_size
from tests.uploads.test_review_flow import PRD_PAGES, REVIEW_QUESTION, architecture
from uploads.limits import LIMITS

URL = "/api/session-sources"
CHAT = "/api/source-grounded-chat"
MARKER = "ZEBRA-MARKER-7731"


def _client(user) -> APIClient:
    client = APIClient()
    client.force_login(user)
    return client


@pytest.fixture
def rita(reviewer) -> APIClient:
    return _client(reviewer)


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user(username="omar", password="another-long-password")


def _upload(client: APIClient, name: str, data: bytes, **extra):
    return client.post(
        URL, {"file": uploadedfile.SimpleUploadedFile(name, data), **extra}, format="multipart"
    )


def _cached_bytes() -> bytes:
    """Every value the local-memory cache holds, as the pickled bytes it stores."""
    return b"".join(cache._cache.values())


@pytest.mark.django_db
@pytest.mark.parametrize("method", ["get", "post", "delete"])
def test_anonymous_requests_are_rejected(method: str) -> None:
    response = getattr(APIClient(), method)(URL)
    assert response.status_code in (401, 403)
    assert response.json()["error"]["code"] == "not_authenticated"


@pytest.mark.django_db
def test_upload_returns_the_record_and_the_list_shows_it(rita) -> None:
    pdf = text_pdf(PRD_PAGES)
    response = _upload(rita, "Draft PRD.pdf", pdf, title="PRD v3")
    assert response.status_code == 201
    record = response.json()
    assert record["session_source_id"] == "session-file-001"
    assert record["display_title"] == "PRD v3" and record["raw_size_bytes"] == len(pdf)
    assert record["file_type"] == "pdf" and record["retention"] == "session_only"
    listing = rita.get(URL).json()
    assert listing["sources"] == [record]
    assert listing["totals"] == {
        "files": 1,
        "pastes": 0,
        "raw_size_bytes": len(pdf),
        "extracted_character_count": record["extracted_character_count"],
    }
    assert (
        listing["limits"]["session_chars"] == 120_000 and listing["limits"]["paste_chars"] == 25_000
    )


@pytest.mark.django_db
def test_paste_is_a_json_post_and_needs_a_title(rita) -> None:
    response = rita.post(URL, {"title": "Meeting notes", "text": "Owner: Dana."}, format="json")
    assert response.status_code == 201 and response.json()["file_type"] == "paste"
    assert response.json()["session_source_id"] == "session-paste-001"
    missing = rita.post(URL, {"text": "No title."}, format="json")
    assert missing.status_code == 400 and "title" in missing.json()["error"]["fields"]
    too_long = rita.post(URL, {"title": "Long", "text": "x" * 25_001}, format="json")
    assert too_long.status_code == 413 and too_long.json()["error"]["code"] == "too_large"


@pytest.mark.django_db
def test_a_title_longer_than_the_schema_allows_is_refused_even_when_trimming_would_fit(
    rita,
) -> None:
    """``maxLength: 200`` holds for the title as sent (schemathesis found a padded one accepted)."""
    padded = " " + "T" * 200
    response = rita.post(URL, {"title": padded, "text": "Owner: Dana."}, format="json")
    assert response.status_code == 400 and "title" in response.json()["error"]["fields"]
    assert rita.get(URL).json()["sources"] == []
    fits = rita.post(URL, {"title": " " + "T" * 199, "text": "Owner: Dana."}, format="json")
    assert fits.status_code == 201 and fits.json()["display_title"] == "T" * 199


@pytest.mark.django_db
def test_an_empty_paste_is_a_400_the_schema_documents(rita) -> None:
    empty = rita.post(URL, {"title": "Empty", "text": ""}, format="json")
    assert empty.status_code == 400 and "text" in empty.json()["error"]["fields"]
    blank = rita.post(URL, {"title": "Blank", "text": "  \n "}, format="json")
    assert blank.status_code == 400 and blank.json()["error"]["code"] == "empty"
    assert rita.get(URL).json()["sources"] == []
    schema = rita.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    paste = schema["components"]["schemas"]["PasteInput"]["properties"]["text"]
    assert paste["minLength"] == 1
    create = schema["paths"]["/api/session-sources"]["post"]["responses"]
    assert {"400", "409", "413"} <= set(create)


@pytest.mark.django_db
def test_the_same_file_again_is_409_already_in_session_and_stored_once(rita) -> None:
    first = _upload(rita, "notes.txt", b"Owner: Dana decides scope.")
    assert first.status_code == 201
    again = _upload(rita, "copy-of-notes.txt", b"Owner: Dana decides scope.")
    assert again.status_code == 409
    error = again.json()["error"]
    assert error["code"] == "already_in_session"
    assert error["fields"] == {"session_source_id": first.json()["session_source_id"]}
    assert len(rita.get(URL).json()["sources"]) == 1


@pytest.mark.django_db
def test_a_long_pdf_is_201_truncated_with_what_was_kept(rita) -> None:
    from tests.uploads.test_limits import standards_pdf

    response = _upload(rita, "standard.pdf", standards_pdf(74))
    assert response.status_code == 201
    body = response.json()
    assert body["extraction_status"] == "truncated"
    assert body["kept"].startswith("pages 1-") and body["kept"].endswith(" of 74")
    assert body["notices"] == ["uploaded_source_truncated"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("name", "data", "status", "code"),
    [
        ("readme.txt", b"MZ\x90\x00" + bytes(300), 415, "executable"),
        ("prd.pdf", plain_zip({"a.txt": b"hello"}), 415, "archive"),
        ("prd.pdf", b"plain text, not a PDF", 415, "type_mismatch"),
        ("scan.pdf", text_pdf([[], []]), 400, "image_only"),
        ("deep.json", b"[" * 40 + b"]" * 40, 413, "too_deep"),
        ("big.pdf", text_pdf_of_size(PRD_PAGES, LIMITS.document_bytes + 1), 413, "too_large"),
        ("photo.png", b"\x89PNG\r\n\x1a\n" + bytes(100), 415, "unsupported_type"),
    ],
)
def test_refusals_map_to_status_and_reason_and_keep_nothing(rita, name, data, status, code) -> None:
    response = _upload(rita, name, data)
    assert response.status_code == status
    error = response.json()["error"]
    assert error["code"] == code and error["message"]
    assert rita.get(URL).json()["sources"] == []


@pytest.mark.django_db
def test_one_file_per_request_and_something_to_add(rita) -> None:
    two = rita.post(
        URL,
        {
            "file": [
                uploadedfile.SimpleUploadedFile("a.txt", b"a"),
                uploadedfile.SimpleUploadedFile("b.txt", b"b"),
            ]
        },
        format="multipart",
    )
    assert two.status_code == 400 and two.json()["error"]["code"] == "invalid_request"
    nothing = rita.post(URL, {"title": "only a title"}, format="multipart")
    assert nothing.status_code == 400 and "file" in nothing.json()["error"]["fields"]


@pytest.mark.django_db
def test_session_limit_over_http(rita) -> None:
    for n in range(5):
        assert _upload(rita, f"n{n}.txt", f"note {n}".encode()).status_code == 201
    response = _upload(rita, "n6.txt", b"note 6")
    assert response.status_code == 413 and response.json()["error"]["code"] == "session_limit"


@pytest.mark.django_db
def test_remove_and_clear(rita) -> None:
    _upload(rita, "a.txt", b"first")
    _upload(rita, "b.txt", b"second")
    assert rita.delete(f"{URL}/session-file-001").status_code == 204
    assert [s["session_source_id"] for s in rita.get(URL).json()["sources"]] == ["session-file-002"]
    missing = rita.delete(f"{URL}/session-file-001")
    assert (
        missing.status_code == 404 and missing.json()["error"]["code"] == "unknown_session_source"
    )
    assert rita.delete(URL).status_code == 204
    assert rita.get(URL).json()["sources"] == []


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["another user", "same user, another session"])
def test_another_user_or_session_cannot_list_use_or_delete(reviewer, other_user, who) -> None:
    owner = _client(reviewer)
    assert _upload(owner, "mine.txt", f"{MARKER} private draft".encode()).status_code == 201
    intruder = _client(other_user if who == "another user" else reviewer)
    assert intruder.get(URL).json()["sources"] == []
    assert intruder.delete(f"{URL}/session-file-001").status_code == 404
    used = intruder.post(
        CHAT,
        {"question": "stage gates?", "session_source_ids": ["session-file-001"]},
        format="json",
    )
    assert used.status_code == 400 and used.json()["error"]["code"] == "unknown_session_source"
    intruder.delete(URL)  # clearing their own session must not touch the owner's
    assert [s["display_title"] for s in owner.get(URL).json()["sources"]] == ["mine.txt"]


@pytest.mark.django_db
def test_session_cookie_of_one_user_shows_nothing_to_another_user(reviewer, other_user) -> None:
    owner = _client(reviewer)
    _upload(owner, "mine.txt", b"private draft")
    thief = APIClient()
    thief.cookies = owner.cookies  # the same session, presented with another user's token
    thief.force_authenticate(other_user)
    assert thief.get(URL).json()["sources"] == []


@pytest.mark.django_db
def test_csrf_is_required_for_cookie_authenticated_uploads(reviewer) -> None:
    client = APIClient(enforce_csrf_checks=True)
    client.force_login(reviewer)
    response = _upload(client, "a.txt", b"text")
    assert response.status_code == 403


@pytest.mark.django_db
def test_uploads_are_throttled_with_the_uploads_scope(rita, reviewer, monkeypatch) -> None:
    cache.delete(SharedScopedRateThrottle.cache_format % {"scope": "uploads", "ident": reviewer.pk})
    monkeypatch.setattr(
        ScopedRateThrottle, "THROTTLE_RATES", {"uploads": "2/min", "chat": "100/min"}
    )
    assert _upload(rita, "a.txt", b"a").status_code == 201
    assert rita.get(URL).status_code == 200
    response = _upload(rita, "b.txt", b"b")
    assert response.status_code == 429 and response.json()["error"]["code"] == "throttled"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("data", "status"),
    [
        (
            text_pdf_of_size(PRD_PAGES, 3 * 1024 * 1024),
            201,
        ),  # accepted, over Django's 2.5 MB spool size
        (b"%PDF-1.4\n" + b"x" * (3 * 1024 * 1024), 400),  # fails during extraction
        (b"%PDF-1.4\n" + b"x" * (6 * 1024 * 1024), 413),  # over every limit: counted, not kept
    ],
    ids=["accepted", "malformed", "oversize"],
)
def test_uploads_never_touch_the_disk(rita, settings, tmp_path, monkeypatch, data, status) -> None:
    tokens.encoding()  # tiktoken caches its (public) encoding file under the temp dir on first use
    settings.FILE_UPLOAD_TEMP_DIR = str(tmp_path)
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))

    def no_temp_file(*args, **kwargs):
        pytest.fail("an upload was spooled to a temporary file")

    monkeypatch.setattr(uploadedfile.TemporaryUploadedFile, "__init__", no_temp_file)
    response = _upload(rita, "big.pdf", data)
    assert response.status_code == status
    if status == 413:
        assert f"{len(data):,} bytes" in response.json()["error"]["message"]
    assert list(tmp_path.iterdir()) == []


@pytest.mark.django_db
def test_end_to_end_review_then_clear_and_logout_leave_nothing(reviewer) -> None:
    cache.clear()  # other tests' sessions are in the same local-memory cache
    rita = _client(reviewer)
    prd = _upload(rita, "Draft PRD.pdf", text_pdf(PRD_PAGES)).json()
    arch = _upload(rita, "Architecture proposal.docx", docx_bytes(architecture)).json()
    rita.post(URL, {"title": "Notes", "text": f"{MARKER} owner notes"}, format="json")
    body = rita.post(
        CHAT,
        {
            "question": REVIEW_QUESTION,
            "session_source_ids": [prd["session_source_id"], arch["session_source_id"]],
        },
        format="json",
    ).json()
    assert body["state"] == "answered"
    assert [lane["label"] for lane in body["lanes"]] == [
        "Package says",
        "Uploaded session source says",
        "Assessment / synthesis",
        "Missing evidence / owner decision needed",
    ]
    uploaded = [c for c in body["citations"] if c["citation_class"] == "uploaded/session citation"]
    assert any(
        c["anchor"].get("page") == 2 and c["display_title"] == "Draft PRD.pdf" for c in uploaded
    )
    assert any(c["anchor"].get("page") == 3 for c in uploaded)  # one citation per finding
    assert all(c["retention"] == "session_only" for c in uploaded)
    assert body["telemetry"]["selected_uploaded_source_count"] == 2
    assert MARKER not in str(body)  # the paste was not selected for this run

    assert MARKER.encode() in _cached_bytes()
    assert rita.delete(URL).status_code == 204
    assert MARKER.encode() not in _cached_bytes()
    assert b"Draft PRD" not in _cached_bytes()

    rita.post(URL, {"title": "Again", "text": f"{MARKER} again"}, format="json")
    session_key = rita.cookies["sessionid"].value
    assert cache.get(KEY_PREFIX + session_key) is not None
    rita.post("/accounts/logout/")
    assert cache.get(KEY_PREFIX + session_key) is None
    assert MARKER.encode() not in _cached_bytes()
    assert all(MARKER.encode() not in pickle.dumps(v) for v in cache._cache.values())


@pytest.mark.django_db
def test_oversized_json_body_is_refused_before_parsing(rita, monkeypatch) -> None:
    from rest_framework.parsers import JSONParser

    def no_parse(*args, **kwargs):
        pytest.fail("an oversized body reached the JSON parser")

    monkeypatch.setattr(JSONParser, "parse", no_parse)
    body = '{"title": "t", "text": "' + "x" * 200_000 + '"}'
    response = rita.post(URL, body, content_type="application/json")
    assert response.status_code == 413 and response.json()["error"]["code"] == "too_large"
