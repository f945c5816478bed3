"""``python -m app create-user EMAIL`` and ``set-role EMAIL ROLE``: the panel's users.

The password is never an argument (arguments show in ``ps`` and shell histories): it
is read from standard input with ``--password-stdin``, else asked for twice. The
rules and messages are the kernel's (``panel_core.accounts``); roles are ``admin`` and
those the manifest declares (``app/roles.py``).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from app.core.config import get_settings
from app.core.db import create_db_engine
from app.core.users import (
    NoSuchUser,
    UserExists,
    create_user,
    find_user,
    has_users,
    set_role,
)
from app.roles import ROLES
from panel_core.abilities import Roles
from panel_core.accounts import (
    NewUserError,
    check_new_user,
    checked_role,
    new_user_role,
    normalize_email,
    read_password,
)


class _Failed(Exception):
    """The command failed; the message says why."""


@contextmanager
def _engine() -> Iterator[Engine]:
    engine = create_db_engine(get_settings().database_url)
    try:
        yield engine
    except (NewUserError, UserExists, NoSuchUser) as exc:
        raise _Failed(str(exc)) from None
    except SQLAlchemyError as exc:
        reason = getattr(exc, "orig", None) or exc
        raise _Failed(f"{reason} (run python -m app migrate first?)") from None
    finally:
        engine.dispose()


def _run(command: Callable[[], str]) -> int:
    try:
        print(command())
    except _Failed as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    return 0


def create_user_command(
    email: str, *, name: str, password_stdin: bool, role: str | None = None
) -> int:
    """Run ``create-user``; returns the exit code."""

    def create() -> str:
        with _engine() as engine:
            # What can be refused without the password is, before asking for it.
            if find_user(engine, email) is not None:
                raise UserExists(f"a user with e-mail {normalize_email(email)} exists")
            given = new_user_role(role, Roles(ROLES), first=not has_users(engine))
            password = read_password(password_stdin)
            check_new_user(email, password)
            user = create_user(
                engine, email=email, password=password, name=name, role=given
            )
        return f"created user {user.email} (id {user.id}, role {user.role})"

    return _run(create)


def set_role_command(email: str, role: str) -> int:
    """Run ``set-role``; returns the exit code."""

    def change() -> str:
        with _engine() as engine:
            user = set_role(engine, email, checked_role(role, Roles(ROLES)))
        return f"user {user.email} now has role {user.role}"

    return _run(change)
