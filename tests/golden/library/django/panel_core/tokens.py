"""JSON Web Tokens for the API (JWT mode): the keys, issuing, and verifying.

RFC 8725's advice, with PyJWT: one algorithm, HS256, pinned when verifying (so
``none`` and every other algorithm are refused); the key is JWT_SECRET, base64 of at
least 32 random bytes. A token carries ``iss`` and ``aud`` (the panel), ``sub`` (the
user's key, a string), ``iat``, ``exp`` and ``jti`` (its id, for revocation), and
every one of them is required. Its header names the key (``kid``, a fingerprint):
only JWT_SECRET and, during a rotation, JWT_SECRET_PREVIOUS are ever tried.

Each framework reads the two secrets from its own settings and turns ``SecretError``
into its own "refuse to start" error.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
import time
from dataclasses import dataclass

import jwt

ALGORITHM = "HS256"
MIN_SECRET_BYTES = 32
MAX_LEEWAY = 60
REQUIRED_CLAIMS = ["iss", "aud", "sub", "iat", "exp", "jti"]
_SUBJECT = re.compile(r"[1-9][0-9]{0,18}")
_MAX_KEY = 2**63 - 1
_MAX_JTI = 64
# A revoked token is remembered until no clock could still accept it, and nothing
# is remembered longer than this, whatever a token claims.
_MAX_LIFETIME = 366 * 24 * 60 * 60
# Longer Authorization headers are refused before anything decodes them.
MAX_AUTHORIZATION = 8 * 1024


class SecretError(ValueError):
    """A JWT secret cannot be used; the message says why and never shows it."""


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header (any case), if any.

    Only that header counts: not the query string, which servers log, nor cookies.
    """
    if authorization is None or len(authorization) > MAX_AUTHORIZATION:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    if scheme.lower() != "bearer" or not token or " " in token:
        return None
    return token


def make_secret() -> str:
    """A new JWT_SECRET: 32 random bytes, base64."""
    return base64.b64encode(secrets.token_bytes(MIN_SECRET_BYTES)).decode()


def decode_secret(name: str, text: str | None, *, how: str) -> bytes:
    """The key in setting ``name``; ``how`` (making a new one) ends every error."""
    text = (text or "").strip()
    if not text:
        raise SecretError(f"{name} is not set. {how}")
    try:
        key = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise SecretError(
            f"{name} is not base64 (standard alphabet, with padding). {how}"
        ) from None
    if len(key) < MIN_SECRET_BYTES:
        raise SecretError(
            f"{name} is {len(key)} bytes once decoded; it must be at least "
            f"{MIN_SECRET_BYTES}. {how}"
        )
    return key


def _key_id(key: bytes) -> str:
    return hashlib.sha256(b"panel.jwt.kid\0" + key).hexdigest()[:16]


@dataclass(frozen=True)
class TokenKeys:
    """The key that signs, and every key that verifies, by key id."""

    signing_id: str
    verifying: dict[str, bytes]

    @property
    def signing(self) -> bytes:
        """The key new tokens are signed with (JWT_SECRET)."""
        return self.verifying[self.signing_id]


def load_keys(current: str | None, previous: str | None, *, how: str) -> TokenKeys:
    """The keys of JWT_SECRET and (unless ``None``) JWT_SECRET_PREVIOUS.

    Raises ``SecretError`` for an unusable secret; ``how`` tells how to make one.
    """
    signing = decode_secret("JWT_SECRET", current, how=how)
    verifying = {_key_id(signing): signing}
    if previous is not None:
        old = decode_secret("JWT_SECRET_PREVIOUS", previous, how=how)
        verifying.setdefault(_key_id(old), old)
    return TokenKeys(_key_id(signing), verifying)


@dataclass(frozen=True)
class Claims:
    """What a valid token says."""

    user_id: int
    jti: str
    expires_at: int


@dataclass(frozen=True)
class IssuedToken:
    """A new token and its lifetime in seconds."""

    token: str
    expires_in: int


def issue_token(
    keys: TokenKeys, *, user_id: int, issuer: str, ttl: int, now: int
) -> IssuedToken:
    """A token for ``user_id``, valid ``ttl`` seconds from ``now``."""
    claims = {
        "iss": issuer,
        "aud": issuer,
        "sub": str(user_id),
        "iat": now,
        "exp": now + ttl,
        "jti": secrets.token_urlsafe(16),
    }
    token = jwt.encode(
        claims, keys.signing, algorithm=ALGORITHM, headers={"kid": keys.signing_id}
    )
    return IssuedToken(token, ttl)


def verify_token(
    keys: TokenKeys, token: str, *, issuer: str, leeway: int
) -> Claims | None:
    """The claims of ``token``, or ``None`` when it is not one of ours, valid now."""
    try:
        kid = jwt.get_unverified_header(token).get("kid")
        key = keys.verifying.get(kid) if isinstance(kid, str) else None
        if key is None:
            return None
        payload = jwt.decode(
            token,
            key,
            algorithms=[ALGORITHM],
            issuer=issuer,
            audience=issuer,
            leeway=min(leeway, MAX_LEEWAY),
            options={"require": REQUIRED_CLAIMS, "strict_aud": True},
        )
    except jwt.PyJWTError:
        return None
    subject, jti = payload["sub"], payload["jti"]
    if not _SUBJECT.fullmatch(subject) or int(subject) > _MAX_KEY:
        return None
    if not 0 < len(jti) <= _MAX_JTI:
        return None
    return Claims(int(subject), jti, int(payload["exp"]))


def revoked_until(expires_at: int, *, now: int) -> int:
    """Until when a token revoked ``now`` must be remembered as revoked."""
    return min(expires_at, now + _MAX_LIFETIME) + MAX_LEEWAY


class VerifiedTokens:
    """``verify_token`` remembered for the tokens it accepted, checked again for time.

    Once a token's signature, issuer, audience and claims have been accepted, only
    time can make it invalid (``exp``; ``iat`` and ``nbf`` only become truer), so a
    token seen again is not decoded again: its expiry is compared with the clock,
    with the same leeway. Revocation and the user are still read on every request.
    Only accepted tokens are kept (nobody without the key can add one), at most
    ``size``: when full, it starts again empty (safe with threads, unlike evicting).
    """

    def __init__(
        self, keys: TokenKeys, *, issuer: str, leeway: int, size: int = 1024
    ) -> None:
        self._keys, self._issuer = keys, issuer
        self._leeway = min(leeway, MAX_LEEWAY)
        self._size = size
        self._claims: dict[str, Claims] = {}

    def claims(self, token: str) -> Claims | None:
        """The claims of ``token`` if it is valid now, else ``None``."""
        claims = self._claims.get(token)
        if claims is None:
            claims = verify_token(
                self._keys, token, issuer=self._issuer, leeway=self._leeway
            )
            if claims is None:
                return None
            if len(self._claims) >= self._size:
                self._claims.clear()
            self._claims[token] = claims
        # PyJWT's test: expired once exp <= now - leeway.
        if claims.expires_at <= time.time() - self._leeway:
            self._claims.pop(token, None)
            return None
        return claims
