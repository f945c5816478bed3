"""Migrating on MariaDB/MySQL, whose DDL commits at once and never rolls back.

A migration that fails partway keeps what it applied: ``migrate`` says so and what to
do, and the next ``migrate`` resumes at the statement that failed (the applied ones
are not run again, which would fail on "Duplicate column name"). A database that does
not store utf8mb4 with the binary collation is refused before any change, with the
statement that fixes it. Skipped with a reason when no MariaDB/MySQL server answers.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from conformance.support import Database
from conftest import SERVERS, mariadb_admin, mariadb_database, sqlalchemy_url

pytestmark = [pytest.mark.e2e, pytest.mark.mariadb]

COMMANDS = {"fastapi": "python -m app migrate", "django": "python manage.py migrate"}
# A migration after the example's own: two columns, then a statement that fails
# until the table ``resume_gate`` exists, then a third column.
ALEMBIC_STEP = '''\
"""A change that fails halfway."""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tasks", sa.Column("a", sa.Integer(), nullable=True))
    op.add_column("tasks", sa.Column("b", sa.Integer(), nullable=True))
    op.execute("INSERT INTO resume_gate (x) VALUES (1)")
    op.add_column("tasks", sa.Column("c", sa.Integer(), nullable=True))


def downgrade() -> None:
    op.drop_column("tasks", "c")
    op.drop_column("tasks", "b")
    op.drop_column("tasks", "a")
'''
DJANGO_STEP = '''\
"""A change that fails halfway."""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("app", "0001_initial")]

    operations = [
        migrations.AddField("task", "a", models.IntegerField(null=True)),
        migrations.AddField("task", "b", models.IntegerField(null=True)),
        migrations.RunSQL("INSERT INTO resume_gate (x) VALUES (1)"),
        migrations.AddField("task", "c", models.IntegerField(null=True)),
    ]
'''


def _migrate(project: Path, framework: str, url: str) -> subprocess.CompletedProcess:
    server = SERVERS[framework](project, url)
    command = server.command("migrate", *(["--no-input"] * (framework == "django")))
    return subprocess.run(
        command,
        cwd=project,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _add_failing_step(project: Path, framework: str) -> None:
    if framework == "fastapi":
        (project / "migrations/versions/0002_halfway.py").write_text(ALEMBIC_STEP)
    else:
        (project / "app/migrations/0002_halfway.py").write_text(DJANGO_STEP)


@pytest.mark.parametrize("framework", ["fastapi", "django"])
def test_a_migration_that_fails_partway_is_reported_and_resumed(
    framework: str, generated, fresh_copy
) -> None:
    project = fresh_copy(generated("todo", framework))
    _add_failing_step(project, framework)
    with mariadb_database() as url:
        failed = _migrate(project, framework, url)
        assert failed.returncode == 1, failed.stdout + failed.stderr
        assert "Traceback" not in failed.stderr
        assert "resume_gate" in failed.stderr
        assert "stopped after 2 statements, which stay applied" in failed.stderr
        assert f"run `{COMMANDS[framework]}` again: it resumes" in failed.stderr
        database = Database(url)
        columns = {row[0] for row in database.execute("SHOW COLUMNS FROM tasks")}
        assert {"a", "b"} <= columns and "c" not in columns

        database.execute("CREATE TABLE resume_gate (x INT)")
        resumed = _migrate(project, framework, url)
        assert resumed.returncode == 0, resumed.stdout + resumed.stderr
        columns = {row[0] for row in database.execute("SHOW COLUMNS FROM tasks")}
        assert {"a", "b", "c"} <= columns
        assert database.execute("SELECT x FROM resume_gate") == [(1,)]
        assert database.execute("SELECT * FROM panel_migration_progress") == []


@pytest.mark.parametrize("framework", ["fastapi", "django"])
def test_a_database_without_utf8mb4_bin_is_refused_before_any_change(
    framework: str, generated
) -> None:
    project = generated("todo", framework)
    with mariadb_database() as url:
        name = url.rsplit("/", 1)[1]
        mariadb_admin(f"ALTER DATABASE `{name}` CHARACTER SET latin1")
        # The SQLAlchemy spelling of the URL works as well as mysql://.
        refused = _migrate(project, framework, sqlalchemy_url(url))
        assert refused.returncode == 1, refused.stdout + refused.stderr
        assert refused.stderr == (
            f"error: the database {name} stores latin1 (latin1_swedish_ci), and the"
            " panel's tables need utf8mb4 with utf8mb4_bin\n"
            f"  hint: run ALTER DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE"
            " utf8mb4_bin; (no table changes), then migrate again\n"
        )
        assert Database(url).execute("SHOW TABLES") == []
