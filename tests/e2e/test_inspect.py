"""`panelforge inspect` as a user runs it, on SQLite, PostgreSQL and MariaDB.

The schema of ``inspect_schema.py`` is created in a database of its own; the
manifest inspect writes is read back, validated, and generated for both frameworks
(on SQLite, the projects' own tests of their adopted tables, a uuid key and composite
keys run too); what it cannot say is on stderr and in its header; two runs give the
same bytes; bad URLs, unreachable databases, missing drivers and unknown tables are
clear errors with their exit codes and no traceback.
"""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
import yaml
from conftest import (
    MARIADB_PARAM,
    REPO,
    SERVERS,
    mariadb_database,
    postgres_database,
    project_env,
    run_panelforge,
    sqlalchemy_url,
)
from inspect_schema import STATEMENTS

pytestmark = pytest.mark.e2e

# What every database says the same way (PostgreSQL and MariaDB say all of it).
AUTHOR = {
    "fields": {
        "name": {"type": "string", "maxLength": 100},
        "email": {"type": "string", "maxLength": 200, "nullable": True, "unique": True},
        "bio": {
            "type": "string",
            "format": "text",
            "nullable": True,
            "description": "A short biography",
        },
        "mentor_id": {
            "type": "integer",
            "relation": "Author",
            "on_delete": "set_null",
            "nullable": True,
        },
        "favourite_book_id": {
            "type": "integer",
            "relation": "Book",
            "on_delete": "set_null",
            "nullable": True,
        },
        "created_at": {"type": "string", "format": "date-time", "default_sql": "now()"},
    },
    "required": ["name"],
    "display": "name",
}
BOOK = {
    "fields": {
        "title": {"type": "string", "maxLength": 200},
        "price": {"type": "number", "format": "decimal", "precision": 10, "scale": 2},
        "status": {
            "type": "string",
            "enum": ["draft", "published", "withdrawn"],
            "default": "draft",
        },
        "pages": {
            "type": "integer",
            "minimum": -32768,
            "maximum": 32767,
            "nullable": True,
        },
        "in_print": {"type": "boolean", "default": True},
        "author_id": {"type": "integer", "relation": "Author", "on_delete": "cascade"},
        "publisher_id": {
            "type": "string",
            "format": "uuid",
            "relation": "Publisher",
            "nullable": True,
        },
        "country_code": {
            "type": "string",
            "maxLength": 2,
            "relation": "Country",
            "nullable": True,
        },
        "published_on": {"type": "string", "format": "date", "nullable": True},
    },
    "required": ["title", "price", "author_id"],
    "unique": [["author_id", "title"]],
    "display": "title",
}
COUNTRY = {
    "key": "code",
    "fields": {
        "code": {"type": "string", "maxLength": 2},
        "name": {"type": "string", "maxLength": 80},
    },
    "required": ["name"],
    "display": "name",
}
PUBLISHER = {
    "key": "id",
    "fields": {
        "id": {"type": "string", "format": "uuid"},
        "name": {"type": "string", "maxLength": 120},
        "founded": {"type": "string", "format": "date", "default_sql": "current_date"},
    },
    "required": ["name"],
    "display": "name",
}
TAG = {
    "fields": {"label": {"type": "string", "maxLength": 50, "unique": True}},
    "required": ["label"],
    "display": "label",
}
# A link table: a composite key of two relations.
BOOK_TAG = {
    "key": ["book_id", "tag_id"],
    "fields": {
        "book_id": {"type": "integer", "relation": "Book"},
        "tag_id": {"type": "integer", "relation": "Tag"},
    },
    "required": ["book_id", "tag_id"],
}
# A composite key of plain columns.
EDITION = {
    "key": ["isbn_prefix", "number"],
    "fields": {
        "isbn_prefix": {"type": "string", "maxLength": 10},
        "number": {"type": "integer", "minimum": -(2**31), "maximum": 2**31 - 1},
        "year": {
            "type": "integer",
            "minimum": -(2**31),
            "maximum": 2**31 - 1,
            "nullable": True,
        },
    },
    "required": ["isbn_prefix", "number"],
}
EXPECTED = {
    "Author": AUTHOR,
    "Book": BOOK,
    "BookTag": BOOK_TAG,
    "Country": COUNTRY,
    "Edition": EDITION,
    "Publisher": PUBLISHER,
    "Tag": TAG,
}
# What every database cannot say, as stderr's notes begin.
SKIPPED_NOTES = ["note: audit_log: no primary key; table skipped"]


