"""The database behind the code: 503 with the command, ``migrate --check``, going back.

The 503 test takes the test database back (``migrate app zero``) and forward again;
the command tests run ``python manage.py migrate`` as a user does, on SQLite files of
their own.
"""

from __future__ import annotations

import logging
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader
from django.test import Client

from app.resources import RESOURCES
from panel.checks import application_or_exit

MANAGE = Path(settings.BASE_DIR) / "manage.py"
URI = RESOURCES[0].uri
NOT_MIGRATED = "The database is not migrated: run `python manage.py migrate`."


def _manage(*args: str, **env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(MANAGE), *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
    )


def _app_migrations() -> list[str]:
    graph = MigrationLoader(None, ignore_no_migrations=True).graph
    (leaf,) = graph.leaf_nodes("app")
    return [name for app, name in graph.forwards_plan(leaf) if app == "app"]


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def warnings_logged() -> Iterator[list[str]]:
    """What the panel warns about on ``panel.migrations`` (``django.setup()``
    configures logging again, so pytest's ``caplog`` would miss it)."""
    handler = _Warnings()
    logger = logging.getLogger("panel.migrations")
    logger.addHandler(handler)
    yield handler.messages
    logger.removeHandler(handler)


@pytest.fixture
def app_unmigrated(transactional_db: None) -> Iterator[None]:
    """The test database without the app's tables (``migrate app zero``), then back."""
    call_command("migrate", "app", "zero", verbosity=0)
    try:
        yield
    finally:
        call_command("migrate", verbosity=0)


@pytest.mark.django_db(transaction=True)
def test_requests_get_503_with_the_command_while_migrations_are_pending(
    app_unmigrated: None, api: Client, warnings_logged: list[str]
) -> None:
    # What config/wsgi.py and config/asgi.py do: the server starts, with a warning.
    assert application_or_exit(lambda: "started") == "started"
    (warning,) = warnings_logged
    assert "`python manage.py migrate`" in warning
    assert f"app.{_app_migrations()[0]}" in warning
    kept = set(connection.introspection.table_names())  # adopted: never dropped
    behind = [r for r in RESOURCES if r.model._meta.db_table not in kept]
    if not behind:  # every table was there before the panel: none is behind
        assert api.get(f"/admin/resource/{URI}/crud").status_code == 200
        return
    uri = behind[0].uri
    listed = api.get(f"/admin/resource/{uri}/crud")
    assert listed.status_code == 503
    assert listed.json() == {"message": NOT_MIGRATED}
    assert listed["Retry-After"].isdigit()
    page = api.get(f"/admin/resource/{uri}/index-page", headers={"Accept": "text/html"})
    assert page.status_code == 503
    assert page["Content-Type"].startswith("text/html")
    assert "python manage.py migrate" in page.content.decode()
    assert page.has_header("Retry-After")

    call_command("migrate", verbosity=0)  # migrated while serving: answered at once
    assert api.get(f"/admin/resource/{uri}/crud").status_code == 200


@pytest.mark.django_db(transaction=True)
def test_database_errors_of_a_migrated_database_stay_500(api: Client) -> None:
    # A table no other refers to: MySQL refuses to drop one that is referred to.
    resource = next(r for r in reversed(RESOURCES) if not r.model._meta.related_objects)
    model = resource.model
    with connection.schema_editor() as editor:
        editor.delete_model(model)  # broken, yet not behind
    try:
        api.raise_request_exception = False
        listed = api.get(f"/admin/resource/{resource.uri}/crud")
        assert listed.status_code == 500
        assert listed.json() == {"message": "Server Error"}
    finally:
        with connection.schema_editor() as editor:
            editor.create_model(model)


def test_migrate_check_lists_pending_migrations_and_writes_nothing(
    tmp_path: Path,
) -> None:
    database = tmp_path / "check.db"
    url = f"sqlite:///{database}"
    first = _app_migrations()[0]
    pending = _manage("migrate", "--check", DATABASE_URL=url)
    assert pending.returncode == 1
    assert "database not migrated" in pending.stdout
    assert f"  app.{first}" in pending.stdout
    assert not database.exists()  # nothing written
    assert _manage("migrate", DATABASE_URL=url).returncode == 0
    current = _manage("migrate", "--check", DATABASE_URL=url)
    assert current.returncode == 0, current.stdout + current.stderr
    assert "database up to date" in current.stdout
    assert _manage("migrate", "app", "zero", DATABASE_URL=url).returncode == 0
    behind = _manage("migrate", "--check", DATABASE_URL=url)
    assert behind.returncode == 1
    assert behind.stdout.count("  app.") == len(_app_migrations())


def test_migrate_to_an_earlier_migration_goes_back(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'back.db'}"
    assert _manage("migrate", DATABASE_URL=url).returncode == 0
    back = _manage("migrate", "app", "zero", DATABASE_URL=url)
    assert back.returncode == 0, back.stderr
    assert f"Unapplying app.{_app_migrations()[0]}... OK" in back.stdout
    again = _manage("migrate", "app", "zero", DATABASE_URL=url)
    assert "No migrations to apply." in again.stdout
    unknown = _manage("migrate", "app", "9999", DATABASE_URL=url)
    assert unknown.returncode == 1
    assert "Cannot find a migration matching '9999'" in unknown.stderr
    assert "Traceback" not in unknown.stderr


def test_database_errors_print_one_error_line(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'no-such-folder' / 'app.db'}"
    failed = _manage("migrate", DATABASE_URL=url)
    assert failed.returncode == 1
    assert "Traceback" not in failed.stderr
    reason = f"the folder {tmp_path / 'no-such-folder'} does not exist"
    expected = f"error: cannot reach the database at {url}: {reason}"
    assert failed.stderr.strip() == expected


REFUSING = """from django.db import migrations

from panel_core.migration_guard import MigrationRefused


def refuse(apps, schema_editor):
    raise MigrationRefused("3 rows of books.title are longer than 10 characters")


class Migration(migrations.Migration):
    dependencies = [("app", "{leaf}")]
    operations = [migrations.RunPython(refuse, migrations.RunPython.noop)]
"""


def test_a_refusing_migration_prints_one_error_line(tmp_path: Path) -> None:
    # The app's migrations plus a hand-written one, through MIGRATION_MODULES.
    package = tmp_path / "refusing_migrations"
    package.mkdir()
    (package / "__init__.py").write_text("")
    source = Path(settings.BASE_DIR) / "app" / "migrations"
    for migration in source.glob("[0-9]*.py"):
        (package / migration.name).write_text(migration.read_text())
    leaf = _app_migrations()[-1]
    (package / "9999_refuse.py").write_text(REFUSING.format(leaf=leaf))
    (tmp_path / "refusing_settings.py").write_text(
        "from config.settings import *  # noqa: F403\n"
        'MIGRATION_MODULES = {"app": "refusing_migrations"}\n'
    )
    env = {
        "DATABASE_URL": f"sqlite:///{tmp_path / 'refused.db'}",
        "DJANGO_SETTINGS_MODULE": "refusing_settings",
        "PYTHONPATH": os.pathsep.join([str(tmp_path), str(settings.BASE_DIR)]),
    }
    refused = _manage("migrate", **env)
    assert refused.returncode == 1
    assert "Traceback" not in refused.stderr
    assert refused.stderr.splitlines()[-1] == (
        "error: 3 rows of books.title are longer than 10 characters"
    )
    assert "Applying app.9999_refuse... FAILED" in refused.stdout
    check = _manage("migrate", "--check", **env)
    assert check.returncode == 1
    assert "  app.9999_refuse" in check.stdout
