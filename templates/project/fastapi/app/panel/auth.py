"""Authentication of panel requests (placeholder: lets every request through)."""

from __future__ import annotations

from fastapi import Request


async def authenticated(request: Request) -> None:
    """Refuse a request without a logged-in user (not yet enforced)."""
    del request
