"""The database behind the code: 503 with the command, ``migrate --check``, going back.

Each test migrates a database of its own, so that taking it back to an earlier
revision leaves the other tests' database alone.
"""

from __future__ import annotations

import logging
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, inspect

import app.core.migrations as migrations
from app.__main__ import main
from app.core.config import Settings, get_settings
from app.core.migration_state import script_directory
from app.core.migrations import upgrade
from app.core.models import Base
from app.core.users import create_user
from app.main import create_app
from tests.adopted_tables import adopted_tables, create_adopted_tables
from tests.conftest import JWT_SECRET, SECRET_KEY
from tests.helpers import EMAIL, PASSWORD, authorize

# The panel's own revisions: the users, then the logins' tables. Every resource
# table comes in a later revision.
BEFORE_RESOURCES = "0000c"
NOT_MIGRATED = "The database is not migrated: run `python -m app migrate`."


def _head() -> str:
    (head,) = script_directory().get_heads()
    return head


def _tables(url: str) -> set[str]:
    engine = create_engine(url)
    try:
        return set(inspect(engine).get_table_names())
    finally:
        engine.dispose()


class _Warnings(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@pytest.fixture
def warnings_logged() -> Iterator[list[str]]:
    """What the app warns about on ``app.migrations`` (Alembic replaces the root's
    handlers when it migrates, so pytest's ``caplog`` would miss it)."""
    handler = _Warnings()
    logger = logging.getLogger("app.migrations")
    logger.addHandler(handler)
    yield handler.messages
    logger.removeHandler(handler)


@pytest.fixture
def cli_database_url(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    """DATABASE_URL set to a fresh SQLite file, as a user would set it."""
    url = f"sqlite:///{tmp_path / 'cli.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    yield url
    get_settings.cache_clear()


def test_requests_get_503_with_the_command_while_migrations_are_pending(
    tmp_path: Path, warnings_logged: list[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'behind.db'}"
    create_adopted_tables(url)  # there before the panel, if any
    upgrade(url, BEFORE_RESOURCES)  # the code has resources the database lacks
    settings = Settings(database_url=url, secret_key=SECRET_KEY, jwt_secret=JWT_SECRET)
    application = create_app(settings)
    adopted = {table.name for table in adopted_tables()}
    panels = list(application.state.registry)
    created = [p for p in panels if type(p.resource).model.__tablename__ not in adopted]
    try:
        with TestClient(application, headers={"Accept": "application/json"}) as client:
            (warning,) = warnings_logged  # at start-up, naming the command
            assert "not migrated" in warning and "`python -m app migrate`" in warning
            create_user(application.state.engine, email=EMAIL, password=PASSWORD)
            authorize(client, EMAIL, PASSWORD)
            if not created:  # every table was there before the panel: none behind
                assert client.get(panels[0].crud_url).status_code == 200
                return
            panel = created[0]
            listed = client.get(panel.crud_url)
            assert listed.status_code == 503
            assert listed.json() == {"message": NOT_MIGRATED}
            assert listed.headers["Retry-After"].isdigit()
            page_url = f"/admin/resource/{panel.uri}/index-page"
            page = client.get(page_url, headers={"Accept": "text/html"})
            assert page.status_code == 503
            assert page.headers["content-type"].startswith("text/html")
            assert "python -m app migrate" in page.text
            assert "Retry-After" in page.headers

            upgrade(url)  # migrated while the app runs: answered at once
            assert client.get(panel.crud_url).status_code == 200
    finally:
        application.state.engine.dispose()


def test_database_errors_of_a_migrated_database_stay_500(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'broken.db'}"
    create_adopted_tables(url)
    upgrade(url)
    settings = Settings(database_url=url, secret_key=SECRET_KEY, jwt_secret=JWT_SECRET)
    application = create_app(settings)
    panel = next(iter(application.state.registry))
    engine = create_engine(url)
    type(panel.resource).model.__table__.drop(engine)  # broken, yet not behind
    engine.dispose()
    try:
        with TestClient(
            application,
            headers={"Accept": "application/json"},
            raise_server_exceptions=False,
        ) as client:
            create_user(application.state.engine, email=EMAIL, password=PASSWORD)
            authorize(client, EMAIL, PASSWORD)
            listed = client.get(panel.crud_url)
            assert listed.status_code == 500
            assert listed.json() == {"message": "Server Error"}
    finally:
        application.state.engine.dispose()


def test_an_up_to_date_database_starts_without_a_warning(
    tmp_path: Path, warnings_logged: list[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'current.db'}"
    upgrade(url)
    settings = Settings(database_url=url, secret_key=SECRET_KEY, jwt_secret=JWT_SECRET)
    application = create_app(settings)
    try:
        with TestClient(application):
            pass
        assert warnings_logged == []
        assert application.state.migrations.up_to_date is True
    finally:
        application.state.engine.dispose()


def test_migrate_check_lists_pending_revisions_and_writes_nothing(
    cli_database_url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate", "--check"]) == 1
    out = capsys.readouterr().out
    assert "database not migrated" in out and f"  {_head()}" in out
    assert not (tmp_path / "cli.db").exists()  # nothing written
    assert main(["migrate", "--revision", BEFORE_RESOURCES]) == 0
    capsys.readouterr()
    assert main(["migrate", "--check"]) == 1
    out = capsys.readouterr().out
    assert f"  {_head()}" in out and f"  {BEFORE_RESOURCES} " not in out
    assert main(["migrate"]) == 0
    assert main(["migrate", "--check"]) == 0
    assert f"database up to date (at {_head()})" in capsys.readouterr().out


def test_migrate_to_an_earlier_revision_goes_down(
    cli_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate"]) == 0
    head = _head()
    assert f"database migrated up from base to {head}" in capsys.readouterr().out
    resource_tables = _tables(cli_database_url) - _panel_tables()
    assert resource_tables == _created_resource_tables()
    assert main(["migrate", "--revision", BEFORE_RESOURCES]) == 0
    out = capsys.readouterr().out
    assert f"database migrated down from {head} to {BEFORE_RESOURCES}" in out
    assert not resource_tables & _tables(cli_database_url)
    assert main(["migrate", "--revision", BEFORE_RESOURCES]) == 0
    assert f"database already at {BEFORE_RESOURCES}" in capsys.readouterr().out
    assert main(["migrate", "--revision", "head"]) == 0
    assert resource_tables <= _tables(cli_database_url)


def test_migrate_to_an_unknown_revision_changes_nothing(
    cli_database_url: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["migrate"]) == 0
    assert main(["migrate", "--revision", "no-such-revision"]) == 1
    err = capsys.readouterr().err
    assert err.splitlines()[-1].startswith("error: unknown revision 'no-such-revision'")
    assert main(["migrate", "--check"]) == 0


def test_database_errors_print_one_error_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'no-such-folder' / 'app.db'}"
    monkeypatch.setenv("DATABASE_URL", url)
    get_settings.cache_clear()
    try:
        assert main(["migrate"]) == 1
    finally:
        get_settings.cache_clear()
    err = capsys.readouterr().err
    assert "Traceback" not in err
    folder = tmp_path / "no-such-folder"
    reason = f"the folder {folder} does not exist"
    assert (
        err.splitlines()[-1] == f"error: cannot reach the database at {url}: {reason}"
    )


REFUSING = '''"""Refuse, as a data check does when rows would be damaged.

Revision ID: 9999
Revises: {head}
"""

from panel_core.migration_guard import MigrationRefused

revision = "9999"
down_revision = "{head}"
branch_labels = None
depends_on = None


def upgrade() -> None:
    raise MigrationRefused("3 rows of books.title are longer than 10 characters")


def downgrade() -> None:
    pass
'''


@pytest.fixture
def refusing_migration(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[None]:
    """The project's migrations plus a hand-written one that refuses to run."""
    project = migrations.PROJECT_DIR
    copy = tmp_path / "project"
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(project / "migrations", copy / "migrations", ignore=ignore)
    shutil.copy(project / "alembic.ini", copy / "alembic.ini")
    versions = copy / "migrations" / "versions"
    (versions / "9999_refuse.py").write_text(REFUSING.format(head=_head()))
    monkeypatch.setattr(migrations, "PROJECT_DIR", copy)
    script_directory.cache_clear()
    yield
    script_directory.cache_clear()


def test_a_refusing_migration_prints_one_error_line(
    cli_database_url: str,
    refusing_migration: None,
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["migrate"]) == 1
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.splitlines()[-1] == (
        "error: 3 rows of books.title are longer than 10 characters"
    )
    assert main(["migrate", "--check"]) == 1  # still pending: nothing was applied
    assert "9999" in capsys.readouterr().out


def _created_resource_tables() -> set[str]:
    """The tables the resources' migrations create: all but the adopted ones."""
    adopted = {table.name for table in adopted_tables()}
    declared = {table.name for table in Base.metadata.sorted_tables}
    return declared - adopted - _panel_tables()


def _panel_tables() -> set[str]:
    return {
        "alembic_version",
        "panel_users",
        "panel_login_attempts",
        "panel_revoked_tokens",
        "panel_history",
    }
