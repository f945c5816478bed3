"""The panel's JSON answers, serialised with orjson straight into a response.

Records are plain dicts read with ``QuerySet.values()``; orjson writes dates, UUIDs
and datetimes itself (naive datetimes are UTC, as the database holds them), and
decimals as text (``"12.30"``, :mod:`panel_core.decimals`).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from django.http import HttpResponse

from panel_core import answers
from panel_core.decimals import json_default
from panel_core.versions import etag

_OPTIONS = orjson.OPT_NAIVE_UTC


def json_response(
    body: Any, *, status: int = 200, headers: Mapping[str, str] | None = None
) -> HttpResponse:
    """``body`` as ``application/json``, with its length (no chunked answers)."""
    content = orjson.dumps(body, default=json_default, option=_OPTIONS)
    response = HttpResponse(
        content, status=status, headers=headers, content_type="application/json"
    )
    response["Content-Length"] = str(len(content))
    return response


def record_response(
    record: Mapping[str, Any], body: Mapping[str, Any] | None = None
) -> HttpResponse:
    """One record, with its version as the ``ETag``; ``body``: what to answer
    instead (the record and more, such as its children's keys)."""
    return json_response(
        record if body is None else body, headers={"ETag": etag(record)}
    )


def saved_response(
    record: Mapping[str, Any],
    *,
    redirect: str,
    status: int = 200,
    location: str | None = None,
) -> HttpResponse:
    """The answer to a create or an update: a toast, the form page and the record
    (its version as the ``ETag``)."""
    headers = {"ETag": etag(record)}
    if location:
        headers["Location"] = location
    return json_response(
        answers.saved(record, redirect), status=status, headers=headers
    )


def deleted_response(deleted: int | None = None) -> HttpResponse:
    """The answer to a delete; mass deletes also say how many rows went."""
    return json_response(answers.deleted(deleted))
