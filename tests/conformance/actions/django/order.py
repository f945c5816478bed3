"""Orders: the manifest's actions, as a user writes them (Django, the ORM)."""

from __future__ import annotations

from typing import Any

from app.models import Order
from app.resources.order import OrderResource as Generated
from panel.hooks import ValidationError


def _set(records: list[dict[str, Any]], **values: Any) -> None:
    Order.objects.filter(pk__in=[record["id"] for record in records]).update(**values)


class OrderResource(Generated):
    def can(self, ability: str, user: Any, record: Any = None) -> bool:
        # A record rule: shipped orders are never archived.
        if (
            ability == "archive"
            and record is not None
            and record["status"] == "shipped"
        ):
            return False
        return bool(super().can(ability, user, record))

    def archive(
        self, records: list[dict[str, Any]], data: dict[str, Any], user: Any
    ) -> str:
        _set(records, archived=True, note=data["reason"])
        return f"{len(records)} archived by {user.email}: {data['reason']}"

    def explode(
        self, records: list[dict[str, Any]], data: dict[str, Any], user: Any
    ) -> None:
        _set(records, note="exploded")
        raise ValidationError("Explode refused: nothing was changed.")


# A function of the module works as well as a method.
def mark_paid(records: list[dict[str, Any]], data: dict[str, Any], user: Any) -> None:
    _set(records, status="paid")
