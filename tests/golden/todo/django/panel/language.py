"""The language of each request's pages and messages (``panel_core.translation``).

Like Django's ``LocaleMiddleware``, without its URL prefixes and cookies: the first
language of the browser's ``Accept-Language`` that settings ``LANGUAGES`` offers and
the panel has a catalog for, else ``LANGUAGE_CODE``.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse

from panel_core.translation import activate, deactivate, negotiate


def request_language(request: HttpRequest) -> str:
    """The language the panel answers ``request`` in."""
    offered = [code for code, _ in settings.LANGUAGES]
    header = request.META.get("HTTP_ACCEPT_LANGUAGE")
    return negotiate(header, offered, settings.LANGUAGE_CODE)


class PanelLanguageMiddleware:
    """Sets the panel's language for the request, and restores it after."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = activate(request_language(request))
        try:
            return self.get_response(request)
        finally:
            deactivate(token)
