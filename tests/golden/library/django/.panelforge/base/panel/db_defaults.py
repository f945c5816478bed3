"""Values the database computes for a field's ``default_sql`` (Django's ``db_default``).

``now()`` is Django's own ``Now``; ``current_date`` is ``CurrentDate`` below: SQL's
``CURRENT_DATE``, which PostgreSQL, SQLite and MariaDB accept as a column default.
"""

from __future__ import annotations

from django.db import models


class CurrentDate(models.Func):
    """Today's date as the database has it: ``CURRENT_DATE``."""

    template = "CURRENT_DATE"
    output_field = models.DateField()
    allowed_default = True
