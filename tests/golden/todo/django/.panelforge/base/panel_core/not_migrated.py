"""The answer while the database is behind the code: 503 and the command to run.

A request that fails on a database error while migrations are pending (the code was
updated, ``migrate`` not run yet, or a migration failed half-way) is not a bug in the
panel: it is answered ``503 Service Unavailable`` with ``Retry-After`` and the command
that fixes it, as JSON ``{"message": …}`` or as the error page. Each framework decides
when the database is behind (Alembic's revisions, Django's migration plan) and names
its own command; the message and the status are the same for both.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import PanelError
from .translation import gettext

# Seconds a client is asked to wait: long enough for a deploy script to migrate.
RETRY_AFTER = 30


class NotMigrated(PanelError):
    """The database lacks migrations the code needs; ``command`` applies them."""

    status_code = 503

    def __init__(self, command: str) -> None:
        message = gettext("The database is not migrated: run `%(command)s`.")
        super().__init__(message % {"command": command})
        self.command = command
        self.headers = {"Retry-After": str(RETRY_AFTER)}


def pending_warning(command: str, pending: Sequence[str]) -> str:
    """The start-up warning: how many migrations are pending, which, and the command."""
    count = len(pending)
    noun = "migration" if count == 1 else "migrations"
    return (
        f"The database is not migrated ({count} pending {noun}: "
        f"{', '.join(pending)}): run `{command}`. Until then, requests that need "
        "the new schema are answered 503."
    )
