"""Sessions in a signed cookie: the server stores nothing, the client changes nothing.

The cookie holds ``base64url(JSON).<issued at>.<HMAC-SHA256>``, keyed by a key derived
from SECRET_KEY; a cookie that is tampered with, signed with another key or older than
``session_lifetime`` is an empty session. It is ``HttpOnly`` and ``SameSite=Lax``, and
``Secure`` when the request came over https. It is written only when the session
changed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import logging
import secrets
import time
from typing import Any

from starlette.datastructures import MutableHeaders
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.core.config import ConfigurationError, Settings

COOKIE = "panel_session"
MIN_SECRET_LENGTH = 32
_CSRF_KEY = "_csrf"
_MISSING = (
    "SECRET_KEY is not set. Generate one with: python -c "
    "'import secrets; print(secrets.token_urlsafe(32))' "
    "(or set DEBUG=1 while developing)"
)
_logger = logging.getLogger(__name__)


def signing_key(settings: Settings) -> bytes | None:
    """The key sessions are signed with; ``None`` when it is missing.

    In debug mode a missing SECRET_KEY is replaced by a random key for this process.
    """
    if settings.secret_key is not None:
        secret = settings.secret_key.get_secret_value()
        if len(secret) < MIN_SECRET_LENGTH:
            raise ConfigurationError(
                f"SECRET_KEY must be at least {MIN_SECRET_LENGTH} characters"
            )
        return _derive(secret.encode())
    if settings.debug:
        _logger.warning("SECRET_KEY is not set: logins end when this process stops")
        return _derive(secrets.token_bytes(32))
    return None


def require_signing_key(key: bytes | None) -> bytes:
    """``key``, or the error telling how to set one."""
    if key is None:
        raise ConfigurationError(_MISSING)
    return key


def _derive(secret: bytes) -> bytes:
    return hmac.new(secret, b"panel.session", hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def sign(key: bytes, data: dict[str, Any], now: int) -> str:
    """``data`` as a cookie value signed with ``key`` at time ``now``."""
    payload = _b64(json.dumps(data, separators=(",", ":"), sort_keys=True).encode())
    body = f"{payload}.{now}"
    mac = hmac.digest(key, body.encode(), "sha256")
    return f"{body}.{_b64(mac)}"


def _verified(key: bytes, value: str, max_age: int, now: int) -> bytes:
    """The JSON a cookie value carries; empty when it is forged, malformed or
    expired."""
    try:
        payload, issued, mac = value.split(".")
        expected = hmac.digest(key, f"{payload}.{issued}".encode(), "sha256")
        if not hmac.compare_digest(_unb64(mac), expected):
            return b""
        if not issued.isdigit() or now - int(issued) > max_age:
            return b""
        return _unb64(payload)
    except (ValueError, binascii.Error):
        return b""


def _session(data: bytes) -> dict[str, Any]:
    try:
        session = json.loads(data) if data else {}
    except ValueError:
        return {}
    return session if isinstance(session, dict) else {}


def csrf_token(connection: HTTPConnection) -> str:
    """The session's CSRF token (made on first use); "" without sessions."""
    if "session" not in connection.scope:
        return ""
    token = connection.session.get(_CSRF_KEY)
    if not isinstance(token, str):
        token = connection.session[_CSRF_KEY] = secrets.token_urlsafe(32)
    return token


def stored_csrf_token(connection: HTTPConnection) -> str | None:
    """The token the session holds, without making one."""
    if "session" not in connection.scope:
        return None
    token = connection.session.get(_CSRF_KEY)
    return token if isinstance(token, str) else None


def renew_session(connection: HTTPConnection, values: dict[str, Any]) -> str:
    """Replace the session (at login and logout) and give it a new CSRF token."""
    connection.session.clear()
    connection.session.update(values)
    return csrf_token(connection)


class SessionMiddleware:
    """Loads ``request.session`` from the cookie and writes it back when it changed."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.max_age = settings.session_lifetime

    @staticmethod
    def check_settings(settings: Settings) -> None:
        """Refuse to start without SECRET_KEY (unless DEBUG makes one up)."""
        if settings.secret_key is None and not settings.debug:
            raise ConfigurationError(_MISSING)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        key = require_signing_key(scope["app"].state.signing_key)
        cookie = _cookie(scope)
        data = _verified(key, cookie, self.max_age, int(time.time())) if cookie else b""
        # Two readings of the JSON: the session the app may change, and the one it
        # is compared with (reading the small JSON again costs less than a deep copy).
        loaded, scope["session"] = _session(data), _session(data)

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                session = scope["session"]
                if session != loaded or (cookie and not session):
                    self._set_cookie(message, scope, key, session)
            await send(message)

        await self.app(scope, receive, send_with_cookie)

    def _set_cookie(
        self, message: Message, scope: Scope, key: bytes, session: dict[str, Any]
    ) -> None:
        headers = MutableHeaders(scope=message)
        if session:
            value, max_age = sign(key, session, int(time.time())), self.max_age
        else:
            value, max_age = "", 0
        flags = f"Path=/; Max-Age={max_age}; HttpOnly; SameSite=Lax"
        if scope.get("scheme") in ("https", "wss"):
            flags += "; Secure"
        headers.append("Set-Cookie", f"{COOKIE}={value}; {flags}")


def _cookie(scope: Scope) -> str:
    return HTTPConnection(scope).cookies.get(COOKIE, "")
