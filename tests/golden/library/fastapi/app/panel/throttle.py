"""The login throttle: a step of ``panel.auth.pipelines``, before the one that logs in.

Each login counts against its username and the client's address before the password
is checked, in the database, so every worker and machine shares the count. Past
LOGIN_MAX_ATTEMPTS within LOGIN_LOCKOUT seconds, logins are refused with 429 and
``Retry-After`` until the window ends, even with the right password; a successful
login clears the count. The address is the connection's: behind a proxy, have the
server take it from ``X-Forwarded-For`` (``uvicorn --proxy-headers``).
"""

from __future__ import annotations

import time

from fastapi import Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from app.core.auth_state import clear_attempts, count_attempt
from app.core.config import Settings
from panel_core.accounts import attempt_key

from .errors import TooManyRequests
from .login import Credentials, Next


class LoginThrottle:
    """Refuses logins past the limit; passes the others on."""

    def __init__(self, settings: Settings) -> None:
        self.limit = settings.login_max_attempts
        self.window = settings.login_lockout

    async def __call__(
        self, request: Request, credentials: Credentials, call_next: Next
    ) -> Response:
        """429 past the limit; else the next step's answer (success clears)."""
        engine: Engine = request.app.state.engine
        address = request.client.host if request.client else ""
        key = attempt_key(credentials.username, address)
        attempts, wait = await run_in_threadpool(
            count_attempt, engine, key, window=self.window, now=int(time.time())
        )
        if attempts > self.limit:
            raise TooManyRequests(wait)
        response = await call_next(request, credentials)
        if response.status_code < 400:
            await run_in_threadpool(clear_attempts, engine, key)
        return response
