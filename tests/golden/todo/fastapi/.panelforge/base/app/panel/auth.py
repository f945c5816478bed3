"""Authentication of panel requests: who is logged in, or a refusal.

``authenticated`` (in every panel router's ``PANEL_GUARDS``) asks the configured
authentication class (settings ``panel.auth.middleware``) for the request's user. None:
JSON clients get 401 ``{"message": "Unauthenticated."}``, pages a 303 to the login page
(with JWT, whose 401 challenges for a bearer token, pages get the 401 too).

``SessionAuthentication`` reads the user id from the session. The session also keeps a
fingerprint of the user's password hash, so changing the password, deactivating or
deleting the user ends every session of theirs. Each login's session has an id;
logging out lists it in ``panel_revoked_tokens`` (shared by every worker), so a copy
of the cookie kept from before the logout is refused too.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time
from collections.abc import Mapping
from typing import Any, Protocol

from fastapi import Request
from sqlalchemy import Engine, Select
from starlette.concurrency import run_in_threadpool

from app.core.auth_state import NOT_REVOKED, revoke_token
from app.core.config import Settings
from app.core.readers import LoopReader
from app.core.users import BY_ID, User, get_user, read_user, user_query

from .errors import Unauthenticated
from .sessions import renew_session

USER_KEY = "_user"
_HASH_KEY = "_auth_hash"
_SESSION_ID = "_sid"
# The session's user, unless the session was logged out: one query, rendered once.
_SESSION_USER = user_query(NOT_REVOKED)


class Authentication(Protocol):
    """What ``panel.auth.middleware`` names: a class built with the settings.

    It may also have a static ``check_settings(settings)`` that raises
    ``ConfigurationError``: the panel then refuses to start (``stack.check_settings``).
    """

    # Headers of the 401 answer: ``{"WWW-Authenticate": "Bearer"}`` for tokens.
    challenge: Mapping[str, str]

    def __init__(self, settings: Settings) -> None: ...

    async def authenticate(self, request: Request) -> User | None:
        """The request's user, or ``None`` when nobody (valid) is logged in."""
        ...

    async def logout(self, request: Request) -> None:
        """End what authenticated this request (the session, the token)."""
        ...


async def authenticated(request: Request) -> None:
    """Refuse a request without a logged-in user; remember the user otherwise."""
    authentication: Authentication = request.app.state.authentication
    user = await authentication.authenticate(request)
    if user is None:
        raise Unauthenticated(authentication.challenge)
    request.state.user = user


def current_user(request: Request) -> User | None:
    """The user ``authenticated`` found for this request, if it ran."""
    user: User | None = getattr(request.state, "user", None)
    return user


async def load_user(
    request: Request,
    user_id: int,
    statement: Select[Any] = BY_ID,
    **values: Any,
) -> User | None:
    """The user ``statement`` selects (see ``user_query``), read for this request.

    On SQLite the read runs on the event loop (it takes microseconds, less than a
    hand-off to the thread pool); elsewhere in the pool.
    """
    reader: LoopReader | None = request.app.state.reader
    if reader is not None:
        return await read_user(reader, user_id, statement, **values)
    engine = request.app.state.engine
    return await run_in_threadpool(get_user, engine, user_id, statement, **values)


def _fingerprint(request: Request, user: User) -> str:
    key: bytes = request.app.state.signing_key
    return hmac.new(key, user.password_hash.encode(), hashlib.sha256).hexdigest()


def login(request: Request, user: User) -> str:
    """Start a new session for ``user``; returns its CSRF token."""
    values = {
        USER_KEY: user.id,
        _HASH_KEY: _fingerprint(request, user),
        _SESSION_ID: secrets.token_urlsafe(24),
    }
    return renew_session(request, values)


def logout(request: Request) -> None:
    """End the session (a new, anonymous one begins)."""
    renew_session(request, {})


def revoked_id(session_id: str) -> str:
    """The id a logged-out session has in ``panel_revoked_tokens``."""
    return f"session:{session_id}"


class SessionAuthentication:
    """The user whose id the signed session cookie holds (the default)."""

    challenge: Mapping[str, str] = {}

    def __init__(self, settings: Settings) -> None:
        self.lifetime = settings.session_lifetime

    async def authenticate(self, request: Request) -> User | None:
        """The session's user, if still active, logged in and with the same password."""
        if "session" not in request.scope:
            raise RuntimeError("SessionAuthentication needs SessionMiddleware")
        user_id: Any = request.session.get(USER_KEY)
        session_id: Any = request.session.get(_SESSION_ID)
        if not isinstance(user_id, int) or isinstance(user_id, bool):
            return None
        if not isinstance(session_id, str):
            logout(request)  # from before sessions had ids: log in again
            return None
        jti = revoked_id(session_id)
        user = await load_user(request, user_id, _SESSION_USER, jti=jti)
        valid = (
            user is not None
            and user.is_active
            and hmac.compare_digest(
                str(request.session.get(_HASH_KEY, "")), _fingerprint(request, user)
            )
        )
        if not valid:
            logout(request)
            return None
        return user

    async def logout(self, request: Request) -> None:
        """End the session, and refuse its cookie from now on (every worker)."""
        session_id: Any = request.session.get(_SESSION_ID)
        logout(request)
        if not isinstance(session_id, str):
            return
        now = int(time.time())
        engine: Engine = request.app.state.engine
        await run_in_threadpool(
            revoke_token,
            engine,
            revoked_id(session_id),
            expires_at=now + self.lifetime,
            now=now,
        )
