"""Async methods: which names are callable, and the JSON their calls answer.

A resource (or a stand-alone page) lists its async methods in ``methods``; only those
names are callable over HTTP, whatever else the class defines. A method takes the
request and returns a dict (the JSON answer; ``messageType`` defaults to ``success``,
``message`` to the request's ``message`` parameter, else ``DONE``), ``None``, or a
response of the framework, which is sent as it is. A ``ValueError`` (Pydantic's
``ValidationError`` is one) or an ``InvalidInput`` answers 422 with ``failure``.

Each framework calls the method its own way (FastAPI awaits it or runs it in a thread;
Django calls it); the names and bodies come from here, so both answer alike.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

from .errors import InvalidInput, NotFound, summarize
from .translation import gettext, gettext_noop

DONE = gettext_noop("Done.")


def find_method(target: Any, name: str) -> Callable[..., Any]:
    """The async method ``name`` of ``target``; ``NotFound`` unless it is declared."""
    method = getattr(target, name, None) if name in type(target).methods else None
    if not callable(method):
        raise NotFound(gettext("Method %(name)r not found") % {"name": name})
    return method


def success(name: str, result: Any, message: str | None) -> dict[str, Any]:
    """The JSON answer of a method that returned ``result`` (a dict or ``None``)."""
    if result is None:
        result = {}
    if not isinstance(result, Mapping):
        raise TypeError(
            f"method {name!r} must return a dict, None or a response "
            f"(got {type(result).__name__})"
        )
    body = {"message": message or gettext(DONE), **result}
    body.setdefault("messageType", "success")
    return body


def failure(name: str, exc: ValueError | InvalidInput) -> dict[str, Any]:
    """The 422 answer of a method that raised ``exc``."""
    errors = _errors(name, exc)
    return {"message": summarize(errors), "errors": errors, "messageType": "error"}


def _errors(name: str, exc: ValueError | InvalidInput) -> dict[str, list[str]]:
    if isinstance(exc, InvalidInput):
        return exc.errors
    if isinstance(exc, ValidationError):
        found: dict[str, list[str]] = {}
        for error in exc.errors():
            key = ".".join(str(part) for part in error["loc"]) or name
            found.setdefault(key, []).append(error["msg"])
        return found
    return {name: [str(exc) or gettext("The method failed.")]}
