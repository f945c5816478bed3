"""JWT_SECRET and JWT_SECRET_PREVIOUS as the tokens' keys (JWT mode).

Issuing and verifying tokens is the kernel's (``panel_core.tokens``); this module
reads the secrets from the settings and refuses unusable ones with
``ImproperlyConfigured``, whose message never shows a secret.
"""

from __future__ import annotations

from functools import lru_cache

from django.conf import settings
from django.core.exceptions import ImproperlyConfigured

from panel_core.tokens import SecretError, TokenKeys, load_keys

HOW = "Make one with: python manage.py jwt_secret"


@lru_cache(maxsize=4)
def _keys(current: str, previous: str) -> TokenKeys:
    return load_keys(current, previous or None, how=HOW)


def token_keys() -> TokenKeys:
    """The keys of settings JWT_SECRET and JWT_SECRET_PREVIOUS (an empty one: unset)."""
    try:
        return _keys(settings.JWT_SECRET or "", settings.JWT_SECRET_PREVIOUS or "")
    except SecretError as exc:
        raise ImproperlyConfigured(str(exc)) from None
