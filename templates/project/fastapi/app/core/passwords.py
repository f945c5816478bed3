"""Password hashing with the standard library's scrypt.

Hashes read ``scrypt$<n>$<r>$<p>$<salt>$<digest>`` (base64 salt and digest), so the cost
can be raised later without breaking the hashes already stored.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets

_N, _R, _P = 2**14, 8, 1
_SALT_BYTES = 16
_DIGEST_BYTES = 32
_MAX_MEMORY = 64 * 1024 * 1024


def _scrypt(password: str, salt: bytes, n: int, r: int, p: int) -> bytes:
    return hashlib.scrypt(
        password.encode(),
        salt=salt,
        n=n,
        r=r,
        p=p,
        maxmem=_MAX_MEMORY,
        dklen=_DIGEST_BYTES,
    )


def hash_password(password: str) -> str:
    """A salted scrypt hash of ``password``, ready to store."""
    salt = secrets.token_bytes(_SALT_BYTES)
    digest = _scrypt(password, salt, _N, _R, _P)
    encoded = [base64.b64encode(part).decode() for part in (salt, digest)]
    return "$".join(["scrypt", str(_N), str(_R), str(_P), *encoded])


def verify_password(password: str, stored: str) -> bool:
    """Whether ``password`` matches ``stored``; a malformed hash never matches."""
    try:
        scheme, n, r, p, salt, digest = stored.split("$")
        if scheme != "scrypt":
            return False
        expected = base64.b64decode(digest, validate=True)
        actual = _scrypt(
            password, base64.b64decode(salt, validate=True), *map(int, (n, r, p))
        )
    except (ValueError, TypeError, MemoryError):
        return False
    return hmac.compare_digest(actual, expected)
