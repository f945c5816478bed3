"""The bodies of the CRUD API's answers to changes, as MoonShine's toasts read."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def saved(record: Mapping[str, Any], redirect: str) -> dict[str, Any]:
    """The answer to a create or an update: a toast, the form page and the record."""
    return {
        "message": "Saved",
        "messageType": "success",
        "redirect": redirect,
        "data": record,
    }


def deleted(count: int | None = None) -> dict[str, Any]:
    """The answer to a delete; mass deletes also say how many rows went."""
    body: dict[str, Any] = {"message": "Deleted", "messageType": "success"}
    if count is not None:
        body["deleted"] = count
    return body
