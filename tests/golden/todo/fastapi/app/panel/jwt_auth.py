"""JWT mode: bearer tokens instead of sessions (MoonShine's moonshine/jwt, hardened).

``JWTLogin`` (a step of ``panel.auth.pipelines``) answers a good login with
``{"token", "token_type": "Bearer", "expires_in"}``; ``JWTAuthentication`` (the
``panel.auth.middleware``) accepts a request whose ``Authorization: Bearer <token>``
is valid, unexpired, not revoked and for an active user. Anything else is 401
``{"message": "Unauthenticated."}`` with ``WWW-Authenticate: Bearer``, never a 500.
Tokens are read from that header only: not from the query string, which servers log,
nor from cookies. Logging out revokes the token until it would have expired.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from functools import cached_property

from fastapi import Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from app.core.auth_state import NOT_REVOKED, revoke_token
from app.core.config import Settings
from app.core.tokens import token_keys
from app.core.users import User, check_credentials, user_query
from panel_core.accounts import FAILED
from panel_core.tokens import (
    Claims,
    TokenKeys,
    VerifiedTokens,
    bearer_token,
    issue_token,
)
from panel_core.translation import gettext

from .auth import load_user
from .errors import InvalidInput
from .login import Credentials, Next
from .responses import json_response

_CLAIMS = "panel.token"
# The token's user, unless the token was revoked: one query, rendered once.
_TOKEN_USER = user_query(NOT_REVOKED)


class JWTAuthentication:
    """The user of the request's bearer token."""

    challenge: Mapping[str, str] = {"WWW-Authenticate": "Bearer"}

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @staticmethod
    def check_settings(settings: Settings) -> None:
        """Refuse to start without a usable JWT_SECRET (and JWT_SECRET_PREVIOUS)."""
        token_keys(settings)

    @cached_property
    def keys(self) -> TokenKeys:
        """The keys tokens may be signed with."""
        return token_keys(self.settings)

    @cached_property
    def verified(self) -> VerifiedTokens:
        """Tokens whose signature and claims were checked, with what they claim."""
        settings = self.settings
        return VerifiedTokens(
            self.keys, issuer=settings.jwt_issuer, leeway=settings.jwt_leeway
        )

    async def authenticate(self, request: Request) -> User | None:
        """The active user the token names, if the token is valid and not revoked."""
        token = bearer_token(request.headers.get("authorization"))
        if token is None:
            return None
        claims = self.verified.claims(token)
        if claims is None:
            return None
        user = await load_user(request, claims.user_id, _TOKEN_USER, jti=claims.jti)
        if user is None or not user.is_active:
            return None
        request.scope[_CLAIMS] = claims
        return user

    async def logout(self, request: Request) -> None:
        """Revoke the token of this request."""
        claims: Claims = request.scope[_CLAIMS]
        engine: Engine = request.app.state.engine
        await run_in_threadpool(
            revoke_token,
            engine,
            claims.jti,
            expires_at=claims.expires_at,
            now=int(time.time()),
        )


class JWTLogin:
    """Checks the credentials and answers with a new token (JSON or form logins)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    @staticmethod
    def check_settings(settings: Settings) -> None:
        """Refuse to start without a usable JWT_SECRET."""
        token_keys(settings)

    @cached_property
    def keys(self) -> TokenKeys:
        """The keys; new tokens are signed with JWT_SECRET's."""
        return token_keys(self.settings)

    async def __call__(
        self, request: Request, credentials: Credentials, call_next: Next
    ) -> Response:
        """200 with a token, ``Cache-Control: no-store``; 422 for bad credentials."""
        del call_next
        engine: Engine = request.app.state.engine
        user = await run_in_threadpool(
            check_credentials, engine, credentials.username, credentials.password
        )
        if user is None:
            raise InvalidInput({"username": [gettext(FAILED)]})
        issued = issue_token(
            self.keys,
            user_id=user.id,
            issuer=self.settings.jwt_issuer,
            ttl=self.settings.jwt_ttl,
            now=int(time.time()),
        )
        body = {
            "token": issued.token,
            "token_type": "Bearer",
            "expires_in": issued.expires_in,
        }
        headers = {"Cache-Control": "no-store", "Pragma": "no-cache"}
        return json_response(body, headers=headers)
