"""``python -m app create-user EMAIL``: add someone who may log into the panel.

The password is never an argument (arguments show in ``ps`` and shell histories): it
is read from standard input with ``--password-stdin``, else asked for twice. The
rules and messages are the kernel's (``panel_core.accounts``).
"""

from __future__ import annotations

import sys

from sqlalchemy.exc import SQLAlchemyError

from app.core.config import get_settings
from app.core.db import create_db_engine
from app.core.users import UserExists, create_user
from panel_core.accounts import NewUserError, check_new_user, read_password


def create_user_command(email: str, *, name: str, password_stdin: bool) -> int:
    """Run ``create-user``; returns the exit code."""
    engine = create_db_engine(get_settings().database_url)
    try:
        password = read_password(password_stdin)
        check_new_user(email, password)
        user = create_user(engine, email=email, password=password, name=name)
    except (NewUserError, UserExists) as exc:
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
