"""The panel's configured parts, built from settings ``panel`` (import paths).

``panel.middleware`` lists the session stack (session, then CSRF); the middleware
every panel has (security headers, the request's language, CORS when ``CORS_ORIGINS`` lists origins, HEAD and
OPTIONS, form method override) goes around it.
``panel.auth.middleware`` is the class ``authenticated`` asks; ``panel.auth.pipelines``
are the steps of ``POST /admin/authenticate``. Any of these classes may have a static
``check_settings(settings)``: when it raises ``ConfigurationError`` (no SECRET_KEY for
sessions, no usable JWT_SECRET for tokens…), the panel refuses to start.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from fastapi import FastAPI
from starlette.middleware import Middleware

from app.core.config import Settings

from .cors import CorsMiddleware
from .formdata import FormMiddleware
from .headers import SecurityHeadersMiddleware
from .http_methods import HttpMethodsMiddleware
from .jwt_auth import JWTAuthentication
from .language import LanguageMiddleware
from .login import login_pipeline
from .sessions import SessionMiddleware, signing_key


def import_string(path: str) -> Any:
    """The object at ``"package.module.Name"``."""
    module, _, name = path.rpartition(".")
    try:
        return getattr(import_module(module), name)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ImportError(f"cannot import {path!r} (panel settings): {exc}") from exc


def panel_middleware(settings: Settings) -> list[Middleware]:
    """The middleware of the panel, outermost first."""
    configured = [import_string(path) for path in settings.panel.middleware]
    cors = [CorsMiddleware] if settings.cors_origins.strip() else []
    classes = [
        SecurityHeadersMiddleware,
        LanguageMiddleware,
        *cors,
        HttpMethodsMiddleware,
        FormMiddleware,
        *configured,
    ]
    return [Middleware(cls, settings=settings) for cls in classes]


def _configured(settings: Settings) -> list[Any]:
    auth = settings.panel.auth
    paths = [*settings.panel.middleware, auth.middleware, *auth.pipelines]
    return [import_string(path) for path in paths]


def check_settings(settings: Settings) -> None:
    """Raise ``ConfigurationError`` when a configured part cannot work with these."""
    for part in _configured(settings):
        check = getattr(part, "check_settings", None)
        if check is not None:
            check(settings)


def _is_a(path: str, base: type) -> bool:
    found = import_string(path)
    return isinstance(found, type) and issubclass(found, base)


def uses_sessions(settings: Settings) -> bool:
    """Whether the panel keeps sessions (and so signs cookies with SECRET_KEY)."""
    return any(_is_a(path, SessionMiddleware) for path in settings.panel.middleware)


def uses_jwt(settings: Settings) -> bool:
    """Whether requests are authenticated by bearer tokens (JWT mode)."""
    return _is_a(settings.panel.auth.middleware, JWTAuthentication)


def configure_auth(app: FastAPI, settings: Settings) -> None:
    """Set up the signing key, the authentication class and the login steps."""
    auth = settings.panel.auth
    app.state.signing_key = signing_key(settings) if uses_sessions(settings) else None
    app.state.authentication = import_string(auth.middleware)(settings)
    steps = [import_string(path)(settings) for path in auth.pipelines]
    app.state.login_pipeline = login_pipeline(steps)
