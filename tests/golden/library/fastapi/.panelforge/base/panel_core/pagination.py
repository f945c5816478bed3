"""The list answer, shaped like the ``LengthAwarePaginator`` JSON MoonShine serves.

Page links keep every query parameter but ``page``, which goes last (absolute in the
JSON answers: see ``panel_core.public_url``); the window of
page numbers follows Laravel's ``UrlWindow``: three pages each side of the current.
With ``total=none`` the total is not known: ``total``, ``last_page`` and
``last_page_url`` are null and the links end at the current page. In cursor mode the
body has the keys of Laravel's ``CursorPaginator`` instead (``next_cursor``…).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any
from urllib.parse import urlencode

from .query import ESTIMATE, ListQuery, encode_cursor
from .translation import gettext, gettext_noop

_ON_EACH_SIDE = 3
_PREVIOUS = "&laquo; Previous"
_NEXT = "Next &raquo;"
_GAP = "..."
# How the pages name the first and last links (the JSON keeps Laravel's labels).
_PAGE_LABELS = {_PREVIOUS: gettext_noop("‹ Previous"), _NEXT: gettext_noop("Next ›")}


class PageUrls:
    """Builds the URL of page ``n`` of one list request.

    With an ``origin`` (``panel_core.public_url``) the URLs are absolute, as the JSON
    answers give them; without, paths (the HTML pages' links).
    """

    def __init__(
        self, path: str, params: Iterable[tuple[str, str]], origin: str = ""
    ) -> None:
        self.path = origin + path
        self._params = [(k, v) for k, v in params if k not in ("page", "cursor")]
        # Every link shares the other parameters: encoded once, not once per link.
        others = urlencode(self._params)
        self._prefix = f"{self.path}?{others}&" if others else f"{self.path}?"

    def __call__(self, page: int) -> str:
        """The path of ``page`` with the request's other parameters."""
        return f"{self._prefix}page={int(page)}"

    def cursor(self, token: str) -> str:
        """The path of the keyset page ``token`` names, with the other parameters."""
        return f"{self.path}?{urlencode([*self._params, ('cursor', token)])}"


def list_body(
    query: ListQuery,
    rows: Sequence[dict[str, Any]],
    total: int | None,
    urls: PageUrls,
) -> dict[str, Any]:
    """The JSON list answer for the rows a store read for ``query``.

    The store reads ``query.limit`` rows: one past the page unless the total is
    exact, so that row says whether a next page exists.
    """
    if query.keyset:
        return cursor_paginator(query, rows, urls)
    items = list(rows[: query.per_page])
    more = len(rows) > query.per_page
    if query.total == ESTIMATE and total is not None:
        total = _bounded_estimate(total, query.offset, len(items), more)
    return paginator(
        items,
        total=total,
        page=query.page,
        per_page=query.per_page,
        urls=urls,
        more=more,
    )


def _bounded_estimate(total: int, offset: int, count: int, more: bool) -> int:
    """An estimate made consistent with what this page saw."""
    if more:
        return max(total, offset + count + 1)
    if count:
        return offset + count  # the last page: the total is exact
    return min(total, offset)


def paginator(
    items: Sequence[dict[str, Any]],
    *,
    total: int | None,
    page: int,
    per_page: int,
    urls: PageUrls,
    more: bool = False,
) -> dict[str, Any]:
    """The paginator body for one page of ``items`` out of ``total``.

    A ``None`` total is unknown: whether a next page exists is then ``more``.
    """
    last_page = None if total is None else max((total + per_page - 1) // per_page, 1)
    has_next = more if last_page is None else page < last_page
    first_item = (page - 1) * per_page + 1 if items else None
    return {
        "current_page": page,
        "data": items,
        "first_page_url": urls(1),
        "from": first_item,
        "last_page": last_page,
        "last_page_url": None if last_page is None else urls(last_page),
        "links": _links(page, last_page, has_next, urls),
        "next_page_url": urls(page + 1) if has_next else None,
        "path": urls.path,
        "per_page": per_page,
        "prev_page_url": urls(page - 1) if page > 1 else None,
        "to": first_item + len(items) - 1 if first_item else None,
        "total": total,
    }


def cursor_paginator(
    query: ListQuery, rows: Sequence[dict[str, Any]], urls: PageUrls
) -> dict[str, Any]:
    """The body of a keyset page, with the keys of Laravel's ``CursorPaginator``.

    ``rows`` come in the order read: reversed for a ``prev`` cursor, and one past the
    page when there are more that way.
    """
    items = list(rows[: query.per_page])
    more = len(rows) > query.per_page
    if query.backwards:
        items.reverse()
    if query.cursor is None:
        has_previous, has_next = False, more
    elif query.backwards:
        has_previous, has_next = more, True
    else:
        has_previous, has_next = True, more
    next_cursor = prev_cursor = None
    if items and has_next:
        next_cursor = encode_cursor(query, items[-1], before=False)
    if items and has_previous:
        prev_cursor = encode_cursor(query, items[0], before=True)
    return {
        "data": items,
        "path": urls.path,
        "per_page": query.per_page,
        "next_cursor": next_cursor,
        "next_page_url": urls.cursor(next_cursor) if next_cursor else None,
        "prev_cursor": prev_cursor,
        "prev_page_url": urls.cursor(prev_cursor) if prev_cursor else None,
    }


def _links(
    page: int, last_page: int | None, has_next: bool, urls: PageUrls
) -> list[dict[str, Any]]:
    links = [_link(urls(page - 1) if page > 1 else None, _PREVIOUS)]
    if last_page is None:
        window: list[int | None] = list(range(max(page - _ON_EACH_SIDE, 1), page + 1))
    else:
        window = _window(page, last_page)
    for element in window:
        if element is None:
            links.append(_link(None, _GAP))
        else:
            links.append(_link(urls(element), str(element), element == page))
    links.append(_link(urls(page + 1) if has_next else None, _NEXT))
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


def page_navigation(page: dict[str, Any]) -> list[dict[str, Any]]:
    """The page links an HTML page shows under its table, each with its ``text``;
    none when everything fits on one page."""
    if (page.get("last_page") or 0) <= 1:
        return []
    return [
        {**link, "text": gettext(_PAGE_LABELS.get(link["label"], link["label"]))}
        for link in page["links"]
    ]
