"""When the database does not answer: 503 with ``Retry-After``, and one clear line.

A request failing on a database error makes the panel ask the database for a
``SELECT 1`` on a new connection: if that fails too, the database is down or out of
reach (or refuses the login), and the answer is ``DatabaseUnavailable``: 503,
``Retry-After``, as JSON ``{"message": …}`` or as the error page; otherwise the error
is the panel's (503 while not migrated, else 500). A busy SQLite file ("database is
locked" after the busy timeout) is answered 503 too. The servers ask at start-up as
well and log the problem, naming the database's URL without its password; they start
anyway, so the panel answers as soon as the database does. ``migrate`` asks first and
says the same in one ``error:`` line.
"""

from __future__ import annotations

from urllib.parse import urlsplit, urlunsplit

from .errors import DatabaseUnavailable

# Seconds a client is asked to wait before trying again.
RETRY_AFTER = 10
_BUSY = "database is locked"


def masked_url(url: str) -> str:
    """``url`` without its password: ``postgresql://app:***@db:5432/panel``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    user, host = parts.netloc.rsplit("@", 1)
    name = user.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{name}:***@{host}"))


def reason(exc: BaseException) -> str:
    """What the database driver said, on one line (without SQLAlchemy's wrapping)."""
    found = getattr(exc, "orig", None) or exc
    return " ".join(str(found).split()) or type(found).__name__


def is_busy(exc: BaseException) -> bool:
    """Whether ``exc`` is SQLite giving up waiting for another writer."""
    return _BUSY in reason(exc)


def unreachable(url: str, problem: str) -> str:
    """The line naming the database and its ``problem`` (from ``reason``)."""
    return f"cannot reach the database at {masked_url(url)}: {problem}"


def startup_error(url: str, problem: str) -> str:
    """What the servers log at start-up when the database does not answer."""
    return f"error: {unreachable(url, problem)} (answering 503 until it answers)"


def unavailable() -> DatabaseUnavailable:
    """The error requests are answered with while the database does not answer."""
    return DatabaseUnavailable(RETRY_AFTER)
