"""What logins leave in the database, so every worker and machine sees the same.

``panel_login_attempts`` counts the logins of one username from one address within a
window (the key is a hash: no username or address is stored); ``panel_revoked_tokens``
lists the ids of tokens logged out before they expire. Rows are removed once they no
longer matter. Times are Unix seconds.
"""

from __future__ import annotations

import sqlalchemy as sa
from sqlalchemy import Connection, Engine
from sqlalchemy.dialects import mysql, postgresql, sqlite
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import MYSQL_BACKENDS, transaction
from app.core.models import Base
from panel_core.tokens import revoked_until


class LoginAttempt(Base):
    """Logins of one username from one address, in the current window."""

    __tablename__ = "panel_login_attempts"

    key: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    attempts: Mapped[int] = mapped_column(sa.Integer)
    expires_at: Mapped[int] = mapped_column(sa.BigInteger, index=True)


class RevokedToken(Base):
    """A token logged out before it expired."""

    __tablename__ = "panel_revoked_tokens"

    jti: Mapped[str] = mapped_column(sa.String(64), primary_key=True)
    expires_at: Mapped[int] = mapped_column(sa.BigInteger, index=True)


_ATTEMPTS = LoginAttempt.__table__
_REVOKED = RevokedToken.__table__


def _insert(connection: Connection, table: sa.Table) -> sa.Insert:
    """An INSERT that can say what to do ON CONFLICT, in this database's dialect."""
    dialect = postgresql if connection.dialect.name == "postgresql" else sqlite
    insert: sa.Insert = dialect.insert(table)
    return insert


def count_attempt(
    engine: Engine, key: str, *, window: int, now: int
) -> tuple[int, int]:
    """Count one more login for ``key``: the attempts in its window, seconds left.

    One statement adds or updates the row, so concurrent logins on any worker are
    all counted; a window that has ended starts again at 1.
    """
    with transaction(engine, writes=True) as connection:
        connection.execute(sa.delete(_ATTEMPTS).where(_ATTEMPTS.c.expires_at <= now))
        if connection.dialect.name in MYSQL_BACKENDS:
            return _count_attempt_mysql(connection, key, window=window, now=now)
        ended = _ATTEMPTS.c.expires_at <= now
        statement = (
            _insert(connection, _ATTEMPTS)
            .values(key=key, attempts=1, expires_at=now + window)
            .on_conflict_do_update(
                index_elements=[_ATTEMPTS.c.key],
                set_={
                    "attempts": sa.case((ended, 1), else_=_ATTEMPTS.c.attempts + 1),
                    "expires_at": sa.case(
                        (ended, now + window), else_=_ATTEMPTS.c.expires_at
                    ),
                },
            )
            .returning(_ATTEMPTS.c.attempts, _ATTEMPTS.c.expires_at)
        )
        attempts, expires_at = connection.execute(statement).one()
    return int(attempts), max(1, int(expires_at) - now)


def _count_attempt_mysql(
    connection: Connection, key: str, *, window: int, now: int
) -> tuple[int, int]:
    """``count_attempt`` on MySQL: ON DUPLICATE KEY UPDATE, then the row read back
    (no RETURNING). MySQL assigns in order, so ``attempts`` still sees the old
    ``expires_at``, and ``expires_at`` is assigned last."""
    ended = _ATTEMPTS.c.expires_at <= now
    insert = mysql.insert(_ATTEMPTS).values(
        key=key, attempts=1, expires_at=now + window
    )
    statement = insert.on_duplicate_key_update(
        [
            ("attempts", sa.case((ended, 1), else_=_ATTEMPTS.c.attempts + 1)),
            (
                "expires_at",
                sa.case((ended, now + window), else_=_ATTEMPTS.c.expires_at),
            ),
        ]
    )
    connection.execute(statement)
    read = sa.select(_ATTEMPTS.c.attempts, _ATTEMPTS.c.expires_at).where(
        _ATTEMPTS.c.key == key
    )
    attempts, expires_at = connection.execute(read).one()
    return int(attempts), max(1, int(expires_at) - now)


def clear_attempts(engine: Engine, key: str) -> None:
    """Forget the logins counted for ``key`` (after a successful one)."""
    with transaction(engine, writes=True) as connection:
        connection.execute(sa.delete(_ATTEMPTS).where(_ATTEMPTS.c.key == key))


def revoke_token(engine: Engine, jti: str, *, expires_at: int, now: int) -> None:
    """Refuse the token ``jti`` from now on (until it would have expired anyway)."""
    keep_until = revoked_until(expires_at, now=now)
    with transaction(engine, writes=True) as connection:
        connection.execute(sa.delete(_REVOKED).where(_REVOKED.c.expires_at < now))
        if connection.dialect.name in MYSQL_BACKENDS:
            upsert = mysql.insert(_REVOKED).values(jti=jti, expires_at=keep_until)
            kept = upsert.on_duplicate_key_update(expires_at=_REVOKED.c.expires_at)
            connection.execute(kept)
            return
        statement = (
            _insert(connection, _REVOKED)
            .values(jti=jti, expires_at=keep_until)
            .on_conflict_do_nothing(index_elements=[_REVOKED.c.jti])
        )
        connection.execute(statement)


# True while the token whose id is the parameter ``:jti`` has not been revoked.
NOT_REVOKED: sa.ColumnElement[bool] = ~sa.exists().where(
    _REVOKED.c.jti == sa.bindparam("jti")
)
