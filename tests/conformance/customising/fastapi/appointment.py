"""Appointments: a record rule (done ones are final) and the confirm method."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from app.resources.appointment import AppointmentResource as Generated


class AppointmentResource(Generated):
    async def can(self, ability: str, user: Any, record: Any = None) -> bool:
        if ability == "update" and record is not None and record["status"] == "done":
            return False
        return bool(super().can(ability, user, record))

    async def confirm(self, request: Request) -> dict[str, Any]:
        return {"message": "Confirmed."}
