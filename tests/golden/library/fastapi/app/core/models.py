"""The declarative base every resource's model derives from."""

from __future__ import annotations

import decimal
from typing import Any

from sqlalchemy import (
    BigInteger,
    DateTime,
    Dialect,
    Integer,
    MetaData,
    Numeric,
    Text,
)
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.orm import DeclarativeBase
from sqlalchemy.types import TypeDecorator, TypeEngine

from panel_core.decimals import to_decimal
from panel_core.files import from_column, to_column

# Integer keys are 64-bit; on SQLite only an INTEGER PRIMARY KEY is allocated by the
# database (ROWID), so there they are declared INTEGER, which SQLite stores in 64 bits.
BigKey = BigInteger().with_variant(Integer(), "sqlite")


class ExactDecimal(TypeDecorator[decimal.Decimal]):
    """NUMERIC(precision, scale), read as a Decimal with ``scale`` decimals.

    SQLite keeps a NUMERIC value as an integer or a REAL (a double), which holds 15
    significant digits exactly: it is read through its shortest text, so SQLAlchemy
    never guesses a Decimal from a float (and need not warn that it would).
    """

    impl = Numeric
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        """A NUMERIC that SQLite hands over as it stores it."""
        if dialect.name == "sqlite":
            numeric = self.impl_instance
            plain = Numeric(numeric.precision, numeric.scale, asdecimal=False)
            return dialect.type_descriptor(plain)
        return dialect.type_descriptor(self.impl_instance)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        """The stored value as a Decimal with the column's decimals."""
        if value is None:
            return None
        return to_decimal(value, self.impl_instance.scale or 0)


class StoredFileText(TypeDecorator[Any]):
    """A file or image field's column: JSON text of the stored file, read as a
    ``panel_core.files.StoredFile`` (LONGTEXT on MySQL and MariaDB)."""

    impl = Text
    cache_ok = True

    def load_dialect_impl(self, dialect: Dialect) -> TypeEngine[Any]:
        """TEXT; LONGTEXT on MySQL and MariaDB, as the migrations create it."""
        if dialect.name in ("mysql", "mariadb"):
            return dialect.type_descriptor(Text(2**32 - 1))
        return dialect.type_descriptor(Text())

    def process_bind_param(self, value: Any, dialect: Dialect) -> Any:
        """A stored file as its JSON text."""
        return to_column(value)

    def process_result_value(self, value: Any, dialect: Dialect) -> Any:
        """The JSON text as a stored file."""
        return from_column(value)


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
