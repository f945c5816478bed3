"""The declarative base every resource's model derives from."""

from __future__ import annotations

from typing import Any

from sqlalchemy import BigInteger, DateTime, Integer, MetaData
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase

# Integer keys are 64-bit; on SQLite only an INTEGER PRIMARY KEY is allocated by the
# database (ROWID), so there they are declared INTEGER, which SQLite stores in 64 bits.
BigKey = BigInteger().with_variant(Integer(), "sqlite")


@compiles(DateTime, "mysql")
@compiles(DateTime, "mariadb")
def _mysql_datetime(_type: DateTime, _compiler: Any, **_kw: Any) -> str:
    # MySQL's DATETIME keeps whole seconds (it rounds the rest); microseconds, as
    # PostgreSQL, SQLite and Django's MySQL columns keep them, need DATETIME(6).
    return "DATETIME(6)"


# Stable constraint names, so Alembic can alter and drop them later.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Base class of the models; its metadata lists every table."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
