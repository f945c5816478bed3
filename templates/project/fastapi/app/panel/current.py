"""The current request's route, for the current-page checks (placeholder)."""

from __future__ import annotations

from fastapi import Request


async def remember_route(request: Request) -> None:
    """Record which named route and parameters this request matched (not yet)."""
    del request
