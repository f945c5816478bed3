"""The list answer, shaped like the ``LengthAwarePaginator`` JSON MoonShine serves.

Page links keep every query parameter but ``page``, which goes last; the window of
page numbers follows Laravel's ``UrlWindow``: three pages each side of the current.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlencode

_ON_EACH_SIDE = 3
_PREVIOUS = "&laquo; Previous"
_NEXT = "Next &raquo;"
_GAP = "..."


class PageUrls:
    """Builds the URL of page ``n`` of one list request."""

    def __init__(self, path: str, params: Iterable[tuple[str, str]]) -> None:
        self.path = path
        self._params = [(k, v) for k, v in params if k != "page"]

    def __call__(self, page: int) -> str:
        """The path of ``page`` with the request's other parameters."""
        return f"{self.path}?{urlencode([*self._params, ('page', page)])}"


def paginator(
    items: Sequence[dict[str, Any]],
    *,
    total: int,
    page: int,
    per_page: int,
    urls: PageUrls,
) -> dict[str, Any]:
    """The paginator body for one page of ``items`` out of ``total``."""
    last_page = max((total + per_page - 1) // per_page, 1)
    first_item = (page - 1) * per_page + 1 if items else None
    return {
        "current_page": page,
        "data": items,
        "first_page_url": urls(1),
        "from": first_item,
        "last_page": last_page,
        "last_page_url": urls(last_page),
        "links": _links(page, last_page, urls),
        "next_page_url": urls(page + 1) if page < last_page else None,
        "path": urls.path,
        "per_page": per_page,
        "prev_page_url": urls(page - 1) if page > 1 else None,
        "to": first_item + len(items) - 1 if first_item else None,
        "total": total,
    }


def _links(page: int, last_page: int, urls: PageUrls) -> list[dict[str, Any]]:
    links = [_link(urls(page - 1) if page > 1 else None, _PREVIOUS)]
    for element in _window(page, last_page):
        if element is None:
            links.append(_link(None, _GAP))
        else:
            links.append(_link(urls(element), str(element), element == page))
    links.append(_link(urls(page + 1) if page < last_page else None, _NEXT))
    return links


def _link(url: str | None, label: str, active: bool = False) -> dict[str, Any]:
    return {"url": url, "label": label, "active": active}


def _window(page: int, last_page: int) -> list[int | None]:
    """Page numbers to show, ``None`` standing for a gap ("...")."""
    if last_page < _ON_EACH_SIDE * 2 + 8:
        return list(range(1, last_page + 1))
    window = _ON_EACH_SIDE + 4
    start = [1, 2]
    finish = [last_page - 1, last_page]
    if page <= window:
        return [*range(1, window + _ON_EACH_SIDE + 1), None, *finish]
    if page > last_page - window:
        first = last_page - (window + _ON_EACH_SIDE - 1)
        return [*start, None, *range(first, last_page + 1)]
    adjacent = range(page - _ON_EACH_SIDE, page + _ON_EACH_SIDE + 1)
    return [*start, None, *adjacent, None, *finish]
