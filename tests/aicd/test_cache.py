"""core.cache.RedisCache: Django's Redis cache, one redis-py client per pool, same behaviour."""

from __future__ import annotations

import pytest
import redis

from core.cache import RedisCache


def test_one_client_per_pool_instead_of_one_per_command():
    cache = RedisCache("redis://127.0.0.1:1/0", {})  # nothing connects until a command runs
    client = cache._cache.get_client(write=True)
    assert isinstance(client, redis.Redis)
    assert cache._cache.get_client() is client
    assert cache._cache.get_client("any-key", write=True) is client


def test_a_second_cache_instance_has_its_own_client():
    a = RedisCache("redis://127.0.0.1:1/0", {})
    b = RedisCache("redis://127.0.0.1:1/0", {})
    assert a._cache.get_client() is not b._cache.get_client()


@pytest.mark.redis
def test_round_trip_against_a_real_redis(redis_url: str, redis_client: redis.Redis):
    cache = RedisCache(redis_url, {"KEY_PREFIX": "t"})
    cache.set("k", {"v": [1, 2]}, timeout=30)
    assert cache.get("k") == {"v": [1, 2]}
    assert 0 < redis_client.ttl("t:1:k") <= 30
    assert cache.add("k", "other") is False
    assert cache.add("n", 1) is True
    assert cache.incr("n") == 2
    cache.delete("k")
    assert cache.get("k") is None


def test_a_script_is_registered_once():
    cache = RedisCache("redis://127.0.0.1:1/0", {})
    first = cache.script("return 1")
    assert cache.script("return 1") is first
    assert cache.script("return 2") is not first
    assert first.registered_client is cache.redis()
