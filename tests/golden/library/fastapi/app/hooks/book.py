"""Your Book resource: change how the panel serves it here.

panelforge writes this file once and never overwrites it. The generated declaration
it extends lives in app/resources/book.py (regenerated from the manifest).

Override class attributes such as ``title``, ``search``, ``query_tags``, ``per_page``
or ``default_sort``, or implement the manifest's methods below.
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from app.resources.book import BookResource as GeneratedBookResource


class BookResource(GeneratedBookResource):
    """Book records in the panel."""

    async def publish(self, request: Request) -> dict[str, Any]:
        """Run the ``publish`` method of the manifest."""
        return {"message": "publish is not implemented yet"}
