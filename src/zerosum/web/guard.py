"""The guard in front of every route: requests are answered only when addressed to this server.

A page elsewhere on the web can make the browser send requests to 127.0.0.1, and a hostile
name server can point a name of its own at 127.0.0.1 (DNS rebinding). Two headers tell these
requests apart from the page's own: `Host`, which names the address the browser thinks it is
talking to, and `Origin`, which names the page that opened the connection (sent with every
websocket and every POST). A request whose `Host` is not one of the server's own addresses is
refused with 400, one whose `Origin` is another site's with 403; a websocket refused is closed
before it is accepted (the browser sees the handshake fail).
"""

from __future__ import annotations

from collections.abc import Iterable

from starlette.datastructures import Headers
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocketClose

POLICY_VIOLATION = 1008
"""The websocket close code for a connection refused by the server's policy (RFC 6455)."""


class SameOriginGuard:
    """An ASGI middleware that passes on only the requests addressed to one of `hosts`.

    `hosts` are the addresses the server answers at, as a browser writes them in `Host`:
    `127.0.0.1:8000`, `localhost:8000`. The allowed origins are the same addresses under
    `http://`.
    """

    def __init__(self, app: ASGIApp, hosts: Iterable[str]) -> None:
        self.app = app
        self.hosts = frozenset(host.lower() for host in hosts)
        self.origins = frozenset(f"http://{host}" for host in self.hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):  # lifespan: nothing to check
            await self.app(scope, receive, send)
            return
        refusal = self.refusal(Headers(scope=scope))
        if refusal is None:
            await self.app(scope, receive, send)
        elif scope["type"] == "websocket":
            await WebSocketClose(code=POLICY_VIOLATION, reason=refusal[1])(scope, receive, send)
        else:
            await PlainTextResponse(refusal[1], status_code=refusal[0])(scope, receive, send)

    def refusal(self, headers: Headers) -> tuple[int, str] | None:
        """The status and the reason to refuse a request with these headers, or None."""
        host = headers.get("host", "").lower()
        if host not in self.hosts:
            return 400, f"this server answers only at {', '.join(sorted(self.hosts))}"
        origin = headers.get("origin")
        if origin is not None and origin.lower() not in self.origins:
            return 403, "requests from another site's pages are refused"
        return None
