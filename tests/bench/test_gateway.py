"""The slow-gateway bench (bench/gateway.py): its arithmetic, its loopback gateway, its table.

No timing is asserted: the gateway runs with no delay, and the figures are computed from
latencies given by the test.
"""

from __future__ import annotations

import httpx
import pytest
from django.test import override_settings

from bench import gateway, loopback_gateway
from bench.__main__ import METHOD_HEADING, _plan
from bench.http_api import QUESTIONS
from bench.report import Report, replace_section, table_markdown, text_table

pytestmark = pytest.mark.django_db


def level(factor: int = 1, *, latencies: int = 36, errors: int = 0, seconds: float = 10.0):
    return gateway.Level(
        workers=2,
        threads=4,
        factor=factor,
        delay_s=2.0,
        clients=8 * factor,
        seconds=seconds,
        latencies_s=tuple(2.0 + n / 100 for n in range(latencies)),
        errors=errors,
        server_cpu_s=0.72,
    )


# ------------------------------------------------------------------------------ arithmetic


def test_ideal_throughput_is_slots_over_delay() -> None:
    assert gateway.ideal_rps(8, 2.0) == 4.0
    assert gateway.ideal_rps(2, 0.5) == 4.0


def test_ratio_compares_answered_requests_per_second_with_the_ideal() -> None:
    measured = level(latencies=36, seconds=10.0)
    assert (measured.slots, measured.ideal_rps, measured.rps) == (8, 4.0, 3.6)
    assert measured.ratio == pytest.approx(0.9)
    assert measured.met is True
    assert level(latencies=35).met is False  # 87.5% of ideal
    assert level(latencies=36, errors=1).met is False


def test_targets_apply_at_one_and_four_times_the_slots() -> None:
    assert level(factor=2).met is None and level(factor=2).target == ""
    slow_but_complete = level(factor=4, latencies=20, seconds=20.0)
    assert slow_but_complete.ratio == pytest.approx(0.25) and slow_but_complete.met is True
    assert level(factor=4, errors=1).met is False


def test_percentiles_are_nearest_rank() -> None:
    values = [float(n) for n in range(20, 0, -1)]
    assert gateway.percentile(values, 50) == 10.0
    assert gateway.percentile(values, 95) == 19.0
    assert gateway.percentile(values, 100) == 20.0
    assert gateway.percentile([3.0], 95) == 3.0
    with pytest.raises(ValueError):
        gateway.percentile([], 50)


def test_a_level_renders_as_one_table_row() -> None:
    row = gateway.cells(level(latencies=36, errors=0))
    assert row == (
        "2 x 4",
        "8",
        "1x slots",
        "3.60",
        "4.00",
        "90%",
        "2.17 s",
        "2.34 s",
        "20 ms",
        "0 of 36",
        ">= 90% of ideal, 0 errors",
        "yes",
    )


def test_a_level_with_no_answer_still_renders() -> None:
    row = gateway.cells(level(latencies=0, errors=8))
    assert row[5:8] == ("0%", "none answered", "none answered")
    assert row[9:] == ("8 of 8", ">= 90% of ideal, 0 errors", "**no**")


# ------------------------------------------------------------------------------ the gateway


@pytest.fixture
def instant_gateway():
    with loopback_gateway.slow_gateway(0.0) as server:
        yield server


def test_the_app_accepts_the_gateways_answer_to_every_bench_question(
    instant_gateway, api_client
) -> None:
    with override_settings(
        AICD_PROVIDER="openai_compatible",
        AICD_PROVIDER_BASE_URL=instant_gateway.url,
        AICD_PROVIDER_MODEL=loopback_gateway.MODEL,
    ):
        for question in QUESTIONS:
            response = api_client.post(
                "/api/source-grounded-chat",
                {"mode": "package_only", "question": question},
                format="json",
            )
            body = response.json()
            assert response.status_code == 200
            assert body["state"] == "answered", (question, body.get("diagnostic"))
            assert body["telemetry"]["provider"] == "openai_compatible"
    assert (instant_gateway.served, instant_gateway.failed) == (len(QUESTIONS), 0)


def test_the_gateway_answers_a_well_formed_request_citing_what_it_was_sent(instant_gateway):
    user = (
        "<<<QUESTION\nwho owns each stage gate?\n>>>END QUESTION\n\n"
        "<<<GROUP package citation | Approved package sources\n"
        "<<<SOURCE P1 | Stage gates\n| gate | owner |\n"
        "Each stage gate has a named owner. The owner signs the exit record.\n>>>END SOURCE P1\n"
        ">>>END GROUP package citation\n"
    )
    request = {
        "model": loopback_gateway.MODEL,
        "messages": [{"role": "system", "content": "x"}, {"role": "user", "content": user}],
    }
    response = httpx.post(instant_gateway.url + "/chat/completions", json=request, timeout=5)
    assert response.status_code == 200
    answer = response.json()["choices"][0]["message"]["content"]
    assert answer.startswith("Package says\nEach stage gate has a named owner. [P1]\n\n")
    assert "Synthesis / implications\n" in answer


def test_the_gateway_refuses_a_request_without_sources(instant_gateway):
    request = {"messages": [{"role": "system", "content": "x"}, {"role": "user", "content": "hi"}]}
    response = httpx.post(instant_gateway.url + "/chat/completions", json=request, timeout=5)
    assert response.status_code == 400
    response = httpx.post(instant_gateway.url + "/chat/completions", content=b"{", timeout=5)
    assert response.status_code == 400
    assert (instant_gateway.served, instant_gateway.failed) == (0, 2)


# ------------------------------------------------------------------------------- the report


def test_the_quick_plan_has_a_gateway_row_for_every_thread_setting_and_load() -> None:
    plan = _plan(quick=True)
    levels = [
        level(factor) for _threads in plan["gateway_threads"] for factor in plan["gateway_factors"]
    ]
    table = gateway.table(
        levels, rounds=int(plan["gateway_rounds"]), load_before=1.0, load_after=2.0
    )
    assert table.title == gateway.TITLE
    assert len(table.rows) == len(plan["gateway_threads"]) * len(plan["gateway_factors"]) >= 4
    assert {row[2] for row in table.rows} == {"1x slots", "2x slots", "4x slots"}
    printed = text_table(Report(machine={}, settings={}, tables=[table]))
    assert printed.startswith(gateway.TITLE) and "ideal (slots / delay)" in printed


def test_a_gateway_only_run_rewrites_only_its_section() -> None:
    table = gateway.table([level()], rounds=3, load_before=1.0, load_after=2.0)
    doc = f"# Performance\n\n## Results\n\nrows\n\n## {METHOD_HEADING}\n\nmethod\n"
    inserted = replace_section(doc, table, before=METHOD_HEADING)
    assert inserted.startswith("# Performance\n\n## Results\n\nrows\n\n## Slow LLM gateway\n")
    assert inserted.endswith(f"\n## {METHOD_HEADING}\n\nmethod\n")
    assert table_markdown(table) in inserted
    newer = gateway.table([level(latencies=30)], rounds=3, load_before=1.0, load_after=2.0)
    replaced = replace_section(inserted, newer, before=METHOD_HEADING)
    assert replaced == inserted.replace(table_markdown(table), table_markdown(newer))
    assert replaced.count("## Slow LLM gateway") == 1
    with pytest.raises(ValueError):
        replace_section("# Performance\n", table, before=METHOD_HEADING)
