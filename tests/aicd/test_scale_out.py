"""Several gunicorn workers on one Redis: sessions, session sources and throttles are shared.

Each test drives a real gunicorn (2 workers, its own SQLite file) through HTTP like a browser
does (form login, CSRF header), reads X-AICD-Worker-Pid to see which worker answered, and
inspects Redis directly to prove what is held there and what is gone.
"""

from __future__ import annotations

import uuid
from concurrent.futures import ThreadPoolExecutor

import httpx
import pytest
import redis

from aicd.worker_pid import HEADER
from bench.servers import Browser, Gunicorn
from tests.aicd.conftest import CHAT_RATE_PER_MIN, SESSION_AGE_S

pytestmark = [pytest.mark.redis, pytest.mark.slow]

CHAT = "/api/source-grounded-chat"
SOURCES = "/api/session-sources"
QUESTION = "who owns each stage gate?"
MAX_ATTEMPTS = 30


def session_cache_key(session_key: str) -> str:
    # django.core.cache key: KEY_PREFIX "aicd", version 1, then the session backend's own prefix.
    return f"aicd:1:django.contrib.sessions.cache{session_key}"


def keys_holding(client: redis.Redis, needle: bytes) -> list[bytes]:
    """Every string key in Redis whose stored bytes contain ``needle``."""
    found = []
    for key in client.scan_iter(count=500):
        if client.type(key) == b"string" and needle in (client.get(key) or b""):
            found.append(key)
    return found


def until_two_workers(send, attempts: int = MAX_ATTEMPTS) -> dict[str, httpx.Response]:
    """Send requests two at a time until two different worker pids have answered one each."""
    by_pid: dict[str, httpx.Response] = {}
    with ThreadPoolExecutor(max_workers=2) as pool:
        for _ in range(attempts // 2):
            for response in pool.map(lambda _: send(), range(2)):
                by_pid.setdefault(response.headers[HEADER], response)
            if len(by_pid) >= 2:
                break
    assert len(by_pid) >= 2, f"only worker(s) {sorted(by_pid)} answered {attempts} requests"
    return by_pid


@pytest.fixture
def browser(two_workers: Gunicorn):
    b = Browser(two_workers.base_url)
    yield b
    b.close()


def test_a_login_made_on_one_worker_is_honoured_by_the_other(
    two_workers: Gunicorn, browser: Browser, redis_client: redis.Redis
):
    browser.login("ada", "ada-correct-horse-battery")
    key = session_cache_key(browser.session_key)
    assert redis_client.exists(key)
    # The cache session backend stores each session with the session cookie's age as its TTL.
    assert SESSION_AGE_S - 60 < redis_client.ttl(key) <= SESSION_AGE_S

    by_pid = until_two_workers(lambda: browser.post_json(CHAT, {"question": QUESTION}))
    for response in by_pid.values():
        assert response.status_code == 200, response.text[:500]
        assert response.json()["state"] == "answered"

    browser.logout()
    assert not redis_client.exists(key)
    after = until_two_workers(lambda: browser.post_json(CHAT, {"question": QUESTION}))
    assert {r.status_code for r in after.values()} <= {401, 403}


def test_throttle_counts_are_shared_by_the_workers(two_workers: Gunicorn, browser: Browser):
    browser.login("bo", "bo-correct-horse-battery")
    pids: set[str] = set()
    statuses = []
    for _ in range(CHAT_RATE_PER_MIN):
        response = browser.post_json(CHAT, {"question": QUESTION})
        statuses.append(response.status_code)
        pids.add(response.headers[HEADER])
    assert statuses == [200] * CHAT_RATE_PER_MIN
    # Per-worker counters would allow up to twice the rate; one shared count refuses the next.
    over = until_two_workers(lambda: browser.post_json(CHAT, {"question": QUESTION}))
    assert {r.status_code for r in over.values()} == {429}
    assert len(pids | set(over)) >= 2


def test_a_paste_source_is_used_by_any_worker_and_gone_from_redis_after_logout(
    two_workers: Gunicorn, browser: Browser, redis_client: redis.Redis
):
    browser.login("cy", "cy-correct-horse-battery")
    marker = f"marker-{uuid.uuid4().hex}"
    text = (
        f"Draft proposal {marker}. The pilot will skip the build-readiness stage gate and the "
        "product owner will approve the release on their own."
    )
    created = browser.post_json(SOURCES, {"title": "Pilot proposal", "text": text})
    if created.status_code == 404:
        pytest.skip(
            "POST /api/session-sources returned 404: session uploads (branch `uploads`) are not "
            "merged yet; this test runs once they are"
        )
    assert created.status_code == 201, created.text[:500]
    source_id = created.json()["session_source_id"]
    key = session_cache_key(browser.session_key)
    # Positive control: the session in Redis holds the pasted text, so the scan below can see it.
    assert keys_holding(redis_client, marker.encode()) == [key.encode()]

    listed = until_two_workers(lambda: browser.get(SOURCES))
    for response in listed.values():
        assert response.status_code == 200
        assert source_id in response.text

    def ask() -> httpx.Response:
        return browser.post_json(
            CHAT,
            {
                "question": "who approves a release at a stage gate?",
                "session_source_ids": [source_id],
            },
        )

    for response in until_two_workers(ask).values():
        assert response.status_code == 200, response.text[:500]
        used = [c for c in response.json()["citations"] if c.get("session_source_id") == source_id]
        assert used, "the uploaded source was not cited"

    browser.logout()
    assert not redis_client.exists(key)
    assert keys_holding(redis_client, marker.encode()) == []
