"""Regenerating a Django project: the models change, a Django migration follows.

A manifest change adds ``app/migrations/000N_<what>.py`` (Django's declarative
operations, written from the same field declarations as the models), so that
``manage.py makemigrations --check`` finds nothing left to do and ``manage.py migrate``
brings a database holding rows forward, and back, with the rows kept. After every
scenario Django's own checks pass too (``django_checks``).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import httpx
import pytest
from conftest import FRAMEWORKS, REPO, DjangoServer, project_env, run_panelforge

pytestmark = [
    pytest.mark.e2e,
    pytest.mark.skipif("django" not in FRAMEWORKS, reason="Django target is off"),
]

LIBRARY = (REPO / "examples" / "library.yaml").read_text()
PAGES = "      pages: {type: integer, minimum: 1, maximum: 10000}\n"
SUBTITLE = '      subtitle: {type: string, maxLength: 80, default: "none yet"}\n'
ROWS = """
from app.models import Author, Book
author = Author.objects.create(name="Ann Leckie")
Book.objects.create(title="Ancillary Justice", isbn="9780316246620", author=author)
Book.objects.create(title="Ancillary Sword", isbn="9780316246651", pages=356)
"""


def edited(*replacements: tuple[str, str]) -> str:
    text = LIBRARY
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


def manage(project: Path, database_url: str, *args: str, stdin: str | None = None):
    result = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=project,
        env=project_env(project, database_url),
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


# What the emitted project's tests/test_checks.py runs: the production environment.
PRODUCTION = {
    "SECRET_KEY": "production-like-" + "k" * 20 + "0123456789abcdefghijklmnop",
    "ALLOWED_HOSTS": "panel.example.com",
    "DEBUG": "0",
}
# The warnings its README explains (check --deploy), for a session-mode project.
EXPLAINED = {"security.W005", "security.W008", "security.W012", "security.W021"}


def django_checks(project: Path, database_url: str) -> None:
    """``makemigrations --check`` finds nothing missing, and ``check --deploy`` with
    the production environment reports only what the README explains."""
    manage(project, database_url, "makemigrations", "--check", "--dry-run")
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy"],
        cwd=project,
        env={**project_env(project, database_url), **PRODUCTION},
        capture_output=True,
        text=True,
        timeout=120,
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert set(re.findall(r"\(([a-z_]+\.[A-Z]\d{3})\)", output)) == EXPLAINED, output


def query(project: Path, database_url: str, sql: str) -> list[list]:
    code = (
        "import json\nfrom django.db import connection\n"
        "with connection.cursor() as cursor:\n"
        f"    cursor.execute({sql!r})\n"
        "    print(json.dumps([list(row) for row in cursor.fetchall()]))\n"
    )
    return json.loads(manage(project, database_url, "shell", "-v", "0", "-c", code))


def regenerate(project: Path, tmp_path: Path, text: str, *extra: str) -> str:
    source = tmp_path / "library.yaml"
    source.write_text(text)
    result = run_panelforge(
        "generate", str(source), "-o", str(project), "--framework", "django", *extra
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture
def project(tmp_path: Path) -> Path:
    source = tmp_path / "library.yaml"
    source.write_text(LIBRARY)
    dest = tmp_path / "library"
    result = run_panelforge(
        "generate", str(source), "-o", str(dest), "--framework", "django", "-q"
    )
    assert result.returncode == 0, result.stderr
    return dest


@pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True)
def test_field_changes_migrate_with_the_rows_kept(
    project: Path, tmp_path: Path, database_url: str
) -> None:
    manage(project, database_url, "migrate")
    manage(project, database_url, "shell", "-c", ROWS)
    text = edited(
        (PAGES, PAGES + SUBTITLE),
        (
            "      isbn: {type: string,",
            "      isbn13: {type: string, renamed_from: isbn,",
        ),
        ("search: [title, isbn]", "search: [title, isbn13]"),
        (
            "      price: {type: number, format: decimal, precision: 10, scale: 2,"
            " minimum: 0}\n",
            "",
        ),
        (  # the metric summing the dropped price goes with it
            "    metrics:\n      available_value: {label: Value of available books,"
            " aggregate: sum, field: price, filter: {available: true}}\n",
            "",
        ),
    )
    regenerate(project, tmp_path, text, "--allow-drop", "Book.price")
    (migration,) = (project / "app" / "migrations").glob("0002_*.py")
    assert migration.name == "0002_update_books.py"
    body = migration.read_text()
    assert 'RenameField(model_name="book", old_name="isbn", new_name="isbn13")' in body
    assert 'migrations.RemoveField(model_name="book", name="price")' in body
    django_checks(project, database_url)
    manage(project, database_url, "migrate")
    assert query(
        project, database_url, "SELECT title, isbn13, subtitle FROM books ORDER BY id"
    ) == [
        ["Ancillary Justice", "9780316246620", "none yet"],
        ["Ancillary Sword", "9780316246651", "none yet"],
    ]
    # Django writes the reverse itself: back to 0001, the old column has its data.
    manage(project, database_url, "migrate", "app", "0001")
    assert query(project, database_url, "SELECT isbn FROM books ORDER BY id") == [
        ["9780316246620"],
        ["9780316246651"],
    ]


NOT_MIGRATED = "The database is not migrated: run `python manage.py migrate`."


def check_migrations(project: Path, database_url: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "migrate", "--check"],
        cwd=project,
        env=project_env(project, database_url),
        capture_output=True,
        text=True,
        timeout=120,
    )


def book_columns(project: Path, database_url: str) -> set[str]:
    code = (
        "from django.db import connection\n"
        "with connection.cursor() as cursor:\n"
        "    found = connection.introspection.get_table_description(cursor, 'books')\n"
        "print(' '.join(column.name for column in found))\n"
    )
    return set(manage(project, database_url, "shell", "-v", "0", "-c", code).split())


def test_unmigrated_database_is_503_until_migrated_and_migrates_back(
    project: Path, tmp_path: Path
) -> None:
    database_url = f"sqlite:///{tmp_path / 'app.db'}"
    server = DjangoServer(project, database_url)
    server.migrate()
    manage(project, database_url, "shell", "-c", ROWS)
    email, password = "admin@example.com", "correct horse battery staple"
    server.create_user(email, password)
    regenerate(project, tmp_path, edited((PAGES, PAGES + SUBTITLE)))
    (migration,) = (project / "app" / "migrations").glob("0002_*.py")
    django_checks(project, database_url)

    server.start()  # the new code on the old schema: starts, with a warning
    try:
        client = httpx.Client(
            base_url=server.base_url, headers={"Accept": "application/json"}, timeout=10
        )
        try:
            login = client.post(
                "/admin/authenticate", json={"username": email, "password": password}
            )
            assert login.status_code == 200, login.text
            client.headers["X-CSRF-Token"] = login.json()["csrf_token"]
            crud = "/admin/resource/book-resource/crud"
            behind = client.get(crud)
            assert behind.status_code == 503, behind.text
            assert behind.json() == {"message": NOT_MIGRATED}
            assert behind.headers["Retry-After"].isdigit()
            page = client.get(
                "/admin/resource/book-resource/index-page",
                headers={"Accept": "text/html"},
            )
            assert page.status_code == 503
            assert "python manage.py migrate" in page.text

            check = check_migrations(project, database_url)
            assert check.returncode == 1, check.stdout + check.stderr
            assert f"  app.{migration.stem}" in check.stdout
            assert "subtitle" not in book_columns(project, database_url)

            manage(project, database_url, "migrate")
            listed = client.get(crud)
            assert listed.status_code == 200, listed.text
            assert {r["subtitle"] for r in listed.json()["data"]} == {"none yet"}
            up_to_date = check_migrations(project, database_url)
            assert up_to_date.returncode == 0, up_to_date.stdout + up_to_date.stderr

            back = manage(project, database_url, "migrate", "app", "0001")
            assert f"Unapplying app.{migration.stem}... OK" in back
            assert "subtitle" not in book_columns(project, database_url)
            assert client.get(crud).status_code == 503  # behind again
        finally:
            client.close()
    finally:
        log = server.stop()
    assert "The database is not migrated (1 pending migration: app.0002_" in log


def test_added_and_removed_resources_create_and_delete_models(
    project: Path, tmp_path: Path
) -> None:
    database_url = f"sqlite:///{tmp_path / 'app.db'}"
    manage(project, database_url, "migrate")
    start = LIBRARY.index("  Member:\n")
    shelf = (
        "  Shelf:\n    fields:\n      label: {type: string, maxLength: 40}\n"
        "      book: {type: integer, relation: Book}\n    required: [label]\n"
    )
    output = regenerate(
        project, tmp_path, LIBRARY[:start] + shelf, "--allow-drop", "Member"
    )
    assert "  kept      app/hooks/member.py (no longer used)" in output
    (migration,) = (project / "app" / "migrations").glob("0002_*.py")
    body = migration.read_text()
    assert 'migrations.CreateModel(\n            name="Shelf"' in body
    assert 'migrations.DeleteModel(name="Member")' in body
    django_checks(project, database_url)
    manage(project, database_url, "migrate")
    tables = query(
        project, database_url, "SELECT name FROM sqlite_master WHERE type = 'table'"
    )
    names = {row[0] for row in tables}
    assert "shelfs" in names or "shelves" in names
    assert "members" not in names
    # Nothing changed: no new migration.
    again = regenerate(project, tmp_path, LIBRARY[:start] + shelf)
    assert "is up to date" in again
    assert len(list((project / "app" / "migrations").glob("000*.py"))) == 2


def test_regenerating_as_another_framework_is_refused(
    project: Path, tmp_path: Path
) -> None:
    before = sorted(p.relative_to(project) for p in project.rglob("*"))
    result = run_panelforge(
        "generate", str(tmp_path / "library.yaml"), "-o", str(project)
    )
    assert result.returncode == 1
    assert result.stderr == (
        f"error: {project} is a django project; the manifest asks for fastapi\n"
        "  hint: pass --framework django to regenerate it, or generate the fastapi "
        "project into another folder\n"
    )
    assert sorted(p.relative_to(project) for p in project.rglob("*")) == before
