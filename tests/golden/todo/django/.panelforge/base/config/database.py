"""``DATABASE_URL`` → Django's ``DATABASES["default"]``.

The same URLs as the FastAPI projects panelforge emits: ``sqlite:///relative.db``,
``sqlite:////absolute/path.db``, ``postgresql://user:password@host:5432/name``,
``mysql://user:password@host:3306/name`` (MySQL or MariaDB, through PyMySQL; the
SQLAlchemy driver suffix, ``postgresql+psycopg://`` or ``mysql+pymysql://``, is
accepted too).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

# Seconds to wait for a PostgreSQL or MySQL server to accept a connection.
CONNECT_TIMEOUT = 10
_ENGINES = {
    "sqlite": "django.db.backends.sqlite3",
    "postgres": "django.db.backends.postgresql",
    "postgresql": "django.db.backends.postgresql",
    # Django's MySQL backend on PyMySQL, with strings of any length (panel.mysql).
    "mysql": "panel.mysql",
    "mariadb": "panel.mysql",
}
# Every MySQL/MariaDB connection: utf8mb4, date-times in UTC, strict SQL mode.
_MYSQL_OPTIONS = {
    "charset": "utf8mb4",
    "init_command": "SET time_zone = '+00:00', sql_mode = 'TRADITIONAL'",
}


def database_from_url(url: str, base_dir: Path) -> dict[str, Any]:
    """The ``DATABASES`` entry ``url`` names; relative SQLite paths from ``base_dir``."""
    parts = urlsplit(url)
    scheme = parts.scheme.split("+", 1)[0]
    engine = _ENGINES.get(scheme)
    if engine is None:
        raise ImproperlyConfigured(
            f"DATABASE_URL: unsupported scheme {parts.scheme!r} "
            "(use sqlite:///file.db, postgresql://user@host/name"
            " or mysql://user@host/name)"
        )
    if scheme == "sqlite":
        return _sqlite(url.split("://", 1)[1], base_dir, engine)
    # A host that never answers fails after this many seconds, not minutes.
    options = {"connect_timeout": CONNECT_TIMEOUT, **dict(parse_qsl(parts.query))}
    extra: dict[str, Any] = {}
    if engine == "panel.mysql":
        options = {**_MYSQL_OPTIONS, **options}
        # The test database (``test_<name>``) is made as the README says to make
        # the real one: ``migrate`` refuses another character set or collation.
        extra["TEST"] = {"CHARSET": "utf8mb4", "COLLATION": "utf8mb4_bin"}
    return {
        "ENGINE": engine,
        "NAME": unquote(parts.path.lstrip("/")),
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": parts.hostname or "",
        "PORT": str(parts.port or ""),
        # One connection per worker, kept between requests and checked before use.
        "CONN_MAX_AGE": None,
        "CONN_HEALTH_CHECKS": True,
        "OPTIONS": options,
        **extra,
    }


def _sqlite(rest: str, base_dir: Path, engine: str) -> dict[str, Any]:
    # sqlite:///name.db → "/name.db" (relative); sqlite:////abs/name.db → "//abs…".
    path = rest[1:] if rest.startswith("/") else rest
    if not path or path == ":memory:":
        raise ImproperlyConfigured("DATABASE_URL: name an SQLite file, not memory")
    name = Path(unquote(path))
    return {
        "ENGINE": engine,
        "NAME": name if name.is_absolute() else base_dir / name,
        # One connection per worker thread, kept: a new one per request would pay the
        # connect and the PRAGMAs each time, and start with an empty page cache.
        "CONN_MAX_AGE": None,
        "OPTIONS": {
            # WAL lets readers and the writer work at once; wait for the lock rather
            # than fail at once ("database is locked") under concurrent writes: up to
            # 20 s, as a large CSV import holds it while it writes (then 503).
            "init_command": (
                "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL; "
                "PRAGMA cache_size=-65536;"
            ),
            "transaction_mode": "IMMEDIATE",
            "timeout": 20,
        },
    }
