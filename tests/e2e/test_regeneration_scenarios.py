"""Living with a generated project: edit it, change the manifest, regenerate, migrate.

Each scenario runs on a real emitted project committed to a git repository, with the
CLI as a user types it, and migrates a real database holding rows.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from conftest import REPO, Server, run_panelforge, tree_files

pytestmark = pytest.mark.e2e

LIBRARY = (REPO / "examples" / "library.yaml").read_text()
BOOK_TITLE = "    title: Books\n"
PAGES = "      pages: {type: integer, minimum: 1, maximum: 10000}\n"
# A NOT NULL column with a default: existing rows must get the default.
SUBTITLE = '      subtitle: {type: string, maxLength: 80, default: "none yet"}\n'


def git(project: Path, *args: str) -> str:
    result = subprocess.run(
        ["git", "-c", "user.name=Test", "-c", "user.email=test@example.com", *args],
        cwd=project,
        capture_output=True,
        text=True,
        check=True,
    )
    return result.stdout


def manifest(tmp_path: Path, text: str, name: str = "library.yaml") -> Path:
    folder = tmp_path / "manifests"
    folder.mkdir(exist_ok=True)
    path = folder / name
    path.write_text(text)
    return path


def edited(*replacements: tuple[str, str]) -> str:
    text = LIBRARY
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


def generate(source: Path, project: Path, *extra: str):
    return run_panelforge("generate", str(source), "-o", str(project), *extra)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """The library example, generated and committed to a fresh git repository."""
    dest = tmp_path / "library"
    result = generate(manifest(tmp_path, LIBRARY), dest, "--quiet")
    assert result.returncode == 0, result.stderr
    git(dest, "init", "--quiet")
    git(dest, "add", "--all")
    git(dest, "commit", "--quiet", "-m", "generated")
    return dest


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1))


def commit(project: Path, message: str) -> None:
    git(project, "commit", "--quiet", "-am", message)


def python(server: Server, code: str) -> None:
    """Run Python code in the project's environment."""
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=server.project,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def logged_in(server: Server) -> httpx.Client:
    """A JSON client with a panel session (a user is created first)."""
    email, password = "admin@example.com", "correct horse battery staple"
    created = subprocess.run(
        [sys.executable, "-m", "app", "create-user", email, "--password-stdin"],
        cwd=server.project,
        env=server.env,
        input=password + "\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert created.returncode == 0, created.stdout + created.stderr
    client = httpx.Client(
        base_url=server.base_url, headers={"Accept": "application/json"}, timeout=10
    )
    login = client.post(
        "/admin/authenticate", json={"username": email, "password": password}
    )
    assert login.status_code == 200, login.text
    client.headers["X-CSRF-Token"] = login.json()["csrf_token"]
    return client


def rows(url: str, query: str) -> list[tuple[Any, ...]]:
    engine = sa.create_engine(url)
    try:
        with engine.connect() as connection:
            return [tuple(r) for r in connection.execute(sa.text(query))]
    finally:
        engine.dispose()


def insert(url: str, *statements: str) -> None:
    engine = sa.create_engine(url)
    try:
        with engine.begin() as connection:
            for statement in statements:
                connection.execute(sa.text(statement))
    finally:
        engine.dispose()


SEED = (  # keys left to the database, so its sequences stay right
    "INSERT INTO authors (name) VALUES ('Ann Leckie')",
    "INSERT INTO books (title, isbn, available, author) "
    "VALUES ('Ancillary Justice', '9780316246620', true, (SELECT id FROM authors))",
    "INSERT INTO books (title, isbn, available, author) "
    "VALUES ('Provenance', '9780316388719', false, NULL)",
    "INSERT INTO members (email, password) VALUES ('a@example.com', 'x')",
)


# --- (a) ------------------------------------------------------------------------------


@pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True)
def test_added_field_keeps_edits_and_rows_and_works_over_http(
    project: Path, tmp_path: Path, database_url: str
) -> None:
    server = Server(project, database_url)
    server.run_app("migrate")
    insert(database_url, *SEED)

    hooks = project / "app" / "hooks" / "book.py"
    edit(
        hooks,
        '    """Book records in the panel."""\n',
        '    """Mine."""\n\n    per_page = 10\n',
    )
    module = project / "app" / "resources" / "book.py"
    edit(module, '    default_sort = "-id"\n', '    default_sort = "title"  # mine\n')
    commit(project, "my edits")

    result = generate(manifest(tmp_path, edited((PAGES, PAGES + SUBTITLE))), project)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "  merged    app/resources/book.py" in result.stdout
    assert "  added     migrations/versions/0002_add_books_subtitle.py" in result.stdout
    assert "per_page = 10" in hooks.read_text()
    text = module.read_text()
    assert 'default_sort = "title"  # mine' in text and '"subtitle"' in text

    server.run_app("migrate")
    assert rows(database_url, "SELECT id, title, subtitle FROM books ORDER BY id") == [
        (1, "Ancillary Justice", "none yet"),
        (2, "Provenance", "none yet"),
    ]
    server.start()
    try:
        client = logged_in(server)
        try:
            crud = "/admin/resource/book-resource/crud"
            body = {"title": "Translation State", "subtitle": "A novel"}
            created = client.post(crud, json=body)
            assert created.status_code == 201, created.text
            key = created.json()["data"]["id"]
            assert client.get(f"{crud}/{key}").json()["subtitle"] == "A novel"
            listed = client.get(crud).json()
            # The hook's per_page and the edited default sort are in force.
            assert listed["per_page"] == 10
            titles = [r["title"] for r in listed["data"]]
            assert titles == sorted(titles)
        finally:
            client.close()
    finally:
        server.stop()


