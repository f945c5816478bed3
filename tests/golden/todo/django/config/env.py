"""Typed reads of the environment for the settings; a bad value names its variable."""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from typing import Any

from django.core.exceptions import ImproperlyConfigured

from panel_core.cors import parse_origins

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off", ""}


def env_str(name: str, default: str = "") -> str:
    """``$name``, or ``default`` when unset."""
    return os.environ.get(name, default)


def env_bool(name: str, default: bool = False) -> bool:
    """``$name`` as a boolean: 1/true/yes/on or 0/false/no/off."""
    value = os.environ.get(name)
    if value is None:
        return default
    if value.strip().lower() in _TRUE:
        return True
    if value.strip().lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false, not {value!r}")


def env_int(name: str, default: int, *, low: int = 0, high: int | None = None) -> int:
    """``$name`` as an integer between ``low`` and ``high``."""
    value = os.environ.get(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(
            f"{name} must be an integer, not {value!r}"
        ) from None
    if number < low or (high is not None and number > high):
        bounds = f"at least {low}" if high is None else f"between {low} and {high}"
        raise ImproperlyConfigured(f"{name} must be {bounds}, not {number}")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    """``$name`` as a comma-separated list."""
    value = os.environ.get(name)
    if value is None:
        return list(default)
    return [item.strip() for item in value.split(",") if item.strip()]


def env_origins(name: str) -> list[str]:
    """``$name`` as a comma-separated list of exact origins (CORS)."""
    try:
        return list(parse_origins(os.environ.get(name, "")))
    except ValueError as exc:
        raise ImproperlyConfigured(str(exc)) from exc


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """``$name``, which must be one of ``choices``."""
    value = os.environ.get(name, default)
    if value not in choices:
        raise ImproperlyConfigured(
            f"{name} must be one of {', '.join(choices)}, not {value!r}"
        )
    return value


def panel_from_env(default: Mapping[str, Any]) -> dict[str, Any]:
    """The ``PANEL`` setting: ``default``, replaced by ``$PANEL`` (JSON), then with
    single values set by ``PANEL__MIDDLEWARE`` (JSON list), ``PANEL__AUTH__MIDDLEWARE``
    (an import path) and ``PANEL__AUTH__PIPELINES`` (JSON list)."""
    panel = copy.deepcopy(dict(default))
    if "PANEL" in os.environ:
        panel = _json("PANEL", dict)
    auth = panel.setdefault("auth", {})
    if "PANEL__MIDDLEWARE" in os.environ:
        panel["middleware"] = _json("PANEL__MIDDLEWARE", list)
    if "PANEL__AUTH__MIDDLEWARE" in os.environ:
        auth["middleware"] = os.environ["PANEL__AUTH__MIDDLEWARE"]
    if "PANEL__AUTH__PIPELINES" in os.environ:
        auth["pipelines"] = _json("PANEL__AUTH__PIPELINES", list)
    missing = [
        key
        for key, present in (
            ("middleware", "middleware" in panel),
            ("auth.middleware", "middleware" in auth),
            ("auth.pipelines", "pipelines" in auth),
        )
        if not present
    ]
    if missing:
        raise ImproperlyConfigured(f"PANEL lacks {', '.join(missing)}")
    return panel


def _json(name: str, kind: type) -> Any:
    try:
        value = json.loads(os.environ[name])
    except json.JSONDecodeError as exc:
        raise ImproperlyConfigured(f"{name} is not valid JSON: {exc}") from None
    if not isinstance(value, kind):
        raise ImproperlyConfigured(f"{name} must be a JSON {kind.__name__}")
    return value
