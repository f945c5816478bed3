"""``manage.py migrate``, Django's, with clean failures and a ``--check`` that lists.

- ``--check`` changes nothing (not even an SQLite file that does not exist yet): it
  lists the pending migrations and exits 1, or says the database is up to date and
  exits 0, for CI and deploy scripts. With an app label or ``--plan``, Django's own
  ``--check`` answers (exit 1, no list).
- A migration that refuses to run (``MigrationRefused``: rows the change would damage)
  and database errors are printed as one ``error:`` line on stderr, exit 1, without a
  traceback; a database that does not answer is named first (``DATABASE_URL`` without
  its password) with the problem.
- On MySQL/MariaDB, a database that does not store utf8mb4_bin is refused before any
  change, and a migration that fails partway says what stays applied; the next run
  resumes it (``panel.mysql.progress``).
- Going back is Django's: ``manage.py migrate app 0001`` unapplies the later
  migrations of ``app`` (``zero``: all of them).
"""

from __future__ import annotations

from typing import Any, NoReturn

from django.conf import settings
from django.core.management.commands.migrate import Command as DjangoMigrate
from django.db import DatabaseError, connections

from panel.mysql.progress import Progress, database_charset_problem
from panel.not_migrated import MIGRATE_COMMAND, pending_migrations
from panel.unavailable import database_problem
from panel_core.migration_guard import MigrationRefused, existing_table_hint
from panel_core.mysql import resume_hint
from panel_core.unavailable import unreachable

_STARTS = frozenset({"apply_start", "unapply_start", "render_start"})
# Where a migration's counted statements begin, and where they are recorded.
_MOVES = {"apply_start": "", "unapply_start": "unapply "}
_DONE = frozenset({"apply_success", "unapply_success"})


class Command(DjangoMigrate):
    """Django's ``migrate``; ``--check`` lists, refusals and errors are one line."""

    help = (
        "Updates database schema, or takes it back to an earlier migration "
        "(migrate APP NAME; zero: all). --check lists what is pending, exit 1."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        """Migrate, or check; failures are ``error:`` lines and exit status 1."""
        self._line_open = False
        self._progress: Progress | None = None
        problem = database_problem(options["database"])
        if problem is not None:
            self._fail(unreachable(settings.DATABASE_URL, problem))
        try:
            if options["check_unapplied"] and not (
                options["app_label"] or options["plan"]
            ):
                self._check(options["database"])
                return
            self._progress = self._resumable(options["database"])
            super().handle(*args, **options)
        except MigrationRefused as exc:
            self._fail(exc.message)
        except DatabaseError as exc:
            hint = existing_table_hint(str(exc)) + self._resume_hint()
            self._fail(f"migration failed: {exc}{hint}")

    def migration_progress_callback(
        self, action: str, migration: Any = None, fake: bool = False
    ) -> None:
        """Django's progress lines; remembers one left open ("Applying x...")."""
        self._line_open = action in _STARTS
        if self._progress is not None and action in _MOVES:
            self._progress.start(_MOVES[action] + str(migration))
        elif self._progress is not None and action in _DONE:
            self._progress.applied()
        super().migration_progress_callback(action, migration, fake)

    def _resumable(self, database: str) -> Progress | None:
        """On MySQL: the charset checked, and statements counted (else ``None``)."""
        connection = connections[database]
        if connection.vendor != "mysql":
            return None
        problem = database_charset_problem(connection)
        if problem is not None:
            self._fail(problem)
        connection.panel_progress = Progress(connection)  # type: ignore[attr-defined]
        return connection.panel_progress  # type: ignore[attr-defined,no-any-return]

    def _resume_hint(self) -> str:
        found = self._progress.interrupted() if self._progress is not None else None
        if found is None:
            return ""
        return resume_hint(f"migration {found[0]}", found[1], MIGRATE_COMMAND)

    def _check(self, database: str) -> None:
        pending = pending_migrations(database)
        if not pending:
            self.stdout.write("database up to date")
            return
        noun = "migration" if len(pending) == 1 else "migrations"
        self.stdout.write(f"database not migrated: {len(pending)} pending {noun}")
        for name in pending:
            self.stdout.write(f"  {name}")
        self.stdout.write(f"run `{MIGRATE_COMMAND}` to apply them")
        raise SystemExit(1)

    def _fail(self, message: str) -> NoReturn:
        if self._line_open and self.verbosity > 0:
            self.stdout.write(" FAILED")  # ends "  Applying app.0002_...…"
        self.stderr.write(f"error: {message}")
        raise SystemExit(1)
