"""Whether the database is behind the code: Alembic revisions not applied yet.

The app asks once at start-up (a warning naming the command, see ``app.main``) and
again only when a request fails on a database error (``app.panel.not_migrated``):
requests that succeed cost nothing. The question is one ``SELECT`` of
``alembic_version`` compared with the revisions in ``migrations/versions/``, which are
read once per process. ``python -m app migrate --check`` asks the same question.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from alembic.runtime.migration import MigrationContext
from alembic.script import Script, ScriptDirectory
from alembic.script.revision import RevisionError
from alembic.util import CommandError
from sqlalchemy import Engine
from sqlalchemy.engine import make_url

from app.core.migrations import alembic_config
from panel_core.not_migrated import pending_warning

MIGRATE_COMMAND = "python -m app migrate"


class UnknownRevision(Exception):
    """The database is at a revision ``migrations/versions/`` does not have."""


@lru_cache(maxsize=1)
def script_directory() -> ScriptDirectory:
    """The project's revisions, read once per process (they change with the code)."""
    return ScriptDirectory.from_config(alembic_config())


def missing_sqlite_file(url: str) -> bool:
    """Whether ``url`` names an SQLite file that does not exist (nothing to read)."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite":
        return False
    database = parsed.database or ""
    memory = database in ("", ":memory:") or parsed.query.get("mode") == "memory"
    if memory or database.startswith("file:"):
        return False
    return not Path(database).exists()


def current_revisions(engine: Engine) -> tuple[str, ...]:
    """The revisions the database is at (none when it was never migrated)."""
    if missing_sqlite_file(str(engine.url)):
        return ()
    with engine.connect() as connection:
        return tuple(MigrationContext.configure(connection).get_current_heads())


def applied_revisions(current: tuple[str, ...]) -> set[str]:
    """``current`` and every revision before them."""
    script = script_directory()
    applied: set[str] = set()
    try:
        for head in current:
            applied.update(r.revision for r in script.iterate_revisions(head, "base"))
    except (CommandError, RevisionError) as exc:
        unknown = ", ".join(current)
        raise UnknownRevision(
            f"the database is at revision {unknown}, which migrations/versions/ "
            "does not have (is the code older than the database?)"
        ) from exc
    return applied


def pending_scripts(current: tuple[str, ...]) -> list[Script]:
    """The revisions not applied yet, oldest first."""
    applied = applied_revisions(current)
    every = reversed(list(script_directory().walk_revisions()))
    return [script for script in every if script.revision not in applied]


def pending_revisions(engine: Engine) -> list[str]:
    """The revisions the database lacks, oldest first (empty: up to date)."""
    return [script.revision for script in pending_scripts(current_revisions(engine))]


class MigrationState:
    """Whether migrations are pending, asked at start-up and after database errors."""

    def __init__(self, engine: Engine) -> None:
        self._engine = engine
        self.up_to_date: bool | None = None  # unknown until asked

    def pending(self) -> list[str]:
        """The pending revisions; ``[]`` too when the question cannot be answered."""
        try:
            found = pending_revisions(self._engine)
        except Exception:  # noqa: BLE001  (unreachable database, unknown revision…)
            return []
        self.up_to_date = not found
        return found

    def startup_warning(self) -> str | None:
        """What to warn about at start-up: pending or unknown revisions, if any."""
        try:
            found = pending_revisions(self._engine)
        except UnknownRevision as exc:
            return f"{exc}; run `{MIGRATE_COMMAND} --check` to see where it stands."
        except Exception:  # noqa: BLE001  (the requests will say what is wrong)
            return None
        self.up_to_date = not found
        return pending_warning(MIGRATE_COMMAND, found) if found else None

    def behind(self) -> bool:
        """Whether the database lacks revisions the code has (asked again each time)."""
        return bool(self.pending())
