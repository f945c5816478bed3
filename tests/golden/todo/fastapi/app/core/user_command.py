"""``python -m app create-user EMAIL``: add someone who may log into the panel.

The password is never an argument (arguments show in ``ps`` and shell histories): it
is read from standard input with ``--password-stdin``, else asked for twice.
"""

from __future__ import annotations

import getpass
import sys

from sqlalchemy.exc import SQLAlchemyError

from app.core.config import get_settings
from app.core.db import create_db_engine
from app.core.passwords import MAX_PASSWORD_BYTES, is_too_long
from app.core.users import UserExists, create_user, normalize_email

MIN_PASSWORD_LENGTH = 8


class CommandError(ValueError):
    """A problem the user can fix; the message says which."""


def read_password(from_stdin: bool) -> str:
    """The new password: stdin's first line, or typed twice at a prompt."""
    if from_stdin:
        return sys.stdin.readline().removesuffix("\n").removesuffix("\r")
    password = getpass.getpass("Password: ")
    if getpass.getpass("Password (again): ") != password:
        raise CommandError("the passwords differ")
    return password


def check_new_user(email: str, password: str) -> None:
    """Refuse an address that is not one, and a password too short or too long."""
    address = normalize_email(email)
    if address.count("@") != 1 or address.startswith("@") or address.endswith("@"):
        raise CommandError(f"'{email}' is not an e-mail address")
    if len(password) < MIN_PASSWORD_LENGTH:
        raise CommandError(
            f"the password must be at least {MIN_PASSWORD_LENGTH} characters"
        )
    if is_too_long(password):
        raise CommandError(f"the password must be at most {MAX_PASSWORD_BYTES} bytes")


def create_user_command(email: str, *, name: str, password_stdin: bool) -> int:
    """Run ``create-user``; returns the exit code."""
    engine = create_db_engine(get_settings().database_url)
    try:
        password = read_password(password_stdin)
        check_new_user(email, password)
        user = create_user(engine, email=email, password=password, name=name)
    except (CommandError, UserExists) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 1
    except SQLAlchemyError as exc:
        reason = getattr(exc, "orig", None) or exc
        print(f"error: {reason} (run python -m app migrate first?)", file=sys.stderr)
        return 1
    finally:
        engine.dispose()
    print(f"created user {user.email} (id {user.id})")
    return 0
