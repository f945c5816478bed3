"""Users' roles; every user there already is keeps doing everything (``admin``).

Before roles, every user could do everything: users who are not superusers get the
``admin`` role here, so upgrading locks nobody out. ``manage.py set_role`` changes it.
"""

from __future__ import annotations

from typing import Any

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

ADMIN = "admin"


def everyone_stays_admin(apps: Any, schema_editor: Any) -> None:
    """Give the ``admin`` role to every user who is not a superuser."""
    users = apps.get_model(settings.AUTH_USER_MODEL)._default_manager
    roles = apps.get_model("panel", "PanelRole")._default_manager
    database = schema_editor.connection.alias
    keys = users.using(database).filter(is_superuser=False).values_list("pk", flat=True)
    roles.using(database).bulk_create(
        roles.model(user_id=key, role=ADMIN) for key in keys.iterator()
    )


class Migration(migrations.Migration):
    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("panel", "0001_initial"),
    ]

    operations = [
        migrations.CreateModel(
            name="PanelRole",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="panel_role",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("role", models.CharField(max_length=64)),
            ],
            options={"db_table": "panel_user_roles"},
        ),
        migrations.RunPython(everyone_stays_admin, migrations.RunPython.noop),
    ]
