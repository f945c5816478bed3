"""The panel's system checks: settings it cannot work with keep it from starting.

``manage.py`` runs them before the commands that need the settings (``runserver``,
``migrate``, ``check``…); ``config/wsgi.py`` and ``config/asgi.py`` run them before
gunicorn or uvicorn serve anything (``application_or_exit``), so a missing secret is
one clear line, not a traceback nor a 500 at the first request.

- ``panel.E001``/``E002``: SECRET_KEY missing (and DEBUG off) or under 32 characters.
- ``panel.E003``: ``PANEL`` names a class that cannot be imported.
- ``panel.E004``: a configured class refuses the settings: each class in ``PANEL``
  (middleware, ``auth.middleware``, ``auth.pipelines``) may have a static
  ``check_settings()`` raising ``ImproperlyConfigured`` (JWT mode: no usable
  JWT_SECRET).
- ``panel.E005``: the panel's URLs are mounted where they cannot be served: not in
  ``ROOT_URLCONF``, under a pattern with parameters, at the site's root or with a
  trailing slash (``panel.mount``). Any other prefix works: links, redirects and
  OpenAPI paths follow the mount.

The registry of resources is built by a check too (a bad declaration fails at
start-up), not in ``ready()``: building it needs the panel's mount, hence the URLconf.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any, NoReturn, TypeVar

import django
from django.conf import settings
from django.core import checks
from django.core.exceptions import ImproperlyConfigured
from django.utils.module_loading import import_string

TAG = "panel"
MIN_SECRET_KEY_LENGTH = 32
# gunicorn stops (rather than start workers again and again) when one exits with 4.
EXIT_APP_LOAD_ERROR = 4
_MAKE_KEY = "python -c 'import secrets; print(secrets.token_urlsafe(32))'"

Application = TypeVar("Application")


def _secret_key() -> str:
    try:
        return str(settings.SECRET_KEY)
    except ImproperlyConfigured:  # Django refuses to read an empty one
        return ""


def check_secret_key(**kwargs: Any) -> list[checks.CheckMessage]:
    """SECRET_KEY signs sessions and CSRF tokens: at least 32 characters."""
    key = _secret_key()
    if not key:
        return [
            checks.Error(
                "SECRET_KEY is not set.",
                hint=f"Generate one with: {_MAKE_KEY} (or set DEBUG=1 while developing)",
                id="panel.E001",
            )
        ]
    if len(key) < MIN_SECRET_KEY_LENGTH:
        return [
            checks.Error(
                f"SECRET_KEY must be at least {MIN_SECRET_KEY_LENGTH} characters.",
                hint=f"Generate one with: {_MAKE_KEY}",
                id="panel.E002",
            )
        ]
    return []


def _configured_paths() -> list[str]:
    panel = settings.PANEL
    auth = panel["auth"]
    return [*panel["middleware"], auth["middleware"], *auth["pipelines"]]


def check_panel_classes(**kwargs: Any) -> list[checks.CheckMessage]:
    """Every class ``PANEL`` names imports, and accepts the settings."""
    errors: list[checks.CheckMessage] = []
    for path in dict.fromkeys(_configured_paths()):
        try:
            part = import_string(path)
        except ImportError as exc:
            message = f"PANEL names {path!r}, which cannot be imported: {exc}"
            errors.append(checks.Error(message, id="panel.E003"))
            continue
        check = getattr(part, "check_settings", None)
        try:
            if check is not None:
                check()
        except ImproperlyConfigured as exc:
            error = checks.Error(str(exc), obj=path, id="panel.E004")
            if all(str(exc) != known.msg for known in errors):
                errors.append(error)
    return errors


def check_mount(**kwargs: Any) -> list[checks.CheckMessage]:
    """The panel's URLs are mounted where the panel can serve them."""
    from .mount import MountError, mounted_prefix

    try:
        mounted_prefix()
    except MountError as exc:
        return [checks.Error(exc.message, hint=exc.hint, id="panel.E005")]
    return []


def check_registry(**kwargs: Any) -> list[checks.CheckMessage]:
    """Build the registry at start-up, so a bad declaration fails there."""
    from .registry import registry

    registry()
    return []


def register() -> None:
    """Register the panel's checks (from ``PanelConfig.ready``)."""
    checks.register(check_secret_key, TAG)
    checks.register(check_panel_classes, TAG)
    checks.register(check_mount, TAG)
    checks.register(check_registry, TAG)


def problems() -> list[str]:
    """What the panel's checks refuse, one line each (hint included)."""
    found = checks.run_checks(tags=[TAG])
    return [
        f"{message.msg} {message.hint}" if message.hint else message.msg
        for message in found
        if message.is_serious()
    ]


def _refuse(lines: list[str]) -> NoReturn:
    for line in lines:
        print(f"error: {line}", file=sys.stderr)
    raise SystemExit(EXIT_APP_LOAD_ERROR)


def application_or_exit(build: Callable[[], Application]) -> Application:
    """``build()`` (Django's WSGI or ASGI application), or exit saying what is wrong.

    Settings Django refuses to load, and the panel's checks, end the process with
    one ``error:`` line each on stderr instead of a traceback, before ``build()``
    loads the middleware and anything else.
    """
    try:
        django.setup(set_prefix=False)
        refused = problems()
    except ImproperlyConfigured as exc:
        refused = [str(exc)]
    if refused:
        _refuse(refused)
    from .not_migrated import warn_if_not_migrated
    from .unavailable import check_database

    # Start anyway: the database may come up later, ``manage.py migrate`` follow.
    if check_database():  # else an error naming the database and the problem
        warn_if_not_migrated()  # pending migrations: a warning naming the command
    return build()
