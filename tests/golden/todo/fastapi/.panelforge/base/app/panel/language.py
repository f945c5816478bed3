"""The language of each request's pages and messages (``panel_core.translation``).

The first language of the browser's ``Accept-Language`` that settings
``panel_languages`` offers (empty: every language with a catalog), else
``panel_language`` (``PANEL_LANGUAGE``, English by default).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Receive, Scope, Send

from app.core.config import Settings
from panel_core.translation import (
    activate,
    available_languages,
    deactivate,
    negotiate,
)


def offered_languages(settings: Settings) -> list[str]:
    """The languages a browser may ask for: settings ``panel_languages``, or all."""
    listed = [code.strip() for code in settings.panel_languages.split(",")]
    return [code for code in listed if code] or list(available_languages())


def _accept_language(scope: Scope) -> str | None:
    """The request's ``Accept-Language`` (the first, as browsers send one)."""
    for name, value in scope["headers"]:
        if name == b"accept-language":
            return str(value.decode("latin-1"))
    return None


class LanguageMiddleware:
    """Sets the panel's language for the request, and restores it after."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.offered = offered_languages(settings)
        self.default = settings.panel_language

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        header = _accept_language(scope)
        token = activate(negotiate(header, self.offered, self.default))
        try:
            await self.app(scope, receive, send)
        finally:
            deactivate(token)
