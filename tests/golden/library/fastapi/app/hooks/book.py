"""Your Book resource: change how the panel serves it here.

panelforge writes this file once and never overwrites it. The generated declaration
it extends lives in app/resources/book.py (regenerated from the manifest).

Override class attributes such as ``title``, ``search``, ``query_tags``, ``per_page``,
``default_sort`` or ``index_fields``, implement the manifest's methods below, or add
lifecycle hooks (``before_creating``, ``after_updated``…), a ``scope`` and ``can``
(raise ``ValidationError`` or ``Forbidden`` from ``app.panel.hooks``): see the
README's "Customising". Every resource has URL helpers (``self.form_page_url(key)``…)
and current-page checks (``self.is_now_on_form()``…).
"""

from __future__ import annotations

from typing import Any

from fastapi import Request

from app.resources.book import BookResource as GeneratedBookResource


class BookResource(GeneratedBookResource):
    """Book records in the panel."""

    async def publish(self, request: Request) -> dict[str, Any]:
        """``POST /admin/method/<page>/book-resource?method=publish``.

        Answer ``{"message": ..., "messageType": "success"}`` ("error", "info" and
        "warning" work too; success is the default), or return a ``Response``.
        Raise ``ValueError`` to answer 422 with its message.
        """
        return {
            "message": "publish is not implemented yet.",
            "messageType": "info",
        }
