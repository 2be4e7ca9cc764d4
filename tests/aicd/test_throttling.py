"""SharedScopedRateThrottle: DRF's scoped throttle, done atomically in Redis when Redis is the cache."""

from __future__ import annotations

import threading
from types import SimpleNamespace

import pytest
import redis
from django.core.cache import caches
from django.test import override_settings

from core.throttling import SharedScopedRateThrottle


class ThreePerMinute(SharedScopedRateThrottle):
    THROTTLE_RATES = {"t": "3/min", "many": "30/min"}


def _request(user_pk: int) -> SimpleNamespace:
    return SimpleNamespace(user=SimpleNamespace(is_authenticated=True, pk=user_pk), META={})


VIEW = SimpleNamespace(throttle_scope="t")


def test_with_the_local_memory_cache_it_is_drfs_throttle():
    caches["default"].clear()
    results = [ThreePerMinute().allow_request(_request(1), VIEW) for _ in range(4)]
    assert results == [True, True, True, False]
    throttle = ThreePerMinute()
    assert throttle.allow_request(_request(1), VIEW) is False
    assert 59 < throttle.wait() <= 60
    assert ThreePerMinute().allow_request(_request(2), VIEW) is True  # per user
    assert ThreePerMinute().allow_request(_request(1), SimpleNamespace()) is True  # no scope


@pytest.fixture
def redis_cache(redis_url: str, redis_client: redis.Redis):
    config = {
        "default": {
            "BACKEND": "core.cache.RedisCache",
            "LOCATION": redis_url,
            "KEY_PREFIX": "throttle-test",
        }
    }
    with override_settings(CACHES=config):
        yield redis_client


@pytest.mark.redis
def test_in_redis_it_limits_per_user_and_scope_in_one_sorted_set(redis_cache: redis.Redis):
    results = [ThreePerMinute().allow_request(_request(1), VIEW) for _ in range(4)]
    assert results == [True, True, True, False]
    throttle = ThreePerMinute()
    assert throttle.allow_request(_request(1), VIEW) is False
    assert 59 < throttle.wait() <= 60
    assert ThreePerMinute().allow_request(_request(2), VIEW) is True
    key = "throttle-test:1:throttle_log_t_1"
    assert redis_cache.type(key) == b"zset"
    assert redis_cache.zcard(key) == 3  # refused requests are not counted
    assert 0 < redis_cache.ttl(key) <= 60


@pytest.mark.redis
def test_in_redis_old_entries_leave_the_window(redis_cache: redis.Redis):
    key = "throttle-test:1:throttle_log_t_5"
    now_s, now_us = redis_cache.time()
    now = now_s + now_us / 1e6
    redis_cache.zadd(key, {"old-1": now - 61, "old-2": now - 60.5, "recent": now - 10})
    assert ThreePerMinute().allow_request(_request(5), VIEW) is True
    assert ThreePerMinute().allow_request(_request(5), VIEW) is True
    assert ThreePerMinute().allow_request(_request(5), VIEW) is False
    members = set(redis_cache.zrange(key, 0, -1))
    assert len(members) == 3 and b"recent" in members
    assert not members & {b"old-1", b"old-2"}


@pytest.mark.redis
def test_in_redis_concurrent_requests_never_exceed_the_rate(redis_cache: redis.Redis):
    allowed: list[bool] = []
    lock = threading.Lock()
    start = threading.Barrier(12)
    view = SimpleNamespace(throttle_scope="many")

    def client() -> None:
        start.wait()
        for _ in range(5):
            ok = ThreePerMinute().allow_request(_request(9), view)
            with lock:
                allowed.append(ok)

    threads = [threading.Thread(target=client) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(allowed) == 60
    assert allowed.count(True) == 30
