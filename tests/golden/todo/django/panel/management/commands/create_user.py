"""``python manage.py create_user EMAIL``: add someone who may log into the panel.

The password is never an argument (arguments show in ``ps`` and shell histories): it
is read from standard input with ``--password-stdin``, else asked for twice. The
rules and messages are those of panelforge's FastAPI panels (``panel_core.accounts``).
``--role`` gives the user a role (``admin``, a Django superuser, or one the manifest
declares); the first user is ``admin`` without it, later ones need it once the
manifest declares roles.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from panel.roles import declared_roles
from panel.users import UserExists, create_user, has_users
from panel_core.accounts import (
    NewUserError,
    add_new_user_arguments,
    check_new_user,
    new_user_role,
    read_password,
)


class Command(BaseCommand):
    help = "Add a user who may log into the panel (asks for the password)."
    # Adding a user needs the database only, not every secret of the server.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: ArgumentParser) -> None:
        add_new_user_arguments(parser)

    def handle(self, *args: Any, **options: Any) -> None:
        email: str = options["email"]
        try:
            role = new_user_role(
                options["role"], declared_roles(), first=not has_users()
            )
            password = read_password(options["password_stdin"])
            check_new_user(email, password)
            user = create_user(
                email=email, password=password, role=role, name=options["name"]
            )
        except (NewUserError, UserExists) as exc:
            raise CommandError(str(exc)) from None
        except DatabaseError as exc:
            raise CommandError(f"{exc} (run python manage.py migrate first?)") from None
        self.stdout.write(
            f"created user {user.get_username()} (id {user.pk}, role {role})"
        )
