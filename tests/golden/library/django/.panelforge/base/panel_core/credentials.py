"""What a login sends, checked the same way in both frameworks.

``POST /admin/authenticate`` takes JSON ``{"username", "password"}`` or the login
form (which may also carry ``next``, where to go afterwards). Each framework reads the
body (``inputs.Body``) and runs its login steps on the ``Credentials`` read here; the
login page's context comes from here too, so both show the same form.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson

from .accounts import FAILED
from .errors import InvalidInput
from .inputs import Body
from .passwords import MAX_PASSWORD_BYTES, is_too_long
from .translation import gettext
from .urls import safe_path

_MAX_USERNAME = 254


@dataclass(frozen=True)
class Credentials:
    """What a login sends; ``next`` is where a form login goes afterwards."""

    username: str
    password: str
    next: str | None = None


def _check(username: Any, password: Any) -> Credentials:
    errors: dict[str, list[str]] = {}
    if not isinstance(username, str) or not username.strip():
        errors["username"] = [gettext("The username field is required.")]
    elif len(username) > _MAX_USERNAME:
        errors["username"] = [gettext(FAILED)]
    if not isinstance(password, str) or not password:
        errors["password"] = [gettext("The password field is required.")]
    elif is_too_long(password):
        message = gettext("The password must not be greater than %(limit)s bytes.")
        errors["password"] = [message % {"limit": MAX_PASSWORD_BYTES}]
    if errors:
        raise InvalidInput(errors)
    return Credentials(str(username), str(password))


def parse_credentials(body: Body) -> Credentials:
    """The username and password of a JSON body or of the login form; else 422."""
    if isinstance(body, list):
        fields = dict(body)
        credentials = _check(fields.get("username"), fields.get("password"))
        return Credentials(
            credentials.username, credentials.password, fields.get("next")
        )
    try:
        data = orjson.loads(body or b"{}")
    except orjson.JSONDecodeError:
        message = gettext("The request body is not valid JSON.")
        raise InvalidInput({"body": [message]}) from None
    if not isinstance(data, dict):
        message = gettext("The request body must be a JSON object.")
        raise InvalidInput({"body": [message]})
    return _check(data.get("username"), data.get("password"))


def login_page_context(
    next_path: str | None,
    errors: Mapping[str, Sequence[str]] | None = None,
    username: str = "",
) -> dict[str, Any]:
    """The login form's context: errors, the username to keep, a safe ``next``."""
    return {
        "errors": errors or {},
        "username": username,
        "next": safe_path(next_path, ""),
    }
