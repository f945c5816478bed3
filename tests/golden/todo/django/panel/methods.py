"""Async methods: ``/admin/method/<pageUri>/<resourceUri>?method=NAME`` calls one.

Which names are callable and what their calls answer is the kernel's
(``panel_core.methods``, shared with the FastAPI panels): only the names a resource
or a page lists in ``methods``. A method is a plain method of your resource or page
class taking the request::

    def publish(self, request: HttpRequest) -> dict[str, Any]:
        return {"message": "Published.", "messageType": "success"}

It may return ``None`` (the answer is the request's ``message`` parameter, else
"Done.") or a response (``HttpResponse``, ``FileResponse``…), sent as it is; a
``ValueError`` answers 422 with its message. An ``async def`` method works too: it
runs to completion within the request.
"""

from __future__ import annotations

import inspect
from typing import Any

from asgiref.sync import async_to_sync
from django.http import HttpRequest
from django.http.response import HttpResponseBase

from panel_core.errors import InvalidInput
from panel_core.methods import failure, find_method, success

from .responses import json_response


def call_method(request: HttpRequest, target: Any, name: str) -> HttpResponseBase:
    """Call ``target``'s async method ``name`` and answer in JSON."""
    method = find_method(target, name)
    if inspect.iscoroutinefunction(method):
        method = async_to_sync(method)
    try:
        result = method(request)
    except (ValueError, InvalidInput) as exc:
        return json_response(failure(name, exc), status=422)
    if isinstance(result, HttpResponseBase):
        return result
    return json_response(success(name, result, request.GET.get("message")))