# --- (b) ------------------------------------------------------------------------------


def test_both_sides_changing_a_line_leaves_markers_and_exits_1(
    project: Path, tmp_path: Path
) -> None:
    module = project / "app" / "resources" / "book.py"
    edit(module, '    title = "Books"\n', '    title = "My books"\n')
    edit(module, "    per_page = 25\n", "    per_page = 25  # keep\n")
    hooks = project / "app" / "hooks" / "book.py"
    edit(hooks, '    """Book records in the panel."""\n', '    """Mine."""\n')
    commit(project, "my edits")
    before = tree_files(project)

    new = edited((BOOK_TITLE, "    title: All books\n"), (PAGES, PAGES + SUBTITLE))
    result = generate(manifest(tmp_path, new), project)
    assert result.returncode == 1
    assert (
        "  conflict  app/resources/book.py (1 conflicting region(s))" in result.stdout
    )
    assert "error: 1 file needs your attention" in result.stderr
    assert "Traceback" not in result.stderr
    text = module.read_text()
    assert (
        '<<<<<<< yours\n    title = "My books"\n=======\n    title = "All books"\n'
        ">>>>>>> generated\n"
    ) in text
    assert "per_page = 25  # keep" in text and '"subtitle"' in text
    assert '"""Mine."""' in hooks.read_text()
    # Nothing else lost: every file that was there still is.
    after = tree_files(project)
    assert set(before) <= set(after)
    assert "All books" in (project / "resources" / "oag.yaml").read_text()
    check = run_panelforge("check", str(manifest(tmp_path, new)), "-o", str(project))
    assert check.returncode == 1
    assert (
        "  conflict  app/resources/book.py (conflict markers: resolve them)"
    ) in check.stderr


# --- (c) ------------------------------------------------------------------------------


def test_removed_resource_loses_its_files_and_its_table(
    project: Path, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'app.db'}"
    server = Server(project, url)
    server.run_app("migrate")
    insert(url, *SEED)
    start = LIBRARY.index("  Member:\n")
    refused = generate(manifest(tmp_path, LIBRARY[:start]), project)
    assert refused.returncode == 1
    assert "drop table members (resource Member)" in refused.stderr
    assert "--allow-drop Member" in refused.stderr
    result = generate(
        manifest(tmp_path, LIBRARY[:start]), project, "--allow-drop", "Member"
    )
    assert result.returncode == 0, result.stderr
    assert "[destructive] drop table members (resource Member)" in result.stdout
    for gone in ("app/resources/member.py", "tests/test_member_api.py"):
        assert f"  removed   {gone}" in result.stdout
        assert not (project / gone).exists()
    assert "  kept      app/hooks/member.py (no longer used)" in result.stdout
    assert (project / "app" / "hooks" / "member.py").is_file()
    (migration,) = (project / "migrations" / "versions").glob("0002_*.py")
    assert migration.name == "0002_drop_members.py"
    assert 'op.drop_table("members")' in migration.read_text()
    server.run_app("migrate")
    tables = set(sa.inspect(sa.create_engine(url)).get_table_names())
    assert "members" not in tables and "books" in tables
    assert len(rows(url, "SELECT id FROM books")) == 2


# --- (d) ------------------------------------------------------------------------------


@pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True)
def test_renamed_field_keeps_its_data(
    project: Path, tmp_path: Path, database_url: str
) -> None:
    server = Server(project, database_url)
    server.run_app("migrate")
    insert(database_url, *SEED)
    new = edited(
        (
            "      isbn: {type: string,",
            "      isbn13: {type: string, renamed_from: isbn,",
        ),
        ("search: [title, isbn]", "search: [title, isbn13]"),
    )
    result = generate(manifest(tmp_path, new), project)
    assert result.returncode == 0, result.stderr
    (migration,) = (project / "migrations" / "versions").glob("0002_*.py")
    assert migration.name == "0002_rename_books_isbn.py"
    server.run_app("migrate")
    assert rows(database_url, "SELECT id, isbn13 FROM books ORDER BY id") == [
        (1, "9780316246620"),
        (2, "9780316388719"),
    ]
    # The renamed_from left in the manifest does nothing more.
    again = generate(manifest(tmp_path, new), project)
    assert again.returncode == 0 and "is up to date" in again.stdout
    # And the chain downgrades and upgrades again.
    python(server, "from app.core.migrations import downgrade; downgrade(None, '0001')")
    assert rows(database_url, "SELECT isbn FROM books WHERE id = 1") == [
        ("9780316246620",)
    ]
    server.run_app("migrate")


# --- (g) ------------------------------------------------------------------------------
# The database behind the code: 503 with the command until migrated, ``migrate
# --check`` for scripts, and ``migrate --revision`` back down.

NOT_MIGRATED = "The database is not migrated: run `python -m app migrate`."


def columns(url: str, table: str) -> set[str]:
    engine = sa.create_engine(url)
    try:
        return {column["name"] for column in sa.inspect(engine).get_columns(table)}
    finally:
        engine.dispose()


