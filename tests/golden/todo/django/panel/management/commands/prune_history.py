"""``python manage.py prune_history --older-than 90d``: forget old changes.

Removes the rows of the history of changes (``panel_history``) made longer ago than
the duration: a number and a unit, ``m``, ``h``, ``d`` or ``w``.
"""

from __future__ import annotations

import datetime
from argparse import ArgumentParser, ArgumentTypeError
from typing import Any

from django.core.management.base import BaseCommand, CommandError
from django.db import DatabaseError

from panel.history import prune
from panel_core.history import parse_age, prune_message


def _age(text: str) -> datetime.timedelta:
    try:
        return parse_age(text)
    except ValueError as exc:
        raise ArgumentTypeError(str(exc)) from None


class Command(BaseCommand):
    help = "Remove the history of changes older than a duration (90d, 12h, 2w)."
    # Pruning needs the database only, not every secret of the server.
    requires_system_checks: list[str] = []

    def add_arguments(self, parser: ArgumentParser) -> None:
        parser.add_argument(
            "--older-than",
            type=_age,
            required=True,
            metavar="DURATION",
            help="a number and a unit: m, h, d or w (90d: 90 days)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        before = datetime.datetime.now(datetime.UTC) - options["older_than"]
        try:
            removed = prune(before)
        except DatabaseError as exc:
            raise CommandError(f"{exc} (run python manage.py migrate first?)") from None
        self.stdout.write(prune_message(removed, before))
