"""The login throttle's and the revoked tokens' tables."""

from __future__ import annotations

from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies: list[tuple[str, str]] = []

    operations = [
        migrations.CreateModel(
            name="LoginAttempt",
            fields=[
                (
                    "key",
                    models.CharField(max_length=64, primary_key=True, serialize=False),
                ),
                ("attempts", models.IntegerField()),
                ("expires_at", models.BigIntegerField(db_index=True)),
            ],
            options={"db_table": "panel_login_attempts"},
        ),
        migrations.CreateModel(
            name="RevokedToken",
            fields=[
                (
                    "jti",
                    models.CharField(max_length=64, primary_key=True, serialize=False),
                ),
                ("expires_at", models.BigIntegerField(db_index=True)),
            ],
            options={"db_table": "panel_revoked_tokens"},
        ),
    ]
