"""`manage.py validate_registry [FILE|-]`: the same report as the API, exit 1 when invalid."""

from __future__ import annotations

import io
import json
import re
import sys
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from registry_review.validation import MAX_REGISTRY_BYTES
from tests.registry_review.conftest import UNSAFE_CASES, nist_record


def _run(*args: str) -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("validate_registry", *args, stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def _stdin(monkeypatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


@pytest.mark.django_db
def test_template_file_is_valid_and_exits_zero(template_text, tmp_path, no_network) -> None:
    path = tmp_path / "registry.json"
    path.write_text(template_text, encoding="utf-8")
    out, error = _run(str(path))
    assert error is None
    assert "State: valid" in out and "Adapter: ready with 1 source" in out
    assert "1. nist-ai-rmf-public-framework-candidate: valid" in out
    normalised = out.split("Normalised valid records:\n", 1)[1]
    assert json.loads(normalised) == {"sources": json.loads(template_text)["sources"]}


@pytest.mark.django_db
def test_unsafe_records_from_stdin_are_flagged_and_exit_one(
    monkeypatch, unsafe_text, no_network
) -> None:
    _stdin(monkeypatch, unsafe_text.encode())
    out, error = _run("-")
    assert error is not None and error.returncode == 1
    assert "Registry: standard input" in out and "State: invalid" in out
    blocks = re.split(r"\n  (?=\d+\. )", out)
    for record_id, _, _, field, reason in UNSAFE_CASES:
        block = next(b for b in blocks if b.split(": ")[0].endswith(f". {record_id}"))
        assert block.split("\n")[0].endswith(": INVALID")
        assert f"error in {field}:" in block and reason in block, block


@pytest.mark.django_db
def test_json_output_is_exactly_the_api_body(owner_api_client, unsafe_text, tmp_path) -> None:
    path = tmp_path / "registry.json"
    path.write_text(unsafe_text, encoding="utf-8")
    out, error = _run(str(path), "--json")
    assert error is not None and error.returncode == 1
    api = owner_api_client.post(
        "/api/registry/validate", unsafe_text, content_type="application/json"
    ).json()
    assert json.loads(out) == api


@pytest.mark.django_db
def test_default_reads_the_environment_registry(settings, template_text) -> None:
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = template_text
    out, error = _run()
    assert (
        error is None
        and "Registry: AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON" in out
        and "State: valid" in out
    )
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = '{"sources": ['
    out, error = _run()
    assert error is not None and error.returncode == 1 and "not valid JSON" in out


@pytest.mark.django_db
def test_empty_registry_exits_zero_unless_sources_are_required(settings) -> None:
    settings.AICD_CURRENT_CONTEXT_SOURCE_REGISTRY_JSON = ""
    out, error = _run()
    assert error is None and "State: empty" in out and "Adapter: unconfigured" in out
    _, error = _run("--require-sources")
    assert error is not None and error.returncode == 1


@pytest.mark.django_db
def test_production_flag_rejects_placeholder_domains(tmp_path) -> None:
    host = "docs.example.com"
    record = nist_record(
        url=f"https://{host}/itl/ai-risk-management-framework", allowed_origin=f"https://{host}"
    )
    path = tmp_path / "registry.json"
    path.write_text(json.dumps({"sources": [record]}), encoding="utf-8")
    out, error = _run(str(path))
    assert error is None and "warning in url:" in out and "placeholder" in out
    out, error = _run(str(path), "--production")
    assert error is not None and error.returncode == 1 and "error in url:" in out


@pytest.mark.django_db
def test_oversized_input_is_refused_without_reading_it_all(tmp_path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_REGISTRY_BYTES * 4))
    _, error = _run(str(path))
    assert error is not None and "the limit is 256 KiB" in str(error)


def test_missing_file_is_a_clear_error(tmp_path) -> None:
    _, error = _run(str(tmp_path / "absent.json"))
    assert error is not None and error.returncode == 2 and "Cannot read" in str(error)