def _on_sqlite(expected: dict[str, Any]) -> dict[str, Any]:
    """SQLite has no enum type (a CHECK lists the values), no comments, and 64-bit
    integers whatever their name."""
    books = expected["Book"]["fields"]
    author = expected["Author"]["fields"]
    books["status"] = {
        "type": "string",
        "enum": ["draft", "published", "withdrawn"],
        "maxLength": 9,
        "default": "draft",
    }
    books["pages"] = {"type": "integer", "nullable": True}
    editions = expected["Edition"]["fields"]
    editions["number"] = {"type": "integer"}
    editions["year"] = {"type": "integer", "nullable": True}
    del author["bio"]["description"]
    return expected


def _create(url: str, kind: str) -> None:
    engine = sa.create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as connection:
            for statement in STATEMENTS[kind]:
                connection.exec_driver_sql(statement)
    finally:
        engine.dispose()


@pytest.fixture(
    params=[
        "sqlite",
        pytest.param("postgres", marks=pytest.mark.postgres),
        MARIADB_PARAM,
    ]
)
def schema(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """(kind, URL) of a database holding the test schema."""
    kind = request.param
    if kind == "sqlite":
        url = f"sqlite:///{tmp_path / 'shop.db'}"
        _create(url, kind)
        yield kind, url
        return
    with postgres_database() if kind == "postgres" else mariadb_database() as url:
        _create(url, kind)
        if kind == "postgres":  # as a user gives it: postgres://, with a password
            url = url.replace(
                "postgresql+psycopg://postgres@", "postgres://postgres:s3cret@"
            )
        yield kind, url


def test_inspect_writes_a_manifest_that_validates_and_generates(
    schema: tuple[str, str], tmp_path: Path
) -> None:
    kind, url = schema
    manifest = tmp_path / "shop.yaml"
    result = run_panelforge("inspect", url, "-o", str(manifest))
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr and result.stdout == ""
    text = manifest.read_text()
    data = yaml.safe_load(text)
    expected = (
        EXPECTED
        if kind != "sqlite"
        else _on_sqlite(yaml.safe_load(yaml.safe_dump(EXPECTED)))
    )
    # Every table is adopted; what that says is tested in test_adoption.py.
    adopted = {name: r.pop("adopted", None) for name, r in data["resources"].items()}
    assert all(adopted.values()), adopted
    assert data["resources"] == expected
    # in the order of their tables: book_tags before books
    assert list(data["resources"]) == [
        "Author", "BookTag", "Book", "Country", "Edition", "Publisher", "Tag",
    ]  # fmt: skip

    # What it cannot say: on stderr, and in the header, never silently dropped.
    notes = [line for line in result.stderr.splitlines() if line.startswith("note: ")]
    check = "(`price` >= 0)" if kind == "mariadb" else "(price >= 0"
    blob = "BYTEA" if kind == "postgres" else "BLOB"
    assert notes[0] == SKIPPED_NOTES[0]
    assert f"note: books.cover: type '{blob}' is not supported; field left out" in notes
    assert any(n.startswith(f"note: books: CHECK {check}") for n in notes), notes
    assert len(notes) == 3, notes  # serial, identity and auto-increment keys: no note
    header = text.split("\nproject:")[0]
    assert header.startswith("# Generated by `panelforge inspect` from ")
    assert "# Not expressed in this manifest:" in header
    for note in notes:
        first_words = note.removeprefix("note: ")[:40]
        assert first_words in header.replace("\n#     ", " "), first_words
    assert "8 tables, 7 resources, 1 skipped" in header
    assert "s3cret" not in text + result.stderr
    if kind == "postgres":
        assert "from postgres://postgres:***@127.0.0.1:5432/" in header
    if kind == "postgres":
        assert "  # People who write books\n  Author:\n" in text

    valid = run_panelforge("validate", str(manifest))
    assert valid.returncode == 0, valid.stderr
    for framework in ("fastapi", "django"):
        out = tmp_path / framework
        generated = run_panelforge(
            "generate", str(manifest), "-o", str(out), "--framework", framework, "-q"
        )
        assert generated.returncode == 0, generated.stderr
        assert (out / ".panelforge" / "state.json").is_file()
        if kind == "sqlite":
            _passes_its_own_tests(out, framework, tmp_path)


# The emitted tests of what an inspected project has that others seldom do: adopted
# tables beside its migrations, a uuid key without a database default (and a key
# column SQLite lets be NULL), composite keys of relations and of plain columns.
EMITTED_TESTS = {
    "fastapi": [
        "tests/test_migrations.py",
        "tests/test_migration_safety.py",
        "tests/test_db.py",
        "tests/test_publisher_api.py",
        "tests/test_book_tag_api.py",
        "tests/test_edition_api.py",
    ],
    "django": [
        "tests/test_migration_safety.py",
        "tests/test_api.py",
        "tests/test_book_tag_keys.py",
        "tests/test_edition_keys.py",
    ],
}


def _passes_its_own_tests(project: Path, framework: str, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / f'{framework}-tests.db'}"
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         *EMITTED_TESTS[framework]],
        cwd=project,
        env=project_env(project, url),
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout


