"""Password hashing with Argon2id (argon2-cffi), at OWASP's recommended cost.

Hashes read ``$argon2id$v=19$m=19456,t=2,p=1$<salt>$<digest>``: they carry their own
parameters, so the cost can be raised later; ``needs_rehash`` tells which stored hashes
are weaker than today's.
"""

from __future__ import annotations

from argon2 import PasswordHasher, Type
from argon2.exceptions import InvalidHashError, VerificationError

from panel_core.passwords import MAX_PASSWORD_BYTES, is_too_long

_HASHER = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1, type=Type.ID)
# Checked when no user has the login name, so a miss costs what a wrong password costs.
_DECOY = (
    "$argon2id$v=19$m=19456,t=2,p=1$rcu9ck1c2d01pILCzElLRg"
    "$zjLBKVCIb42hPc7pA/CmfQAyizXDEFBAZjUfdjjeq50"
)


class PasswordTooLong(ValueError):
    """The password is over ``MAX_PASSWORD_BYTES`` in UTF-8."""


def hash_password(password: str) -> str:
    """A salted Argon2id hash of ``password``, ready to store."""
    if is_too_long(password):
        raise PasswordTooLong(f"passwords are at most {MAX_PASSWORD_BYTES} bytes")
    return _HASHER.hash(password)


def verify_password(password: str, stored: str | None) -> bool:
    """Whether ``password`` matches ``stored``; a malformed hash never matches.

    Without a stored hash the password is checked against a decoy, so the answer takes
    as long as for a real user.
    """
    if is_too_long(password):
        return False
    try:
        return _HASHER.verify(stored or _DECOY, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    """Whether ``stored`` was made with weaker parameters than today's."""
    try:
        return _HASHER.check_needs_rehash(stored)
    except (InvalidHashError, ValueError):
        return True
