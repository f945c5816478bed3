"""Content negotiation (RFC 9110 §12.5.1): JSON or a page, by the ``Accept`` q-values.

The API (the crud routes, the login and the logout) answers JSON unless the client
prefers ``text/html`` (a browser, a panel form): ``*/*``, no ``Accept`` at all, and
``application/json`` all get JSON, and ``application/json;q=0, text/html`` gets the
page. A client that accepts neither is refused with 406 before anything is done.
Every other URL (pages, their actions, their errors) answers HTML unless the client
names JSON and ranks it at least as high as HTML (then pages answer 406, naming the
API).
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Literal

Answer = Literal["json", "html"]
# The API's URLs, wherever the panel is mounted.
_API_PATH = re.compile(
    r"/resource/[^/]+/crud(?:/[^/]*(?:/(?:restore|force))?|/actions/[^/]+)?/?$"
    r"|/(?:authenticate|logout)/?$"
)


def _ranges(accept: str) -> list[tuple[str, str, float]]:
    """Each media range of ``accept`` as (type, subtype, q); malformed ones skipped."""
    found = []
    for item in accept.split(","):
        media, *parameters = item.split(";")
        kind, slash, subtype = media.strip().lower().partition("/")
        if not slash or not kind or not subtype:
            continue
        q = 1.0
        for parameter in parameters:
            name, _, value = parameter.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = min(max(float(value.strip()), 0.0), 1.0)
                except ValueError:
                    q = 0.0
        found.append((kind, subtype, q))
    return found


def _quality(ranges: list[tuple[str, str, float]], kind: str, subtype: str) -> float:
    """The q of ``kind/subtype``: that of the most specific range matching it."""
    best, specificity = 0.0, -1
    for range_kind, range_subtype, q in ranges:
        if (range_kind, range_subtype) == (kind, subtype):
            rank = 2
        elif range_kind == kind and range_subtype == "*":
            rank = 1
        elif (range_kind, range_subtype) == ("*", "*"):
            rank = 0
        else:
            continue
        if rank > specificity:
            best, specificity = q, rank
    return best


@lru_cache(maxsize=256)
def qualities(accept: str) -> tuple[float, float, bool]:
    """(q of JSON, q of HTML, whether JSON is named) for an ``Accept`` value; both
    q are 1 without one.

    JSON is ``application/json`` or any ``…+json`` type the client names.
    """
    if not accept.strip():
        return 1.0, 1.0, False
    ranges = _ranges(accept)
    json_q = _quality(ranges, "application", "json")
    named = any((k, t) == ("application", "json") for k, t, _ in ranges)
    for kind, subtype, q in ranges:
        if subtype.endswith("+json") and kind != "*":
            json_q, named = max(json_q, q), True
    return json_q, _quality(ranges, "text", "html"), named


def is_api_path(path: str) -> bool:
    """Whether ``path`` is one of the JSON API's URLs."""
    return _API_PATH.search(path) is not None


def api_answer(accept: str) -> Answer | None:
    """What an API route answers: JSON unless HTML is preferred; None: neither."""
    json_q, html_q, _ = qualities(accept)
    if json_q > 0 and json_q >= html_q:
        return "json"
    if html_q > 0:
        return "html"
    return None


def page_wants_json(accept: str) -> bool:
    """Whether a client of any other URL wants JSON: it names JSON and ranks it at
    least as high as HTML (``*/*`` alone is a page)."""
    json_q, html_q, named = qualities(accept)
    return named and json_q > 0 and json_q >= html_q


def wants_json(accept: str, path: str) -> bool:
    """Whether the answer (an error's too) at ``path`` is JSON."""
    if is_api_path(path):
        return api_answer(accept) != "html"
    return page_wants_json(accept)
