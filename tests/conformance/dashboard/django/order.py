"""Orders: guests do not see the orders whose reference starts with "Hidden"."""

from __future__ import annotations

from typing import Any

from app.resources.order import OrderResource as GeneratedOrderResource


class OrderResource(GeneratedOrderResource):
    def scope(self, query: Any, user: Any) -> Any:
        if user.email.endswith("@guest.test"):
            return query.exclude(reference__startswith="Hidden")
        return query