def test_unmigrated_database_is_503_until_migrated_and_migrates_back(
    project: Path, tmp_path: Path
) -> None:
    url = f"sqlite:///{tmp_path / 'app.db'}"
    server = Server(project, url)
    server.run_app("migrate")
    insert(url, *SEED)
    result = generate(manifest(tmp_path, edited((PAGES, PAGES + SUBTITLE))), project)
    assert result.returncode == 0, result.stdout + result.stderr

    server.start()  # the new code on the old schema: starts, with a warning
    try:
        client = logged_in(server)
        try:
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
            assert "python -m app migrate" in page.text

            check = subprocess.run(
                server.command("migrate", "--check"),
                cwd=project,
                env=server.env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert check.returncode == 1, check.stdout + check.stderr
            assert "  0002  " in check.stdout
            assert "subtitle" not in columns(url, "books")  # --check wrote nothing

            server.run_app("migrate")
            listed = client.get(crud)
            assert listed.status_code == 200, listed.text
            assert {r["subtitle"] for r in listed.json()["data"]} == {"none yet"}
            up_to_date = server.run_app("migrate", "--check")
            assert "database up to date (at 0002)" in up_to_date.stdout

            back = server.run_app("migrate", "--revision", "0001")
            assert "database migrated down from 0002 to 0001" in back.stdout
            assert "subtitle" not in columns(url, "books")
            assert rows(url, "SELECT title FROM books ORDER BY id") == [
                ("Ancillary Justice",),
                ("Provenance",),
            ]
            assert client.get(crud).status_code == 503  # behind again
        finally:
            client.close()
    finally:
        log = server.stop()
    assert "The database is not migrated (1 pending migration: 0002)" in log


# --- (e) ------------------------------------------------------------------------------


def _snapshot(project: Path) -> dict[str, tuple[bytes, int]]:
    return {
        p.relative_to(project).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
        for p in project.rglob("*")
        if p.is_file() and ".git" not in p.relative_to(project).parts
    }


def test_dry_run_writes_nothing(project: Path, tmp_path: Path) -> None:
    before = _snapshot(project)
    new = edited((PAGES, PAGES + SUBTITLE))
    result = generate(manifest(tmp_path, new), project, "--dry-run", "--diff")
    assert result.returncode == 0, result.stderr
    assert "  added     migrations/versions/0002_add_books_subtitle.py" in result.stdout
    assert "  updated   app/resources/book.py" in result.stdout
    assert "+++ b/app/resources/book.py" in result.stdout
    assert "+    subtitle: Mapped[str] = mapped_column(" in result.stdout
    assert result.stdout.endswith("dry run: nothing was written\n")
    assert _snapshot(project) == before
    assert not [p for p in tmp_path.iterdir() if "panelforge-" in p.name]


# --- (f) ------------------------------------------------------------------------------


def test_check_passes_fails_then_passes(project: Path, tmp_path: Path) -> None:
    source = manifest(tmp_path, LIBRARY)
    fresh = run_panelforge("check", str(source), "-o", str(project))
    assert fresh.returncode == 0, fresh.stderr
    assert fresh.stdout == f"{project}: up to date with library.yaml\n"
    # The copy the project records works as well (what its CI runs).
    assert run_panelforge("check", "-o", str(project)).returncode == 0

    source.write_text(edited((PAGES, PAGES + SUBTITLE)))
    stale = run_panelforge("check", str(source), "-o", str(project))
    assert stale.returncode == 1
    assert "has drifted from library.yaml" in stale.stderr
    assert "  outdated  app/resources/book.py (regenerating changes it)" in stale.stderr
    assert (
        "  missing   migrations/versions/0002_add_books_subtitle.py "
        "(the tables changed since the last generation)"
    ) in stale.stderr

    assert generate(source, project, "--quiet").returncode == 0
    assert run_panelforge("check", str(source), "-o", str(project)).returncode == 0
    # Edits in extension points are fine; elsewhere they are drift.
    edit(project / "app" / "hooks" / "book.py", '"""Book', '"""All the book')
    assert run_panelforge("check", str(source), "-o", str(project)).returncode == 0
    # An edit of a generated file that regenerating keeps is information; --strict
    # refuses it.
    edit(
        project / "app" / "main.py",
        '"""',
        '"""Edited. ',
    )
    edited_main = run_panelforge("check", str(source), "-o", str(project))
    assert edited_main.returncode == 0, edited_main.stderr
    assert "  edited    app/main.py" in edited_main.stdout
    strict = run_panelforge("check", "--strict", str(source), "-o", str(project))
    assert strict.returncode == 1
    assert "  modified  app/main.py" in strict.stderr


# --- (g) ------------------------------------------------------------------------------


def test_check_answers_whether_regenerating_changes_anything(
    project: Path, tmp_path: Path
) -> None:
    """The CI question (issue 13): merged edits pass, a manifest that moved on fails."""
    source = manifest(tmp_path, LIBRARY)
    module = project / "app" / "resources" / "book.py"
    edit(module, "    per_page = 25\n", "    per_page = 25  # mine\n")
    commit(project, "my edit of a generated file")

    # Regenerating merges the edit with the generator's change...
    source.write_text(edited((PAGES, PAGES + SUBTITLE)))
    result = generate(source, project)
    assert result.returncode == 0, result.stderr
    assert "  merged    app/resources/book.py" in result.stdout
    assert "per_page = 25  # mine" in module.read_text()
    commit(project, "regenerated")

    # ...after which the project is up to date, the kept edit listed.
    check = run_panelforge("check", str(source), "-o", str(project))
    assert check.returncode == 0, check.stderr
    assert check.stdout == (
        f"{project}: up to date with library.yaml\n"
        "  edited    app/resources/book.py (your edit: regenerating keeps it)\n"
    )
    assert "error" not in check.stderr
    # So is it against the manifest copy it records, as its CI checks.
    assert run_panelforge("check", "-o", str(project)).returncode == 0

    # The manifest moves on: out of date.
    source.write_text(
        edited((PAGES, PAGES + SUBTITLE), (BOOK_TITLE, "    title: All books\n"))
    )
    stale = run_panelforge("check", str(source), "-o", str(project))
    assert stale.returncode == 1
    assert "has drifted from library.yaml" in stale.stderr
    assert "  outdated  app/resources/book.py (regenerating merges" in stale.stderr
    assert "  outdated  .panelforge/ (the recorded state differs)" in stale.stderr
    assert "brings it up to date" in stale.stderr

    # Regenerated: up to date again.
    assert generate(source, project, "--quiet").returncode == 0
    again = run_panelforge("check", str(source), "-o", str(project))
    assert again.returncode == 0, again.stderr
    assert "  edited    app/resources/book.py" in again.stdout

    # --strict keeps the old meaning: any edit of a generated file fails.
    strict = run_panelforge("check", "--strict", str(source), "-o", str(project))
    assert strict.returncode == 1
    assert "  modified  app/resources/book.py\n" in strict.stderr
    assert "move edits of generated files to app/hooks/" in strict.stderr

    # A file missing, or conflict markers left, fail without --strict too.
    (project / "app" / "roles.py").unlink()
    missing = run_panelforge("check", str(source), "-o", str(project))
    assert missing.returncode == 1
    assert "  missing   app/roles.py" in missing.stderr
    git(project, "checkout", "--", "app/roles.py")
    hooks = project / "app" / "hooks" / "book.py"
    hooks.write_text(hooks.read_text() + "<<<<<<< HEAD\n")
    marked = run_panelforge("check", str(source), "-o", str(project))
    assert marked.returncode == 1
    assert "  conflict  app/hooks/book.py" in marked.stderr
