"""Password hashing: Argon2id at OWASP's cost, and checks that take as long for anyone.

``PanelArgon2PasswordHasher`` (first in settings ``PASSWORD_HASHERS``) hashes with
the parameters panelforge's FastAPI panels use (m=19456 KiB, t=2, p=1) rather than
Django's heavier defaults; hashes carry their parameters, so Django upgrades weaker
ones at the next login. ``verify_password`` checks a password against a decoy hash
when there is no usable one, so a login as nobody costs what a wrong password costs.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import cache

from django.contrib.auth.hashers import (
    Argon2PasswordHasher,
    check_password,
    is_password_usable,
    make_password,
)

from panel_core.passwords import is_too_long


class PanelArgon2PasswordHasher(Argon2PasswordHasher):
    """Argon2id with OWASP's recommended minimum cost (the FastAPI panels' too)."""

    time_cost = 2
    memory_cost = 19456
    parallelism = 1


@cache
def _decoy() -> str:
    """A hash of a random password, made once per process by the current hasher."""
    return make_password(secrets.token_urlsafe(24))


def verify_password(
    password: str, stored: str | None, setter: Callable[[str], None] | None = None
) -> bool:
    """Whether ``password`` matches ``stored``; exactly one hash check either way.

    ``setter`` stores a new hash when ``stored`` was made with weaker parameters.
    """
    if is_too_long(password):
        return False
    if stored is None or not is_password_usable(stored):
        check_password(password, _decoy())
        return False
    return check_password(password, stored, setter)
