"""``python manage.py jwt_secret``: print a new JWT_SECRET (32 random bytes, base64)."""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from panel_core.tokens import make_secret


class Command(BaseCommand):
    help = "Print a new JWT_SECRET (32 random bytes, base64)."
    # Making a secret must work while the current one is missing or unusable.
    requires_system_checks: list[str] = []

    def handle(self, *args: Any, **options: Any) -> None:
        self.stdout.write(make_secret())
