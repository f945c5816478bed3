"""``python -m app migrate``: up or down to a revision, or ``--check`` what is pending.

``--revision`` names where the database should be: later than where it is, the
migrations run up to it; earlier, they run down (dropping what the later ones added,
with its data); the same, nothing happens. Each run says what it did. ``--check``
changes nothing: it lists the pending revisions and exits 1, or exits 0 when the
database is up to date (for CI and deploy scripts). A migration that refuses to run
(``MigrationRefused``: rows the change would damage) and database errors are printed
as one ``error:`` line, exit 1, no traceback; a database that does not answer is
named first (its URL without the password) with the problem.
"""

from __future__ import annotations

import sys

from alembic.script.revision import RevisionError
from alembic.util import CommandError
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from app.core.config import get_settings
from app.core.db import create_db_engine, database_problem
from app.core.migration_state import (
    MIGRATE_COMMAND,
    UnknownRevision,
    applied_revisions,
    current_revisions,
    pending_scripts,
    script_directory,
)
from app.core.migrations import downgrade, upgrade
from app.core.mysql_migrations import charset_problem, interrupted, is_mysql
from panel_core.migration_guard import MigrationRefused, existing_table_hint
from panel_core.mysql import resume_hint
from panel_core.unavailable import unreachable

BASE = "base"


def _describe(current: tuple[str, ...]) -> str:
    return ", ".join(current) if current else BASE


def _target(revision: str) -> str:
    """The revision id ``revision`` names (``head``, ``base``, an id or its prefix)."""
    script = script_directory()
    if revision == BASE:
        return BASE
    if revision in ("head", "heads"):
        heads = script.get_heads()
        if len(heads) != 1:
            raise CommandError(f"the migrations have several heads: {heads}")
        return heads[0]
    try:
        found = script.get_revision(revision)
    except (CommandError, RevisionError) as exc:
        raise CommandError(_unknown(revision)) from exc
    if found is None:
        raise CommandError(_unknown(revision))
    return found.revision


def _unknown(revision: str) -> str:
    return f"unknown revision {revision!r} (not in migrations/versions/)"


def _check(current: tuple[str, ...]) -> int:
    pending = pending_scripts(current)
    if not pending:
        print(f"database up to date (at {_describe(current)})")
        return 0
    noun = "migration" if len(pending) == 1 else "migrations"
    print(f"database not migrated: {len(pending)} pending {noun}")
    width = max(len(script.revision) for script in pending)
    for script in pending:
        summary = (script.doc or "").strip().splitlines()
        line = f"  {script.revision:<{width}}  {summary[0] if summary else ''}"
        print(line.rstrip())
    print(f"run `{MIGRATE_COMMAND}` to apply them")
    return 1


def _resume_hint(engine: Engine) -> str:
    """On MySQL/MariaDB, after a failure: what stays applied, and how to go on."""
    if not is_mysql(engine) or (found := interrupted(engine)) is None:
        return ""
    start, statements = found
    return resume_hint(f"the migration after {start}", statements, MIGRATE_COMMAND)


def _move(url: str, current: tuple[str, ...], revision: str) -> str:
    target = _target(revision)
    applied = applied_revisions(current)
    if (target == BASE and not current) or current == (target,):
        return f"database already at {target}"
    if target == BASE or target in applied:
        downgrade(url, target)
        return f"database migrated down from {_describe(current)} to {target}"
    upgrade(url, target)
    return f"database migrated up from {_describe(current)} to {target}"


def migrate_command(revision: str = "head", *, check: bool = False) -> int:
    """Run ``migrate`` (or ``migrate --check``); returns the exit code."""
    url = get_settings().database_url
    engine = create_db_engine(url)
    try:
        problem = database_problem(engine)
        if problem is not None:
            print(f"error: {unreachable(url, problem)}", file=sys.stderr)
            return 1
        current = current_revisions(engine)
        if check:
            return _check(current)
        if is_mysql(engine) and (problem := charset_problem(engine)) is not None:
            print(f"error: {problem}", file=sys.stderr)
            return 1
        print(_move(url, current, revision))
    except (MigrationRefused, CommandError, UnknownRevision) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except SQLAlchemyError as exc:
        reason = getattr(exc, "orig", None) or exc
        hint = existing_table_hint(str(reason)) + _resume_hint(engine)
        print(f"error: migration failed: {reason}{hint}", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    return 0
