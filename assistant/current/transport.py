"""The guarded transport: resolve once, connect only to vetted public addresses, within the deadline.

httpx has no public hook for its network backend; ``guarded_transport`` gives an httpx transport
a connection pool whose backend resolves the host once, refuses unless every answer is allowed
(``core.addresses.is_public_address`` by default) and caps every socket operation at what is left
of the fetch's total deadline.
"""

from __future__ import annotations

import concurrent.futures
import ipaddress
import socket
import ssl
import typing
from collections.abc import Callable

import httpcore
import httpx

from core.deadline import Deadline

# A single stalled read can outlast the total deadline by at most this much.
PER_READ_TIMEOUT_S = 2.0

Resolver = Callable[[str, int], list[str]]
PeerPolicy = Callable[[ipaddress.IPv4Address | ipaddress.IPv6Address], bool]
_RESOLVER_POOL = concurrent.futures.ThreadPoolExecutor(
    max_workers=4, thread_name_prefix="aicd-resolve"
)


class PeerRefused(httpcore.ConnectError):
    """Raised inside the network backend when a host cannot be resolved to a vetted address."""


def system_resolver(host: str, port: int) -> list[str]:
    """The operating system's resolver: every address for ``host`` (TCP)."""
    infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    return [str(info[4][0]) for info in infos]


class DeadlineStream(httpcore.NetworkStream):
    """A socket stream whose every read, write and TLS handshake gets at most what is left of the deadline.

    httpcore applies the request's timeouts per operation, so a server that trickles bytes (body
    or headers, or endless `100 Continue` heads) never trips them; this cap does.
    """

    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline):
        self._stream = stream
        self._deadline = deadline

    def _budget(self, timeout: float | None, expired: type[Exception]) -> float:
        left = self._deadline.remaining()
        if left <= 0:
            raise expired("the total time budget ran out")
        return left if timeout is None else min(timeout, left)

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, self._budget(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, self._budget(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        budget = self._budget(timeout, httpcore.ConnectTimeout)
        return DeadlineStream(
            self._stream.start_tls(ssl_context, server_hostname, budget), self._deadline
        )

    def get_extra_info(self, info: str) -> typing.Any:
        return self._stream.get_extra_info(info)


class GuardedNetworkBackend(httpcore.SyncBackend):
    """Resolves once, refuses unless every answer is allowed, then connects to a vetted address.

    httpcore still passes the original host name to TLS, so SNI and certificate verification are
    for the name in the URL; only the TCP connect uses the vetted address.
    """

    def __init__(self, *, resolver: Resolver, peer_allowed: PeerPolicy, deadline: Deadline):
        self.resolver = resolver
        self.peer_allowed = peer_allowed
        self.deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: typing.Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.NetworkStream:
        vetted = self._vetted_addresses(host, port)
        last: Exception | None = None
        for address in vetted:
            budget = self.deadline.remaining()
            if budget <= 0:
                break
            try:
                stream = super().connect_tcp(
                    str(address),
                    port,
                    timeout=min(timeout, budget) if timeout else budget,
                    local_address=local_address,
                    socket_options=socket_options,
                )
                return DeadlineStream(stream, self.deadline)
            except (httpcore.ConnectError, httpcore.ConnectTimeout) as exc:
                last = exc
        if last is not None:
            raise last
        raise httpcore.ConnectTimeout("the time budget ran out before connecting")

    def connect_unix_socket(self, *args: object, **kwargs: object) -> httpcore.NetworkStream:
        raise PeerRefused("unix sockets are never used for current/public sources")

    def _vetted_addresses(
        self, host: str, port: int
    ) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
        future = _RESOLVER_POOL.submit(self.resolver, host, port)
        try:
            answers = future.result(timeout=self.deadline.remaining())
        except concurrent.futures.TimeoutError:
            future.cancel()
            raise PeerRefused(f"resolving {host} took longer than the time budget") from None
        except (OSError, UnicodeError, ValueError):
            raise PeerRefused(f"could not resolve {host}") from None
        addresses = []
        for answer in answers:
            try:
                addresses.append(ipaddress.ip_address(answer.split("%", 1)[0]))
            except ValueError:
                raise PeerRefused(
                    f"{host} resolved to something that is not an IP address"
                ) from None
        if not addresses:
            raise PeerRefused(f"could not resolve {host}")
        refused = [a for a in addresses if not self.peer_allowed(a)]
        if refused:
            raise PeerRefused(
                f"{host} resolves to a private, loopback, link-local or otherwise non-public address; "
                "refused before connecting"
            )
        return list(dict.fromkeys(addresses))


def guarded_transport(
    *,
    resolver: Resolver,
    peer_allowed: PeerPolicy,
    ssl_context: ssl.SSLContext | None,
    deadline: Deadline,
) -> httpx.HTTPTransport:
    """An httpx transport for one fetch: one connection, no keep-alive, no proxies, no retries."""
    context = ssl_context or httpx.create_ssl_context(trust_env=False)
    transport = httpx.HTTPTransport(verify=context, trust_env=False, retries=0)
    # Replace httpx's pool with one that uses the guarded backend (the same arguments httpx
    # would pass, one connection, no keep-alive).
    transport._pool.close()
    transport._pool = httpcore.ConnectionPool(
        ssl_context=context,
        max_connections=1,
        max_keepalive_connections=0,
        http1=True,
        http2=False,
        retries=0,
        network_backend=GuardedNetworkBackend(
            resolver=resolver, peer_allowed=peer_allowed, deadline=deadline
        ),
    )
    return transport


def transport_reason(exc: Exception) -> str:
    """A plain sentence for a transport failure, safe to show to a reviewer."""
    cause = exc.__cause__ or exc.__context__
    if isinstance(cause, PeerRefused):
        return str(cause)
    if isinstance(cause, ssl.SSLCertVerificationError) or "CERTIFICATE_VERIFY_FAILED" in str(exc):
        return "the source's TLS certificate could not be verified"
    if isinstance(exc, httpx.RemoteProtocolError):
        return "the source sent a malformed or oversized HTTP response"
    return "could not connect to the source"
