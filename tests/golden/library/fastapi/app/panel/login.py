"""Logging in and out: the login page, ``POST /admin/authenticate``, the logout.

``authenticate`` reads the credentials (JSON ``{"username", "password"}`` or the login
form), then runs the steps of settings ``panel.auth.pipelines`` in order. Each step is
a class built with the settings; calling it with the request, the credentials and the
next step returns the answer, itself or by passing on (a throttle, a JWT issuer…).
``SessionLogin``, the default, checks the credentials and starts a session.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol

from fastapi import APIRouter, Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from app.core.config import Settings
from app.core.users import check_credentials
from panel_core.accounts import FAILED
from panel_core.credentials import Credentials, login_page_context, parse_credentials
from panel_core.translation import gettext

from .accept import wants_json, wants_page_json
from .auth import Authentication, login
from .bodies import read_body
from .csrf import CSRFMismatch, valid_token
from .errors import InvalidInput
from .formdata import form_value, is_form_submission
from .guards import PANEL_GUARDS
from .redirects import safe_path, see_other
from .responses import json_response
from .templating import render
from .urls import login_url

Next = Callable[[Request, Credentials], Awaitable[Response]]


class LoginStep(Protocol):
    """One step of ``panel.auth.pipelines``: a class built with the settings."""

    def __init__(self, settings: Settings) -> None: ...

    async def __call__(
        self, request: Request, credentials: Credentials, call_next: Next
    ) -> Response:
        """Answer the login, or return ``await call_next(request, credentials)``."""
        ...


def login_pipeline(steps: Sequence[LoginStep]) -> Next:
    """The steps chained in order; a login no step accepts fails."""

    async def refuse(request: Request, credentials: Credentials) -> Response:
        raise InvalidInput({"username": [gettext(FAILED)]})

    handler: Next = refuse
    for step in reversed(steps):
        handler = _bind(step, handler)
    return handler


def _bind(step: LoginStep, call_next: Next) -> Next:
    async def run(request: Request, credentials: Credentials) -> Response:
        return await step(request, credentials, call_next)

    return run


class SessionLogin:
    """Checks the credentials against ``panel_users`` and starts a session."""

    def __init__(self, settings: Settings) -> None:
        del settings

    async def __call__(
        self, request: Request, credentials: Credentials, call_next: Next
    ) -> Response:
        """Log in (200 with the CSRF token for JSON, a 303 for the form), or 422."""
        del call_next
        if is_form_submission(request) and not valid_token(request):
            raise CSRFMismatch()
        engine: Engine = request.app.state.engine
        user = await run_in_threadpool(
            check_credentials, engine, credentials.username, credentials.password
        )
        if user is None:
            raise InvalidInput({"username": [gettext(FAILED)]})
        token = login(request, user)
        if wants_page_json(request) or not is_form_submission(request):
            return json_response({"message": "Authenticated.", "csrf_token": token})
        return see_other(safe_path(credentials.next))


async def read_credentials(request: Request) -> Credentials:
    """The username and password sent as JSON or as the login form; else 422."""
    limit = request.app.state.settings.max_body_size
    return parse_credentials(await read_body(request, limit))


router = APIRouter(include_in_schema=False)


def _login_page(
    request: Request,
    *,
    next_path: str | None,
    errors: dict[str, list[str]] | None = None,
    username: str = "",
    status_code: int = 200,
) -> Response:
    context = login_page_context(next_path, errors, username)
    return render(request, "panel/login.html", context, status_code=status_code)


@router.get("/login", name="login")
async def login_page(request: Request) -> Response:
    """The login form."""
    return _login_page(request, next_path=request.query_params.get("next"))


@router.post("/authenticate", name="authenticate")
async def authenticate(request: Request) -> Response:
    """Log in with ``username`` (the e-mail address) and ``password``."""
    try:
        credentials = await read_credentials(request)
        pipeline: Next = request.app.state.login_pipeline
        return await pipeline(request, credentials)
    except InvalidInput as exc:
        if wants_page_json(request) or not is_form_submission(request):
            raise
        return _login_page(
            request,
            next_path=form_value(request, "next"),
            errors=exc.errors,
            username=form_value(request, "username") or "",
            status_code=422,
        )


@router.api_route(
    "/logout", methods=["POST", "DELETE"], name="logout", dependencies=PANEL_GUARDS
)
async def logout_route(request: Request) -> Response:
    """End the session, or revoke the bearer token."""
    authentication: Authentication = request.app.state.authentication
    await authentication.logout(request)
    if wants_json(request) or authentication.challenge:  # tokens: no login page
        return json_response({"message": "Logged out."})
    return see_other(login_url())
