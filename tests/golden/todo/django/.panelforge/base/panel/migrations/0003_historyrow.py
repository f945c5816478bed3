"""The history of changes: one row per record created, updated or deleted."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("panel", "0002_panelrole"),
    ]

    operations = [
        migrations.CreateModel(
            name="HistoryRow",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True,
                        primary_key=True,
                        serialize=False,
                        verbose_name="ID",
                    ),
                ),
                ("at", models.DateTimeField(db_index=True)),
                ("user_id", models.CharField(max_length=64, null=True)),
                ("user_login", models.CharField(max_length=254)),
                ("resource", models.CharField(max_length=100)),
                ("record_key", models.CharField(max_length=200)),
                ("record_label", models.CharField(max_length=200)),
                ("action", models.CharField(max_length=20)),
                ("changes", models.TextField()),
            ],
            options={
                "db_table": "panel_history",
                "indexes": [
                    models.Index(
                        fields=["resource", "record_key", "at"],
                        name="panel_history_record",
                    )
                ],
            },
        ),
    ]
