"""Django's Redis cache with one redis-py client per connection pool instead of one per command."""

from __future__ import annotations

from typing import Any

from django.core.cache.backends.redis import RedisCache as DjangoRedisCache
from django.core.cache.backends.redis import RedisCacheClient


class ReusingRedisCacheClient(RedisCacheClient):
    """Builds each ``redis.Redis`` once and reuses it.

    Django's client constructs a new ``redis.Redis`` for every cache command; with redis-py 5+
    that costs about as much CPU as the command itself (its response-callback tables are
    rebuilt each time), and a throttled API request issues two. A ``redis.Redis`` on a shared
    connection pool is thread-safe, so one per pool gives the same behaviour for less.
    """

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self._clients: dict[int, Any] = {}

    def get_client(self, key: Any = None, *, write: bool = False) -> Any:
        pool = self._get_connection_pool(write)  # type: ignore[attr-defined]
        client = self._clients.get(id(pool))
        if client is None:
            client = self._clients[id(pool)] = self._client(connection_pool=pool)  # type: ignore[attr-defined]
        return client


class RedisCache(DjangoRedisCache):
    """``django.core.cache.backends.redis.RedisCache`` with :class:`ReusingRedisCacheClient`."""

    def __init__(self, server: str, params: dict[str, Any]):
        super().__init__(server, params)
        self._class = ReusingRedisCacheClient

    def redis(self) -> Any:
        """The ``redis.Redis`` client for writes, for commands the cache API has no word for."""
        return self._cache.get_client(write=True)

    def script(self, source: str) -> Any:
        """A Lua script registered once on the write client (run with EVALSHA, loaded if missing)."""
        scripts: dict[str, Any] = self.__dict__.setdefault("_scripts", {})
        script = scripts.get(source)
        if script is None:
            script = scripts[source] = self.redis().register_script(source)
        return script
