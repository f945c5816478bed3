"""The security headers Django's own middleware does not add.

Django's ``SecurityMiddleware`` (nosniff, ``Referrer-Policy``, HSTS over https) and
``XFrameOptionsMiddleware`` (``DENY``) add the rest, as settings say. Everything but
the static files is ``no-store``: pages show private data and carry a CSRF token.
Cookies set over https (``request.is_secure()``: gunicorn trusts ``X-Forwarded-Proto``
from its ``--forwarded-allow-ips``) are ``Secure``, as the FastAPI panels' are, even
without ``SESSION_COOKIE_SECURE``: a session started over https never travels over
plain http.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse


class NoStoreMiddleware:
    """``Cache-Control: no-store`` on every answer but static files (unless set)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        self.static = settings.STATIC_URL

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if not request.path.startswith(self.static) and not response.has_header(
            "Cache-Control"
        ):
            response["Cache-Control"] = "no-store"
        return response


class SecureCookiesMiddleware:
    """Marks every cookie of an answer over https ``Secure``."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if request.is_secure():
            for cookie in response.cookies.values():
                cookie["secure"] = True
        return response
