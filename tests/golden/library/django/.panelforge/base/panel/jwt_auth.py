"""JWT mode: bearer tokens instead of sessions (MoonShine's moonshine/jwt, hardened).

``JWTLogin`` (a step of ``PANEL["auth"]["pipelines"]``) answers a good login with
``{"token", "token_type": "Bearer", "expires_in"}``; ``JWTAuthentication`` (the
``PANEL["auth"]["middleware"]``) accepts a request whose ``Authorization: Bearer
<token>`` is valid, unexpired, not revoked and for an active user. Anything else is
401 ``{"message": "Unauthenticated."}`` with ``WWW-Authenticate: Bearer``, never a
500. Tokens are read from that header only: not from the query string, which servers
log, nor from cookies. Logging out revokes the token until it would have expired.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import TYPE_CHECKING

from django.conf import settings
from django.contrib.auth.base_user import AbstractBaseUser
from django.http import HttpRequest, HttpResponse

from panel_core.accounts import FAILED
from panel_core.errors import InvalidInput
from panel_core.tokens import (
    Claims,
    TokenKeys,
    VerifiedTokens,
    bearer_token,
    issue_token,
)

from .auth_state import revoke_token
from .responses import json_response
from .tokens import token_keys
from .users import check_credentials, token_user

if TYPE_CHECKING:
    from .login import Credentials, Next

# The request attribute holding the claims of the token it was authenticated with.
CLAIMS_ATTRIBUTE = "panel_token_claims"


class JWTAuthentication:
    """The user of the request's bearer token."""

    challenge: Mapping[str, str] = {"WWW-Authenticate": "Bearer"}

    def __init__(self) -> None:
        self._tokens: tuple[TokenKeys, str, int, VerifiedTokens] | None = None

    @staticmethod
    def check_settings() -> None:
        """Refuse to start without a usable JWT_SECRET (and JWT_SECRET_PREVIOUS)."""
        token_keys()

    def _verified(self) -> VerifiedTokens:
        """The tokens verified with the current keys and settings (none yet if new)."""
        keys, issuer, leeway = token_keys(), settings.JWT_ISSUER, settings.JWT_LEEWAY
        found = self._tokens
        if found is None or found[0] is not keys or found[1:3] != (issuer, leeway):
            verified = VerifiedTokens(keys, issuer=issuer, leeway=leeway)
            found = self._tokens = (keys, issuer, leeway, verified)
        return found[3]

    def authenticate(self, request: HttpRequest) -> AbstractBaseUser | None:
        """The active user the token names, if the token is valid and not revoked."""
        token = bearer_token(request.headers.get("Authorization"))
        if token is None:
            return None
        claims = self._verified().claims(token)
        if claims is None:
            return None
        user = token_user(claims.user_id, claims.jti)
        if user is None:
            return None
        setattr(request, CLAIMS_ATTRIBUTE, claims)
        return user

    def logout(self, request: HttpRequest) -> None:
        """Revoke the token of this request."""
        claims: Claims = getattr(request, CLAIMS_ATTRIBUTE)
        revoke_token(claims.jti, expires_at=claims.expires_at, now=int(time.time()))


class JWTLogin:
    """Checks the credentials and answers with a new token (JSON or form logins)."""

    @staticmethod
    def check_settings() -> None:
        """Refuse to start without a usable JWT_SECRET."""
        token_keys()

    def __call__(
        self, request: HttpRequest, credentials: Credentials, call_next: Next
    ) -> HttpResponse:
        """200 with a token, ``Cache-Control: no-store``; 422 for bad credentials."""
        del call_next
        user = check_credentials(credentials.username, credentials.password)
        if user is None:
            raise InvalidInput({"username": [FAILED]})
        issued = issue_token(
            token_keys(),
            user_id=user.pk,
            issuer=settings.JWT_ISSUER,
            ttl=settings.JWT_TTL,
            now=int(time.time()),
        )
        body = {
            "token": issued.token,
            "token_type": "Bearer",
            "expires_in": issued.expires_in,
        }
        headers = {"Cache-Control": "no-store", "Pragma": "no-cache"}
        return json_response(body, headers=headers)
