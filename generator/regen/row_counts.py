"""Counting, before anything is written, the rows a schema change would damage.

When the project's database is reachable (``DATABASE_URL`` as the app reads it, else
the SQLite file the app uses by default), regeneration runs the data checks of the
change plan with the very code the generated migration will run
(``migration_guard`` of the emitted kernel) and refuses with the same counts. An
unreachable database, or one that is not migrated yet, only costs the early
warning: the migration checks again when it runs.
"""

from __future__ import annotations

import importlib
import os
import sqlite3
from collections.abc import Sequence
from contextlib import closing
from dataclasses import replace
from pathlib import Path
from types import ModuleType
from typing import Any
from urllib.parse import unquote, urlsplit, urlunsplit

from ..errors import OutputError
from ..model import ir
from ..run import Run
from ..spec.openapi import KERNEL_PACKAGE, load_kernel
from .change_plan import ChangePlan, plan_changes
from .migrations import diff_schema
from .state import State


def change_plan(state: State, project: ir.Project, dest: Path, run: Run) -> ChangePlan:
    """The classified schema changes from the recorded manifest to ``project``.

    Raises :class:`OutputError` (nothing written) for a destructive change that
    ``run.allow_drop`` does not name, one a migration cannot make, or one the rows
    of the project's database (when reachable) do not fit.
    """
    plan = plan_changes(diff_schema(state.project, project), run.allow_drop)
    plan.refuse_if_needed()
    run.progress("counting the rows the schema change touches")
    note = count_damage(plan, dest, state.project.database)  # where the rows are now
    return replace(plan, notes=(note,)) if note else plan


def _guard() -> ModuleType:
    """The kernel's ``migration_guard`` module, loaded from panelforge's templates."""
    load_kernel()
    return importlib.import_module(f"{KERNEL_PACKAGE}.migration_guard")


def project_database_url(dest: Path, database_file: str) -> str | None:
    """The URL the project's app would use: ``DATABASE_URL``, else its default file."""
    if configured := os.environ.get("DATABASE_URL"):
        return configured
    default = dest / database_file
    return f"sqlite:///{default}" if default.is_file() else None


def shown_url(url: str) -> str:
    """``url`` without its password."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@")
    return urlunsplit(parts._replace(netloc=netloc))


def _connect(url: str, dest: Path) -> Any:
    """A DB-API connection to ``url``, or ``None`` when panelforge cannot open one."""
    scheme = url.split(":", 1)[0].split("+", 1)[0]
    if scheme == "sqlite":
        path = Path(url.split(":///", 1)[1]) if ":///" in url else None
        if path is None or str(path) in ("", ":memory:"):
            return None
        path = path if path.is_absolute() else dest / path
        if not path.is_file():
            return None
        return sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    if scheme in ("postgresql", "postgres"):
        try:
            import psycopg
        except ImportError:
            return None
        plain = "postgresql" + url[url.index(":") :]
        try:
            return psycopg.connect(plain, connect_timeout=3)
        except psycopg.Error:
            return None
    if scheme in ("mysql", "mariadb"):
        return _connect_mysql(url)
    return None


def _connect_mysql(url: str) -> Any:
    """A PyMySQL connection to a MySQL/MariaDB ``url``, or ``None``."""
    try:
        import pymysql
    except ImportError:
        return None
    parts = urlsplit(url)
    try:
        return pymysql.connect(
            host=parts.hostname or "localhost",
            port=parts.port or 3306,
            user=unquote(parts.username or ""),
            password=unquote(parts.password or ""),
            database=unquote(parts.path.lstrip("/")),
            charset="utf8mb4",
            connect_timeout=3,
        )
    except pymysql.Error:
        return None


def count_damage(plan: ChangePlan, dest: Path, database_file: str) -> str | None:
    """Refuse (:class:`OutputError`) when the reachable database holds rows the plan's
    data checks find; return a note when it could not count, else ``None``."""
    checks = plan.checks()
    url = project_database_url(dest, database_file)
    if not checks or url is None:
        return None
    connection = _connect(url, dest)
    if connection is None:
        return f"could not reach {shown_url(url)}: the migration will count the rows"
    guard = _guard()
    kernel_checks = [guard.Check(**vars(check)) for check in checks]
    with closing(connection):

        def run(sql: str) -> Sequence[Sequence[object]]:
            cursor = connection.cursor()
            try:
                cursor.execute(sql)
                return cursor.fetchall()
            finally:
                cursor.close()

        try:
            dialect = guard.dialect_named(url.split(":", 1)[0].split("+", 1)[0])
            findings = guard.find_damage(run, kernel_checks, dialect)
        except Exception as exc:  # not migrated yet, a hand-made schema: say so
            return (
                f"could not count rows in {shown_url(url)} ({exc}); "
                "the migration will count them"
            ).replace("\n", " ")
    if findings:
        what = f"the manifest change, on {shown_url(url)},"
        raise OutputError(guard.describe(findings, what, "nothing was written"))
    return None