def test_two_runs_write_the_same_bytes(schema: tuple[str, str]) -> None:
    _kind, url = schema
    first = run_panelforge("inspect", url)
    second = run_panelforge("inspect", url, env={"PYTHONHASHSEED": "1"})
    assert first.returncode == 0 and second.returncode == 0, first.stderr
    assert first.stdout == second.stdout and first.stderr == second.stderr
    assert first.stdout.startswith("# Generated by `panelforge inspect`")


def test_tables_and_exclude_choose_the_tables(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shop.db'}"
    _create(url, "sqlite")
    result = run_panelforge(
        "inspect",
        url,
        "--tables",
        "books,authors",
        "--tables",
        "tags",
        "--exclude",
        "tags",
    )
    assert result.returncode == 0, result.stderr
    data = yaml.safe_load(result.stdout)
    assert list(data["resources"]) == ["Author", "Book"]
    # Relations to a table left out stay plain values, and say so.
    assert data["resources"]["Book"]["fields"]["publisher_id"] == {
        "type": "string",
        "format": "uuid",
        "nullable": True,
    }
    assert (
        "note: books.publisher_id: refers to publishers, which is not a resource here; "
        "kept as a plain field" in result.stderr
    )
    manifest = tmp_path / "two.yaml"
    manifest.write_text(result.stdout)
    assert run_panelforge("validate", str(manifest)).returncode == 0


def test_unknown_table_names_are_a_usage_error(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shop.db'}"
    _create(url, "sqlite")
    result = run_panelforge("inspect", url, "--tables", "books,boks", "--exclude", "x")
    assert result.returncode == 2
    assert result.stderr.startswith("error: no table 'boks', 'x' in the database")
    assert "(its tables: audit_log, authors, book_tags" in result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr


def test_output_is_not_overwritten_without_force(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'shop.db'}"
    _create(url, "sqlite")
    manifest = tmp_path / "shop.yaml"
    manifest.write_text("mine\n")
    refused = run_panelforge("inspect", url, "-o", str(manifest))
    assert refused.returncode == 1
    assert refused.stderr == f"error: '{manifest}' exists (use --force to replace it)\n"
    assert manifest.read_text() == "mine\n"
    forced = run_panelforge("inspect", url, "-o", str(manifest), "--force")
    assert forced.returncode == 0, forced.stderr
    assert manifest.read_text() == run_panelforge("inspect", url).stdout.replace(
        "panel.yaml", str(manifest)
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["shop.db", "shop.yaml"]


@pytest.mark.parametrize(
    ("url", "code", "message"),
    [
        ("nonsense", 2, "error: 'nonsense' is not a database URL (sqlite:///file.db"),
        (
            "oracle://u:pw@h/x",
            2,
            "error: unsupported database 'oracle' in 'oracle://u:***@h/x'",
        ),
        ("sqlite://", 2, "error: 'sqlite://' does not name an SQLite file"),
        ("mysql+nosuch://u@h/x", 2, "error: cannot use 'mysql+nosuch://u@h/x': "),
        (
            "postgresql://me:s3cret@127.0.0.1:1/shop",
            4,
            "error: cannot reach the database at "
            "postgresql://me:***@127.0.0.1:1/shop: ",
        ),
        (
            "mysql://me:s3cret@127.0.0.1:1/shop",
            4,
            "error: cannot reach the database at mysql://me:***@127.0.0.1:1/shop: ",
        ),
    ],
)
def test_bad_urls_and_unreachable_databases(url: str, code: int, message: str) -> None:
    result = run_panelforge("inspect", url)
    assert result.returncode == code, result.stderr
    assert result.stderr.startswith(message), result.stderr
    assert result.stderr.count("\n") == 1 and "s3cret" not in result.stderr
    assert result.stdout == "" and "Traceback" not in result.stderr


def test_a_missing_sqlite_file_is_not_created(tmp_path: Path) -> None:
    missing = tmp_path / "nope.db"
    result = run_panelforge("inspect", f"sqlite:///{missing}")
    assert result.returncode == 4
    assert result.stderr == (
        f"error: cannot reach the database at sqlite:///{missing}: "
        f"no such file ('{missing}')\n"
    )
    assert not missing.exists()
    garbage = tmp_path / "garbage.db"
    garbage.write_text("not a database at all " * 100)
    result = run_panelforge("inspect", f"sqlite:///{garbage}")
    assert result.returncode == 4
    assert result.stderr.startswith(
        f"error: cannot read the database at sqlite:///{garbage}"
    )


@pytest.mark.parametrize(
    ("module", "url", "install"),
    [
        (
            "psycopg",
            "postgresql://u@h/x",
            "pip install 'panelforge[postgres]' (or pip install 'psycopg[binary]')",
        ),
        (
            "pymysql",
            "mysql://u@h/x",
            "pip install 'panelforge[mysql]' (or pip install 'pymysql')",
        ),
    ],
)
def test_a_missing_driver_names_what_to_install(
    tmp_path: Path, module: str, url: str, install: str
) -> None:
    # A driver that cannot be imported, as on an install without the extra.
    (tmp_path / module).mkdir()
    (tmp_path / module / "__init__.py").write_text(
        f'raise ImportError("No module named {module!r}", name={module!r})\n'
    )
    env = {"PYTHONPATH": f"{tmp_path}{os.pathsep}{REPO}"}
    result = run_panelforge("inspect", url, env=env)
    assert result.returncode == 1, result.stderr
    assert result.stderr.endswith(f"which is not installed: {install}\n"), result.stderr
    assert "Traceback" not in result.stderr


def test_help_shows_examples() -> None:
    result = run_panelforge("inspect", "--help")
    assert result.returncode == 0
    assert "usage: panelforge inspect" in result.stdout
    assert (
        "panelforge inspect postgresql://me:secret@localhost:5432/shop -o shop.yaml"
        in (result.stdout)
    )
    assert "exit codes: 0 ok" in result.stdout
    assert "inspect" in run_panelforge("--help").stdout


PASCAL = [
    'CREATE TABLE "Artist" ("ArtistId" INTEGER PRIMARY KEY, "Name" NVARCHAR(120),'
    ' "First Name" VARCHAR(40), "type" VARCHAR(10))',
    'CREATE TABLE "Album" ("AlbumId" INTEGER PRIMARY KEY,'
    ' "Title" NVARCHAR(160) NOT NULL,'
    ' "ArtistId" INTEGER NOT NULL REFERENCES "Artist"("ArtistId"))',
]


def test_foreign_names_are_mapped_with_column(tmp_path: Path) -> None:
    database = tmp_path / "music.db"
    with sqlite3.connect(database) as connection:
        for statement in PASCAL:
            connection.execute(statement)
    result = run_panelforge("inspect", f"sqlite:///{database}")
    assert result.returncode == 0, result.stderr
    resources = result.stdout.split("\nresources:\n", 1)[1]
    assert resources == (
        "  Album:\n"
        "    table: Album\n"
        "    key: album_id\n"
        "    fields:\n"
        "      album_id: {type: integer, column: AlbumId}\n"
        "      title: {type: string, maxLength: 160, column: Title}\n"
        "      artist_id: {type: integer, relation: Artist, column: ArtistId}\n"
        "    required: [title, artist_id]\n"
        "    display: title\n"
        "    adopted:\n"
        "      int32: [album_id, artist_id]\n"
        "      key_nullable: true\n"
        "  Artist:\n"
        "    table: Artist\n"
        "    key: artist_id\n"
        "    fields:\n"
        "      artist_id: {type: integer, column: ArtistId}\n"
        "      name: {type: string, maxLength: 120, nullable: true, column: Name}\n"
        "      type_value: {type: string, maxLength: 10, nullable: true,"
        " column: type}\n"
        "    display: name\n"
        "    adopted:\n"
        "      int32: [artist_id]\n"
        "      key_nullable: true\n"
    )
    # A column name 'column:' cannot hold is left out, and said; the rest validates.
    assert (
        "note: Artist.First Name: not a name 'column:' accepts (letters, digits and"
        " underscores); field left out" in result.stderr
    )
    assert "does not pass 'panelforge validate'" not in result.stderr
    manifest = tmp_path / "music.yaml"
    manifest.write_text(result.stdout, encoding="utf-8")
    checked = run_panelforge("validate", str(manifest))
    assert checked.returncode == 0, checked.stdout + checked.stderr


EDGES = [
    # A required self-reference, and a cycle of two required relations: M035 would
    # refuse them, so one relation of each is made optional, and said.
    "CREATE TABLE sessions (id INTEGER PRIMARY KEY, token VARCHAR(64) NOT NULL,"
    " parent_id INTEGER NOT NULL REFERENCES sessions(id))",
    "CREATE TABLE a (id INTEGER PRIMARY KEY, b_id INTEGER NOT NULL REFERENCES b(id))",
    "CREATE TABLE b (id INTEGER PRIMARY KEY, a_id INTEGER NOT NULL REFERENCES a(id))",
    # The panel's own tables are not resources.
    "CREATE TABLE panel_users (id INTEGER PRIMARY KEY)",
    # A key that is not an integer, uuid or string; a key that is also a reference.
    "CREATE TABLE days (day DATE PRIMARY KEY)",
    "CREATE TABLE profiles (a_id INTEGER PRIMARY KEY REFERENCES a(id), bio TEXT)",
    # Defaults the manifest cannot say, a foreign key on two columns.
    "CREATE TABLE notes (id INTEGER PRIMARY KEY,"
    " body TEXT NOT NULL DEFAULT (lower('X')),"
    " size NUMERIC, a INTEGER, b INTEGER,"
    " FOREIGN KEY (a, b) REFERENCES pairs(x, y))",
    "CREATE TABLE pairs (id INTEGER PRIMARY KEY, x INTEGER, y INTEGER, UNIQUE (x, y))",
    # A composite key with a date part; one with a default part; a reference to a
    # part of a composite key (a relation holds a key of one field).
    "CREATE TABLE dated (day DATE, n INTEGER, PRIMARY KEY (day, n))",
    "CREATE TABLE slots (day DATE, n INTEGER DEFAULT 1, PRIMARY KEY (day, n))",
    "CREATE TABLE mentions (id INTEGER PRIMARY KEY, day DATE REFERENCES dated(day))",
]


def test_edge_cases_still_validate_and_are_noted(tmp_path: Path) -> None:
    database = tmp_path / "edges.db"
    with sqlite3.connect(database) as connection:
        for statement in EDGES:
            connection.execute(statement)
    manifest = tmp_path / "edges.yaml"
    result = run_panelforge("inspect", f"sqlite:///{database}", "-o", str(manifest))
    assert result.returncode == 0, result.stderr
    assert "warning" not in result.stderr
    notes = [line for line in result.stderr.splitlines() if line.startswith("note: ")]
    assert notes == [
        "note: a.b_id: NOT NULL, but on a cycle of required relations; made optional "
        "here (the database still refuses an empty value)",
        "note: days: the primary key day is not an integer, a uuid or a string; "
        "table skipped",
        "note: mentions.day: refers to dated, whose key is composite (a relation "
        "holds a key of one field); kept as a plain field",
        "note: notes.body: the server default lower('X') cannot be said in a "
        "manifest; left out (the database still applies it)",
        "note: notes.size: NUMERIC without precision or scale; the manifest's decimal "
        "defaults (precision 15, scale 2) apply: set the ones the data needs",
        "note: notes: the foreign key (a, b) → pairs has several columns; its columns "
        "are plain fields",
        "note: panel_users: a table the panel or the frameworks use themselves; "
        "table skipped",
        "note: profiles.a_id: the key also refers to a; the relation is not expressed "
        "(a key cannot be a relation)",
        "note: sessions.parent_id: NOT NULL, but on a cycle of required relations; "
        "made optional here (the database still refuses an empty value)",
        "note: slots: n, a column of the composite primary key (day, n), has a "
        "default (a part is given when the record is made); table skipped",
    ]
    data = yaml.safe_load(manifest.read_text())
    resources = data["resources"]
    assert sorted(resources) == [
        "A", "B", "Dated", "Mention", "Note", "Pair", "Profile", "SessionRecord",
    ]  # fmt: skip
    assert resources["Dated"]["key"] == ["day", "n"]
    assert resources["Dated"]["fields"]["day"] == {"type": "string", "format": "date"}
    assert resources["Dated"]["adopted"] == {"int32": ["n"], "key_nullable": True}
    assert resources["Mention"]["fields"]["day"] == {
        "type": "string",
        "format": "date",
        "nullable": True,
    }
    assert resources["SessionRecord"]["table"] == "sessions"
    assert resources["SessionRecord"]["required"] == ["token"]
    assert resources["B"]["required"] == ["a_id"] and "required" not in resources["A"]
    assert resources["Profile"]["key"] == "a_id"
    assert resources["Pair"]["unique"] == [["x", "y"]]
    assert resources["Note"]["fields"]["size"] == {
        "type": "number",
        "format": "decimal",
        "nullable": True,
    }
    assert run_panelforge("validate", str(manifest)).returncode == 0


@pytest.mark.parametrize("framework", ["fastapi", "django"])
def test_inspect_reads_the_schema_panelforge_made(
    framework: str, tmp_path: Path
) -> None:
    # A project's migrated database: its resources come back, the panel's and the
    # framework's own tables are skipped and listed.
    project = tmp_path / "library"
    made = run_panelforge(
        "generate",
        str(REPO / "examples" / "library.yaml"),
        "-o",
        str(project),
        "--framework",
        framework,
        "-q",
    )
    assert made.returncode == 0, made.stderr
    url = f"sqlite:///{tmp_path / 'library.db'}"
    SERVERS[framework](project, url).migrate()
    manifest = tmp_path / "inspected.yaml"
    result = run_panelforge("inspect", url, "-o", str(manifest))
    assert result.returncode == 0, result.stderr
    resources = yaml.safe_load(manifest.read_text())["resources"]
    assert sorted(resources) == ["Author", "Book", "Member"]
    # FastAPI's foreign keys say ON DELETE RESTRICT, Django's nothing (NO ACTION)
    restrict = {"on_delete": "restrict"} if framework == "fastapi" else {}
    assert resources["Book"]["fields"]["author"] == {
        "type": "integer",
        "relation": "Author",
        **restrict,
        "nullable": True,
    }
    # Django declares a decimal on SQLite without its digits: the note says so.
    digits = {"precision": 10, "scale": 2} if framework == "fastapi" else {}
    assert resources["Book"]["fields"]["price"] == {
        "type": "number",
        "format": "decimal",
        **digits,
        "nullable": True,
    }
    notes = [line for line in result.stderr.splitlines() if line.startswith("note: ")]
    own = "a table the panel or the frameworks use themselves; table skipped"
    first = "panel_users" if framework == "fastapi" else "django_migrations"
    assert f"note: {first}: {own}" in notes
    others = [note for note in notes if not note.endswith(own)]
    if framework == "django":
        assert others == [
            "note: books.price: NUMERIC without precision or scale; the manifest's "
            "decimal defaults (precision 15, scale 2) apply: set the ones the data "
            "needs"
        ]
    else:
        assert others == []
    assert run_panelforge("validate", str(manifest)).returncode == 0
