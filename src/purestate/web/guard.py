"""The server talks only to its own pages: the ASGI middleware every request passes first.

* **Host.** The ``Host`` header must name this server: 127.0.0.1, localhost, [::1], the address
  it was started on, or a name ``serve --allow-host`` adds. Anything else is answered 421, so a
  site whose name is made to resolve to 127.0.0.1 (DNS rebinding) reaches nothing.
* **State-changing requests** (every method but GET, HEAD and OPTIONS) need a JSON body
  (``Content-Type: application/json``, 415 otherwise) and, when the client says where it comes
  from (browsers always do), the same origin: an ``Origin`` of another site or port, or
  ``Sec-Fetch-Site: cross-site``, is answered 403. A request without ``Origin`` comes from a
  program (curl, a script), not from a page; a page of another site could not leave it out.
* **The browser cookie.** Every response to a request without a valid one sets a new random
  token (``secrets``) in an HttpOnly, SameSite=Strict cookie: the browser session that owns the
  games and labs it makes (``web.owners``). A browser never sends it with another site's
  request.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Awaitable, Callable, Iterable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGI = Callable[[Scope, Receive, Send], Awaitable[None]]

LOCAL_HOSTS = ("127.0.0.1", "localhost", "[::1]")
"""The names of this machine a server always answers to."""
BROWSER_COOKIE = "purestate_browser"
"""The cookie naming a browser session."""
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
_TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")


def host_name(value: str) -> str:
    """The name part of a ``Host`` header or an origin's host: lower case, without the port
    (``[::1]:8000`` gives ``[::1]``; anything else after the bracket keeps the whole value, which
    then matches no allowed name)."""
    value = value.strip().lower()
    if value.startswith("["):
        end = value.find("]")
        rest = value[end + 1 :]
        # after the bracket only a port may follow: "[::1]junk" names no host of this server
        if end > 0 and (not rest or (rest[0] == ":" and rest[1:].isdigit())):
            return value[: end + 1]
        return value
    name, _, port = value.rpartition(":")
    return name if name and port.isdigit() else value


def allowed_hosts(host: str, extra: Iterable[str] = ()) -> frozenset[str]:
    """The names the server answers to: this machine's, the bound address and ``extra``."""
    names = {*LOCAL_HOSTS, *(h.strip().lower() for h in extra if h.strip())}
    bound = host.strip().lower()
    names.add(f"[{bound}]" if ":" in bound and not bound.startswith("[") else bound)
    return frozenset(names)


def browser_of(scope: Scope) -> str:
    """The browser session a request belongs to (set by ``Guard``)."""
    return str(scope["state"]["browser"])


class Guard:
    """ASGI middleware: the Host, Origin and body checks and the browser cookie (module doc)."""

    def __init__(self, app: ASGI, hosts: frozenset[str]) -> None:
        self.app = app
        self.hosts = hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        refusal = self.refusal(scope["method"], headers)
        if refusal is not None:
            status, message = refusal
            await _answer(send, status, message)
            return
        token = _cookie(headers.get("cookie", ""))
        fresh = token is None
        scope.setdefault("state", {})["browser"] = token or secrets.token_urlsafe(18)
        if not fresh:
            await self.app(scope, receive, send)
            return
        cookie = (
            f"{BROWSER_COOKIE}={scope['state']['browser']}; Path=/; HttpOnly; SameSite=Strict"
        ).encode("latin-1")

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), (b"set-cookie", cookie)]
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    def refusal(self, method: str, headers: dict[str, str]) -> tuple[int, str] | None:
        """The status and message refusing a request, or None to let it through."""
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            return 421, (
                "this server answers only to the names it serves (127.0.0.1, localhost, [::1] "
                "or serve --allow-host NAME)"
            )
        if method.upper() in SAFE_METHODS:
            return None
        origin = headers.get("origin")
        if origin is not None and not _same_origin(origin, host):
            return 403, "requests from another site's pages are refused"
        if headers.get("sec-fetch-site", "same-origin") not in ("same-origin", "none"):
            return 403, "requests from another site's pages are refused"
        kind = headers.get("content-type", "").partition(";")[0].strip().lower()
        if kind != "application/json":
            return 415, "send the request body as JSON (Content-Type: application/json)"
        return None


def _same_origin(origin: str, host: str) -> bool:
    parts = urlsplit(origin.strip().lower())
    return parts.scheme in ("http", "https") and parts.netloc == host.strip().lower()


def _cookie(header: str) -> str | None:
    for part in header.split(";"):
        name, _, value = part.strip().partition("=")
        if name == BROWSER_COOKIE and _TOKEN.fullmatch(value):
            return value
    return None


async def _answer(send: Send, status: int, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
