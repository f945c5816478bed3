"""Tokens made by hand for the JWT tests, one file in both projects.

Each project's ``tests/tokens.py`` knows where its issuer and keys live; the claims,
the signing and the forged tokens are made here the same way for both.
"""

from __future__ import annotations

import base64
import json
import secrets
import time
import warnings
from typing import Any, Protocol

import jwt

JSON = {"Accept": "application/json"}
# Left out of the claims by ``claims(…, name=DROP)``.
DROP = object()


class SigningKeys(Protocol):
    """The panel's current signing key and its key id."""

    @property
    def signing(self) -> bytes:
        """The key new tokens are signed with."""
        ...

    @property
    def signing_id(self) -> str:
        """Its key id, the tokens' ``kid``."""
        ...


def bearer(token: str) -> dict[str, str]:
    """The headers of a JSON request carrying ``token``."""
    return {**JSON, "Authorization": f"Bearer {token}"}


def claims_for(issuer: str, user_id: int, **changes: Any) -> dict[str, Any]:
    """Valid claims for ``user_id`` from ``issuer``, changed (``DROP`` removes one)."""
    now = int(time.time())
    found: dict[str, Any] = {
        "iss": issuer,
        "aud": issuer,
        "sub": str(user_id),
        "iat": now,
        "exp": now + 600,
        "jti": secrets.token_urlsafe(16),
    }
    found.update(changes)
    return {name: value for name, value in found.items() if value is not DROP}


def sign_with(
    keys: SigningKeys,
    payload: dict[str, Any],
    *,
    key: bytes | None = None,
    algorithm: str = "HS256",
    **header: Any,
) -> str:
    """``payload`` signed with ``keys`` (or ``key``), naming their key id."""
    headers = {"kid": keys.signing_id, **header}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyJWT warns of keys short for HS384
        return jwt.encode(
            payload, key or keys.signing, algorithm=algorithm, headers=headers
        )


def b64(data: dict[str, Any]) -> str:
    """``data`` as a JWT part: JSON, base64url without padding."""
    text = json.dumps(data).encode()
    return base64.urlsafe_b64encode(text).rstrip(b"=").decode()


def unsigned_with(keys: SigningKeys, payload: dict[str, Any], **header: Any) -> str:
    """A token with ``header`` and ``payload`` and no signature."""
    return f"{b64({'kid': keys.signing_id, **header})}.{b64(payload)}."
