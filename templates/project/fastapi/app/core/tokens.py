"""JSON Web Tokens for the API (JWT mode): the keys, issuing, and verifying.

RFC 8725's advice, with PyJWT: one algorithm, HS256, pinned when verifying (so
``none`` and every other algorithm are refused); the key is JWT_SECRET, base64 of at
least 32 random bytes. A token carries ``iss`` and ``aud`` (the panel), ``sub`` (the
user's key, a string), ``iat``, ``exp`` and ``jti`` (its id, for revocation), and
every one of them is required. Its header names the key (``kid``, a fingerprint):
only JWT_SECRET and, during a rotation, JWT_SECRET_PREVIOUS are ever tried.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
import secrets
from dataclasses import dataclass

import jwt
from pydantic import SecretStr

from app.core.config import ConfigurationError, Settings

ALGORITHM = "HS256"
MIN_SECRET_BYTES = 32
MAX_LEEWAY = 60
REQUIRED_CLAIMS = ["iss", "aud", "sub", "iat", "exp", "jti"]
_HOW = "Make one with: python -m app jwt:secret"
_SUBJECT = re.compile(r"[1-9][0-9]{0,18}")
_MAX_KEY = 2**63 - 1
_MAX_JTI = 64


def make_secret() -> str:
    """A new JWT_SECRET: 32 random bytes, base64."""
    return base64.b64encode(secrets.token_bytes(MIN_SECRET_BYTES)).decode()


def decode_secret(name: str, value: SecretStr | None) -> bytes:
    """The key in setting ``name``, or the error saying what is wrong and what to do.

    The message never contains the value.
    """
    text = "" if value is None else value.get_secret_value().strip()
    if not text:
        raise ConfigurationError(f"{name} is not set. {_HOW}")
    try:
        key = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError):
        raise ConfigurationError(
            f"{name} is not base64 (standard alphabet, with padding). {_HOW}"
        ) from None
    if len(key) < MIN_SECRET_BYTES:
        raise ConfigurationError(
            f"{name} is {len(key)} bytes once decoded; it must be at least "
            f"{MIN_SECRET_BYTES}. {_HOW}"
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


def token_keys(settings: Settings) -> TokenKeys:
    """The keys of JWT_SECRET and JWT_SECRET_PREVIOUS; refuses unusable secrets."""
    current = decode_secret("JWT_SECRET", settings.jwt_secret)
    verifying = {_key_id(current): current}
    if settings.jwt_secret_previous is not None:
        previous = decode_secret("JWT_SECRET_PREVIOUS", settings.jwt_secret_previous)
        verifying.setdefault(_key_id(previous), previous)
    return TokenKeys(_key_id(current), verifying)


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
