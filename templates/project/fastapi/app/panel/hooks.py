"""The names your resource hooks use: ``from app.panel.hooks import ValidationError``.

``ValidationError`` and ``Forbidden`` are the kernel's (``panel_core.hooks``, shared
with panelforge's Django panels; see that module for what each hook receives and when
it runs). ``connection()`` is the SQLAlchemy connection of the write a hook runs in:
what a hook reads or writes through it is part of that transaction, undone with it::

    def after_created(self, record, user):
        connection().execute(insert(AuditLog).values(action="created", ...))
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from sqlalchemy import Connection

from panel_core.hooks import NOT_A_FIELD, Forbidden, ValidationError

__all__ = ["NOT_A_FIELD", "Forbidden", "ValidationError", "connection"]

_CONNECTION: ContextVar[Connection | None] = ContextVar("hook_connection", default=None)


def connection() -> Connection:
    """The connection (and transaction) of the write the calling hook runs in."""
    found = _CONNECTION.get()
    if found is None:
        raise RuntimeError("connection() answers in hooks only, while the panel writes")
    return found


def current_connection() -> Connection | None:
    """The connection hooks reach now, if any (to hand on to another task)."""
    return _CONNECTION.get()


@contextmanager
def writing(bound: Connection | None) -> Iterator[None]:
    """Let the hooks run meanwhile reach ``bound`` through ``connection()``."""
    token = _CONNECTION.set(bound)
    try:
        yield
    finally:
        _CONNECTION.reset(token)
