"""The login throttle: a step of ``PANEL["auth"]["pipelines"]``, before the login.

Each login counts against its username and the client's address before the password
is checked, in the database, so every worker and machine shares the count. Past
LOGIN_MAX_ATTEMPTS within LOGIN_LOCKOUT seconds, logins are refused with 429 and
``Retry-After`` until the window ends, even with the right password; a successful
login clears the count. The address is ``REMOTE_ADDR``, the connection's: behind a
proxy, have it set from the proxy's ``X-Forwarded-For`` (``uvicorn --proxy-headers``,
or a middleware of yours under gunicorn), or every client shares one count.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from panel_core.accounts import attempt_key
from panel_core.errors import TooManyRequests

from .auth_state import clear_attempts, count_attempt

if TYPE_CHECKING:
    from .login import Credentials, Next


class LoginThrottle:
    """Refuses logins past the limit; passes the others on."""

    def __call__(
        self, request: HttpRequest, credentials: Credentials, call_next: Next
    ) -> HttpResponse:
        """429 past the limit; else the next step's answer (success clears)."""
        key = attempt_key(credentials.username, request.META.get("REMOTE_ADDR", ""))
        attempts, wait = count_attempt(
            key, window=settings.LOGIN_LOCKOUT, now=int(time.time())
        )
        if attempts > settings.LOGIN_MAX_ATTEMPTS:
            raise TooManyRequests(wait)
        response = call_next(request, credentials)
        if response.status_code < 400:
            clear_attempts(key)
        return response
