"""The declarative base every resource's model derives from."""

from __future__ import annotations

from sqlalchemy import BigInteger, Integer, MetaData
from sqlalchemy.orm import DeclarativeBase

# Integer keys are 64-bit; on SQLite only an INTEGER PRIMARY KEY is allocated by the
# database (ROWID), so there they are declared INTEGER, which SQLite stores in 64 bits.
BigKey = BigInteger().with_variant(Integer(), "sqlite")

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
