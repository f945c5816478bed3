"""Content negotiation (RFC 9110 §12.5.1): JSON or a page, by the ``Accept`` q-values.

The API answers JSON unless the client prefers ``text/html`` (a browser, a panel
form): ``*/*``, no ``Accept`` at all, and ``application/json`` all get JSON, and
``application/json;q=0, text/html`` gets the page. A client that accepts neither is
refused with 406 before anything is done. Pages answer HTML unless the client prefers
JSON (then 406, naming the API).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Literal

Answer = Literal["json", "html"]


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
def qualities(accept: str) -> tuple[float, float]:
    """(q of JSON, q of HTML) for an ``Accept`` value; both 1 without one.

    JSON is ``application/json`` or any ``…+json`` type the client names.
    """
    if not accept.strip():
        return 1.0, 1.0
    ranges = _ranges(accept)
    json_q = _quality(ranges, "application", "json")
    for kind, subtype, q in ranges:
        if subtype.endswith("+json") and kind != "*":
            json_q = max(json_q, q)
    return json_q, _quality(ranges, "text", "html")


def api_answer(accept: str) -> Answer | None:
    """What an API route answers: JSON unless HTML is preferred; None: neither."""
    json_q, html_q = qualities(accept)
    if json_q > 0 and json_q >= html_q:
        return "json"
    if html_q > 0:
        return "html"
    return None


def page_refuses(accept: str) -> bool:
    """Whether a page must answer 406: the client prefers JSON to HTML."""
    json_q, html_q = qualities(accept)
    return json_q > html_q
