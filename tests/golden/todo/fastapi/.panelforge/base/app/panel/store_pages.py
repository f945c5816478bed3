"""List pages nobody narrowed, read on the event loop (SQLite, PostgreSQL).

``Store`` inherits ``read_page``. A page of the whole list (no filter, search, tag,
scope or cursor) in one of its orders is one statement rendered once per order: the
page's rows, each with the list's count as a last column (an uncorrelated subquery,
which the database runs once), so the rows and the total come from one snapshot and one
round trip. Only a page past the end, which has no row to carry the count, asks for
it alone. It runs through the ``LoopReader``, as a record's read does: no pool
checkout, no thread hop, no SQL compiled per request. Anything else is ``None``:
``list_page`` answers it in the thread pool, with the same rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import ColumnElement, Integer, Select, bindparam

from app.core.readers import LoopReader
from panel_core.query import EXACT, NO_TOTAL, ListQuery

if TYPE_CHECKING:
    from .store import Record

# At most this many orders (sort and direction) keep their statements.
_KEPT_ORDERS = 32
_TOTAL = "_panel_total"
_LIMIT = bindparam("limit", type_=Integer())
_OFFSET = bindparam("offset", type_=Integer())


class PageMethods:
    """``read_page`` for ``Store``."""

    _names: tuple[str, ...]
    _select: Select[Any]
    _count: Select[Any]
    _live: list[ColumnElement[bool]]
    _pages: dict[tuple[Any, ...], tuple[Select[Any], Select[Any]]]

    if TYPE_CHECKING:

        def _order(self, query: ListQuery) -> list[ColumnElement[Any]]: ...

    async def read_page(
        self, reader: LoopReader, query: ListQuery
    ) -> tuple[list[Record], int | None] | None:
        """``list_page`` of a live list nobody narrowed, through ``reader``; ``None``
        when ``query`` narrows it, pages by cursor or estimates its total."""
        narrowed = query.filters or query.search or query.query_tag is not None
        if narrowed or query.keyset or query.total not in (EXACT, NO_TOTAL):
            return None
        statements = self._page_statements(query)
        if statements is None:
            return None
        page, count = statements
        values = {"limit": query.limit, "offset": query.offset}
        rows = await reader.all(page, values)
        # zip stops before the count, the last column of an exact page's rows.
        records = [dict(zip(self._names, row, strict=False)) for row in rows]
        if query.total != EXACT:
            return records, None
        if rows:
            return records, int(rows[0][-1])
        total = await reader.first(count, {})
        return records, int(total[0]) if total else 0

    def _page_statements(
        self, query: ListQuery
    ) -> tuple[Select[Any], Select[Any]] | None:
        """The page statement of ``query``'s order (its rows and the count) and the
        count alone, made once per order (``None`` past the orders kept)."""
        shape = (query.order, query.total)
        found = self._pages.get(shape)
        if found is not None or len(self._pages) >= _KEPT_ORDERS:
            return found
        count = self._count.where(*self._live)
        page = self._select.where(*self._live)
        if query.total == EXACT:
            page = page.add_columns(count.scalar_subquery().label(_TOTAL))
        page = page.order_by(*self._order(query)).limit(_LIMIT).offset(_OFFSET)
        self._pages[shape] = (page, count)
        return page, count
