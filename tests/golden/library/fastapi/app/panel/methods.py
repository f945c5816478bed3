"""Async methods: ``/admin/method/<pageUri>/<resourceUri>?method=NAME`` calls one.

A method is one of the names the resource (or the stand-alone page) lists in
``methods``; nothing else is callable. It takes the request and returns a dict (the
JSON answer; ``messageType`` defaults to ``success``, ``message`` to the request's
``message`` parameter), ``None``, or a ``Response``, which is sent as it is. A
``ValueError`` (Pydantic's ``ValidationError`` is one) or an ``InvalidInput`` answers
422 ``{message, errors, messageType: "error"}``.
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping
from typing import Any

from fastapi import Request, Response
from pydantic import ValidationError
from starlette.concurrency import run_in_threadpool

from .errors import InvalidInput, NotFound, summarize
from .responses import json_response

DONE = "Done."


async def call_method(request: Request, target: Any, name: str) -> Response:
    """Call ``target``'s async method ``name`` and answer in JSON."""
    if name not in type(target).methods or not callable(getattr(target, name, None)):
        raise NotFound(f"Method {name!r} not found")
    method = getattr(target, name)
    try:
        if inspect.iscoroutinefunction(method):
            result = await method(request)
        else:
            result = await run_in_threadpool(method, request)
    except (ValueError, InvalidInput) as exc:
        errors = _errors(name, exc)
        body = {"message": summarize(errors), "errors": errors, "messageType": "error"}
        return json_response(body, status_code=422)
    if isinstance(result, Response):
        return result
    return json_response(_body(request, name, result))


def _body(request: Request, name: str, result: Any) -> dict[str, Any]:
    if result is None:
        result = {}
    if not isinstance(result, Mapping):
        raise TypeError(
            f"method {name!r} must return a dict, None or a Response "
            f"(got {type(result).__name__})"
        )
    body = {"message": request.query_params.get("message") or DONE, **result}
    body.setdefault("messageType", "success")
    return body


def _errors(name: str, exc: ValueError | InvalidInput) -> dict[str, list[str]]:
    if isinstance(exc, InvalidInput):
        return exc.errors
    if isinstance(exc, ValidationError):
        found: dict[str, list[str]] = {}
        for error in exc.errors():
            key = ".".join(str(part) for part in error["loc"]) or name
            found.setdefault(key, []).append(error["msg"])
        return found
    return {name: [str(exc) or "The method failed."]}
