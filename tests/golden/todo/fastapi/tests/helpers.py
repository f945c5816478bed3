"""Helpers shared by the API tests."""

from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from fastapi.testclient import TestClient


def create(client: TestClient, uri: str, payload: Mapping[str, Any]) -> dict[str, Any]:
    """Create a record of the resource ``uri`` through the API and return it."""
    response = client.post(f"/admin/resource/{uri}/crud", json=payload)
    assert response.status_code == 201, response.text
    record: dict[str, Any] = response.json()["data"]
    return record


def assert_record(
    record: Mapping[str, Any],
    payload: Mapping[str, Any],
    hidden: Collection[str] = (),
) -> None:
    """The record holds what the payload sent, except hidden (write-only) fields."""
    for name in hidden:
        assert name not in record
    sent = {name: value for name, value in payload.items() if name not in hidden}
    assert {name: record[name] for name in sent} == sent


def form_body(payload: Mapping[str, Any]) -> dict[str, str]:
    """The payload as an HTML form would send it: every value a string."""
    return {name: _form_value(value) for name, value in payload.items()}


def _form_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)
