"""``python manage.py set_role EMAIL ROLE``: change what a panel user may do.

``ROLE`` is ``admin`` (made a Django superuser: may do everything) or a role the
manifest declares (``app/roles.py``). The change applies at the user's next request,
sessions and tokens included.
"""

from __future__ import annotations

from argparse import ArgumentParser
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from panel.roles import declared_roles, set_role
from panel.users import find_user
from panel_core.accounts import NewUserError, checked_role, normalize_email


class Command(BaseCommand):
    help = "Give a panel user a role: admin, or one the manifest declares."
    # Changing a role needs the database only, not every secret of the server.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument("email", help="the user's login name")
        parser.add_argument("role", help="admin, or a role the manifest declares")

    def handle(self, *args: Any, **options: Any) -> None:
        email: str = options["email"]
        try:
            role = checked_role(options["role"], declared_roles())
            user = find_user(email)
            if user is None:
                address = normalize_email(email)
                raise CommandError(f"no user has the e-mail address {address}")
            set_role(user, role)
        except NewUserError as exc:
            raise CommandError(str(exc)) from None
        except DatabaseError as exc:
            raise CommandError(f"{exc} (run python manage.py migrate first?)") from None
        self.stdout.write(f"user {user.get_username()} now has role {role}")
