"""The database URL a user gives: the spellings the emitted projects accept, masked.

``postgresql://``, ``postgres://``, ``mysql://``, ``mariadb://``, ``sqlite:///path``
and SQLAlchemy's ``+driver`` forms (``postgresql+psycopg://``, ``mysql+pymysql://``).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

from ..errors import DatabaseUrlError

# The driver each backend uses when the URL names none: the emitted projects' own.
_DEFAULT_DRIVERS = {"postgresql": "psycopg", "mysql": "pymysql"}
_BACKENDS = {
    "sqlite": "sqlite",
    "postgresql": "postgresql",
    "postgres": "postgresql",
    "mysql": "mysql",
    "mariadb": "mysql",
}
BACKEND_NAMES = {"sqlite": "SQLite", "postgresql": "PostgreSQL", "mysql": "MySQL"}
# What to install when a driver is missing: (the panelforge extra, the package).
DRIVER_PACKAGES = {
    "psycopg": ("postgres", "psycopg[binary]"),
    "psycopg2": (None, "psycopg2-binary"),
    "pymysql": ("mysql", "pymysql"),
}
_EXAMPLES = "sqlite:///file.db, postgresql://user@host/name or mysql://user@host/name"


@dataclass(frozen=True)
class DatabaseUrl:
    """A URL as given (``text``), and what panelforge connects with."""

    text: str
    backend: str  # "sqlite", "postgresql" or "mysql"
    driver: str | None  # None for SQLite
    engine_url: str

    @property
    def masked(self) -> str:
        """The URL as given, its password replaced by ``***``."""
        return masked_url(self.text)

    @property
    def database_name(self) -> str:
        """The database's name: the SQLite file's stem, else the URL's path."""
        path = urlsplit(self.text).path
        if self.backend == "sqlite":
            return path.rsplit("/", 1)[-1].rsplit(".", 1)[0]
        return path.lstrip("/")


def masked_url(url: str) -> str:
    """``url`` without its password: ``postgresql://app:***@db:5432/panel``."""
    try:
        parts = urlsplit(url)
        password = parts.password
    except ValueError:
        return url.split("@", 1)[-1]  # unreadable: never show what precedes the host
    if password is None:
        return url
    user, host = parts.netloc.rsplit("@", 1)
    name = user.split(":", 1)[0]
    return urlunsplit(parts._replace(netloc=f"{name}:***@{host}"))


def parse_database_url(text: str) -> DatabaseUrl:
    """``text`` as a :class:`DatabaseUrl`; a URL panelforge cannot use is an error."""
    scheme, sep, rest = text.partition("://")
    if not sep or not scheme:
        raise DatabaseUrlError(
            f"'{masked_url(text)}' is not a database URL ({_EXAMPLES})"
        )
    name, _plus, driver = scheme.lower().partition("+")
    backend = _BACKENDS.get(name)
    if backend is None:
        raise DatabaseUrlError(
            f"unsupported database '{scheme}' in '{masked_url(text)}' "
            f"(panelforge inspects SQLite, PostgreSQL and MySQL/MariaDB: {_EXAMPLES})"
        )
    if backend == "sqlite":
        if driver or not rest.startswith("/") or rest in ("/", "/:memory:"):
            raise DatabaseUrlError(
                f"'{masked_url(text)}' does not name an SQLite file "
                "(sqlite:///relative.db or sqlite:////absolute/path.db)"
            )
        return DatabaseUrl(text, "sqlite", None, f"sqlite:///{rest[1:]}")
    driver = driver or _DEFAULT_DRIVERS[backend]
    return DatabaseUrl(text, backend, driver, f"{backend}+{driver}://{rest}")
