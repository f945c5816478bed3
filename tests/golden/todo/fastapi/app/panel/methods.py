"""Async methods: ``/admin/method/<pageUri>/<resourceUri>?method=NAME`` calls one.

Which names are callable and what their calls answer is the kernel's
(``panel_core.methods``, shared with the Django panels); here a method is awaited,
or run in the thread pool when it is a plain function, and its answer sent. A
``Response`` it returns is sent as it is.
"""

from __future__ import annotations

import inspect
from typing import Any

from fastapi import Request, Response
from starlette.concurrency import run_in_threadpool

from panel_core.methods import failure, find_method, success

from .errors import InvalidInput
from .responses import json_response


async def call_method(request: Request, target: Any, name: str) -> Response:
    """Call ``target``'s async method ``name`` and answer in JSON."""
    method = find_method(target, name)
    try:
        if inspect.iscoroutinefunction(method):
            result = await method(request)
        else:
            result = await run_in_threadpool(method, request)
    except (ValueError, InvalidInput) as exc:
        return json_response(failure(name, exc), status_code=422)
    if isinstance(result, Response):
        return result
    message = request.query_params.get("message")
    return json_response(success(name, result, message))
