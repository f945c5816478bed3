"""The people who may log into the panel: the ``panel_users`` table and its queries.

E-mail addresses are stored lower-case, so the unique index makes them unique whatever
their case, and logins match them case-insensitively.
"""

from __future__ import annotations

import datetime
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, mapped_column

from app.core.db import returns_rows, transaction
from app.core.models import Base, BigKey
from app.core.passwords import hash_password, needs_rehash, verify_password
from app.core.readers import LoopReader
from panel_core.abilities import ADMIN
from panel_core.accounts import normalize_email


class PanelUser(Base):
    """A row of the ``panel_users`` table (created by migration 0000)."""

    __tablename__ = "panel_users"

    id: Mapped[int] = mapped_column(BigKey, primary_key=True)
    email: Mapped[str] = mapped_column(sa.String(254), unique=True, index=True)
    name: Mapped[str] = mapped_column(sa.String(120), default="")
    password_hash: Mapped[str] = mapped_column(sa.String(255))
    is_active: Mapped[bool] = mapped_column(sa.Boolean, default=True)
    # What the user may do: ``admin``, or a role the manifest declares (migration 0000b).
    role: Mapped[str] = mapped_column(sa.String(64), server_default="admin")
    created_at: Mapped[datetime.datetime] = mapped_column(
        sa.DateTime(timezone=True), server_default=sa.func.now()
    )


@dataclass(frozen=True)
class User:
    """A panel user as a request sees it."""

    id: int
    email: str
    name: str
    password_hash: str
    is_active: bool
    role: str

    @property
    def display_name(self) -> str:
        """The name, or the e-mail address when the user has none."""
        return self.name or self.email


class UserExists(ValueError):
    """Another user already has this e-mail address."""


class NoSuchUser(LookupError):
    """No user has this e-mail address."""


_TABLE = PanelUser.__table__
_COLUMNS = (_TABLE.c.id, _TABLE.c.email, _TABLE.c.name)
_SELECT = sa.select(
    *_COLUMNS, _TABLE.c.password_hash, _TABLE.c.is_active, _TABLE.c.role
)


def _user(row: Any) -> User | None:
    return None if row is None else User(*row)


def user_query(*conditions: sa.ColumnElement[bool]) -> sa.Select[Any]:
    """A statement for the user with id ``:user_id`` (if ``conditions`` hold).

    Build it once: requests pass their values, so the statement is rendered once.
    """
    return _SELECT.where(_TABLE.c.id == sa.bindparam("user_id"), *conditions)


BY_ID = user_query()


def get_user(
    engine: Engine,
    user_id: int,
    statement: sa.Select[Any] = BY_ID,
    **values: Any,
) -> User | None:
    """The user with ``user_id`` that ``statement`` (a ``user_query``) selects."""
    with transaction(engine) as connection:
        row = connection.execute(statement, {**values, "user_id": user_id}).first()
    return _user(row)


async def read_user(
    reader: LoopReader,
    user_id: int,
    statement: sa.Select[Any] = BY_ID,
    **values: Any,
) -> User | None:
    """``get_user`` on the event loop, through a ``LoopReader``."""
    return _user(await reader.first(statement, {**values, "user_id": user_id}))


def find_user(engine: Engine, email: str) -> User | None:
    """The user with this e-mail address, whatever its case."""
    address = normalize_email(email)
    statement = _SELECT.where(sa.func.lower(_TABLE.c.email) == address)
    with transaction(engine) as connection:
        return _user(connection.execute(statement).first())


def create_user(
    engine: Engine, *, email: str, password: str, name: str = "", role: str = ADMIN
) -> User:
    """Add an active user with ``role``; the password is stored hashed."""
    values = {
        "email": normalize_email(email),
        "name": name.strip(),
        "password_hash": hash_password(password),
        "is_active": True,
        "role": role,
    }
    statement = sa.insert(_TABLE).values(values)
    try:
        with transaction(engine, writes=True) as connection:
            if returns_rows(connection):
                statement = statement.returning(*_SELECT.selected_columns)
                row = connection.execute(statement).one()
            else:
                key = connection.execute(statement).inserted_primary_key[0]
                row = connection.execute(_SELECT.where(_TABLE.c.id == key)).one()
    except IntegrityError:
        raise UserExists(f"a user with e-mail {values['email']} exists") from None
    return User(*row)


def has_users(engine: Engine) -> bool:
    """Whether anyone may log in yet."""
    with transaction(engine) as connection:
        return connection.execute(sa.select(_TABLE.c.id).limit(1)).first() is not None


def set_role(engine: Engine, email: str, role: str) -> User:
    """Give the user with this e-mail address ``role``; it applies at their next request."""
    address = normalize_email(email)
    matches = sa.func.lower(_TABLE.c.email) == address
    statement = sa.update(_TABLE).where(matches).values(role=role)
    with transaction(engine, writes=True) as connection:
        if returns_rows(connection):
            statement = statement.returning(*_SELECT.selected_columns)
            row = connection.execute(statement).first()
        else:
            connection.execute(statement)
            row = connection.execute(_SELECT.where(matches)).first()
    if row is None:
        raise NoSuchUser(f"no user has the e-mail address {address}")
    return User(*row)


def check_credentials(engine: Engine, email: str, password: str) -> User | None:
    """The active user with these credentials, else ``None``.

    Exactly one hash verification runs whether the user exists or not, so the answer
    takes as long either way.
    """
    user = find_user(engine, email)
    valid = verify_password(password, user.password_hash if user else None)
    if user is None or not valid or not user.is_active:
        return None
    if needs_rehash(user.password_hash):
        _store_hash(engine, user.id, hash_password(password))
    return user


def _store_hash(engine: Engine, user_id: int, password_hash: str) -> None:
    statement = (
        sa.update(_TABLE)
        .where(_TABLE.c.id == user_id)
        .values(password_hash=password_hash)
    )
    with transaction(engine, writes=True) as connection:
        connection.execute(statement)
