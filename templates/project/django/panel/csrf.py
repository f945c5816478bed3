"""Django's CSRF check, speaking the panel's protocol (the FastAPI panels' too).

Every POST, PUT, PATCH and DELETE of a logged-in session sends the token the session
holds (``CSRF_USE_SESSIONS``), in an ``X-CSRF-Token`` header (``CSRF_HEADER_NAME``:
scripts, JSON clients) or a ``_token`` form field (HTML forms; Django's own
``csrfmiddlewaretoken`` works too); otherwise the answer is 403 "CSRF token
mismatch." (``CSRF_FAILURE_VIEW``). Async methods (``/admin/method/…``) need it on
every HTTP method, GET included. Pages carry the token in ``<meta name="csrf-token">``;
``POST /admin/authenticate`` returns it to JSON clients.

Requests without a logged-in session pass: every route but the login needs one, so
they are refused 401 there. The login form is checked (no login CSRF), but a JSON login
needs no token, since no other site can send JSON without a CORS preflight.

A multipart form (the CSV upload of the index page) carries ``_token`` too: Django
parses it (up to ``PANEL_MAX_IMPORT_SIZE`` bytes, 413 beyond) and the view reads the
file it kept. A record's create or update with files is read by the kernel's reader
instead (``panel.files.upload_of``: 413 as it streams), and its ``_token`` taken
from there.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.contrib.auth import SESSION_KEY
from django.http import HttpRequest, HttpResponse
from django.http.multipartparser import MultiPartParserError
from django.middleware.csrf import CsrfViewMiddleware, RejectRequest

from panel_core.errors import (
    InvalidInput,
    NotFound,
    PayloadTooLarge,
    UnsupportedMediaType,
)
from panel_core.imports import MULTIPART
from panel_core.inputs import body_kind
from panel_core.uploads import MultipartReader

from .bodies import dechunk, form_value, media_type
from .current import panel_route
from .errors import error_response
from .files import upload_of
from .formdata import is_form_submission

# The panel's form field, and Django's.
FIELDS = ("_token", "csrfmiddlewaretoken")
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})
# Async methods may change data whatever the HTTP method.
ALWAYS_CHECKED = frozenset({"method"})


def logged_in(request: HttpRequest) -> bool:
    """Whether the request's session belongs to a user (without loading the user)."""
    session = getattr(request, "session", None)
    return session is not None and SESSION_KEY in session


class PanelCsrfMiddleware(CsrfViewMiddleware):
    """``CsrfViewMiddleware`` with the panel's field, header and rules."""

    def process_view(
        self,
        request: HttpRequest,
        callback: Callable[..., HttpResponse],
        callback_args: tuple[Any, ...],
        callback_kwargs: dict[str, Any],
    ) -> HttpResponse | None:
        """Check logged-in sessions (and login forms); let the rest through."""
        route = panel_route(request)
        login_form = route == "authenticate" and is_form_submission(request)
        if not logged_in(request) and not login_form:
            return self._accept(request)
        try:
            _check_body(request)  # before Django's check parses it
        except (PayloadTooLarge, UnsupportedMediaType, InvalidInput) as exc:
            return error_response(request, exc)
        if route in ALWAYS_CHECKED and request.method in SAFE_METHODS:
            if getattr(request, "_dont_enforce_csrf_checks", False):  # test clients
                return self._accept(request)
            try:
                self._check_token(request)
            except RejectRequest as exc:
                return self._reject(request, exc.reason)
            return self._accept(request)
        return super().process_view(request, callback, callback_args, callback_kwargs)

    def _check_token(self, request: HttpRequest) -> None:
        # A form's field is read as the header would be (Django reads its own field
        # only from POSTs, not from forms ``_method`` turned into a DELETE).
        if settings.CSRF_HEADER_NAME not in request.META:
            token = next(filter(None, (_form_token(request, f) for f in FIELDS)), None)
            if token:
                request.META[settings.CSRF_HEADER_NAME] = token
        super()._check_token(request)


def _is_upload(request: HttpRequest) -> bool:
    return request.method == "POST" and media_type(request) == MULTIPART


# The routes of a record's create and update, as Django resolves their paths.
_RECORD_WRITES = frozenset({"crud.index", "crud.store", "crud.show", "crud.update"})


def _record_files(request: HttpRequest) -> MultipartReader | None:
    """The multipart body of a create or an update with files, read by the kernel
    (``panel.files``), not by Django's parser."""
    match = request.resolver_match
    if match is None or match.url_name not in _RECORD_WRITES:
        return None
    if request.method not in ("POST", "PUT", "PATCH"):
        return None
    uri = match.kwargs.get("resourceUri")
    try:
        return upload_of(request, uri) if uri else None
    except NotFound:
        return None


def _check_body(request: HttpRequest) -> None:
    """415 for a form in another charset than UTF-8, 413 for a multipart body over
    ``PANEL_MAX_IMPORT_SIZE``: what Django's form parser must not read."""
    if is_form_submission(request):
        body_kind(request.META.get("CONTENT_TYPE"), has_body=True)
    if _record_files(request) is not None or not _is_upload(request):
        return
    limit: int = settings.PANEL_MAX_IMPORT_SIZE
    dechunk(request, limit)
    declared = request.META.get("CONTENT_LENGTH", "")
    if declared.isdigit() and int(declared) > limit:
        raise PayloadTooLarge(f"The request body must not exceed {limit} bytes.")


def _form_token(request: HttpRequest, name: str) -> str | None:
    """Field ``name`` of the urlencoded form, or of the multipart form, if sent."""
    files = _record_files(request)
    if files is not None:
        return next((v for k, v in reversed(files.pairs) if k == name), None)
    if not _is_upload(request):
        return form_value(request, name)
    try:
        value = request.POST.get(name)
    except MultiPartParserError:
        return None
    return value if isinstance(value, str) else None
