"""JWT_SECRET and JWT_SECRET_PREVIOUS as the tokens' keys (JWT mode).

Issuing and verifying tokens is the kernel's (``panel_core.tokens``); this module
reads the secrets from the settings and refuses unusable ones.
"""

from __future__ import annotations

from pydantic import SecretStr

from app.core.config import ConfigurationError, Settings
from panel_core.tokens import SecretError, TokenKeys, load_keys

_HOW = "Make one with: python -m app jwt:secret"


def _reveal(value: SecretStr | None) -> str | None:
    return None if value is None else value.get_secret_value()


def token_keys(settings: Settings) -> TokenKeys:
    """The keys of JWT_SECRET and JWT_SECRET_PREVIOUS; refuses unusable secrets.

    The error message never contains a secret.
    """
    try:
        return load_keys(
            _reveal(settings.jwt_secret),
            _reveal(settings.jwt_secret_previous),
            how=_HOW,
        )
    except SecretError as exc:
        raise ConfigurationError(str(exc)) from None
