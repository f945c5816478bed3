"""The change matrix: every kind of manifest change on a database that holds rows.

For each framework and database (SQLite, PostgreSQL, MariaDB), one project lives
through a chain of manifest changes, as a team's project does. Each change either is
refused before anything is written (exit 1, the counts named, the project's files and
rows untouched), or is applied and migrated with every row kept (or mapped as
declared). At the end every row is read and saved back unchanged through the running
API, a migration is undone, and undoing one that would round a number is refused.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import sqlalchemy as sa
from conftest import SERVERS, Server, run_panelforge, sqlalchemy_url

pytestmark = pytest.mark.e2e

BASE = """\
project: {name: desk_admin}
auth: {jwt: true}
resources:
  Customer:
    fields:
      name: {type: string, maxLength: 80}
    required: [name]
  Ticket:
    fields:
      title: {type: string, maxLength: 40}
      status: {type: string, enum: [open, waiting_for_customer, closed]}
      ref: {type: string, maxLength: 20}
      code: {type: string, maxLength: 12}
      notes: {type: string, format: text}
      priority: {type: integer}
      estimate: {type: number}
      customer: {type: integer, relation: Customer}
    required: [title]
  Comment:
    fields:
      body: {type: string}
      ticket: {type: integer, relation: Ticket}
"""
STATUSES = ("open", "waiting_for_customer", "closed")
ROWS = 40
WAITING = sum(1 for i in range(1, ROWS + 1) if i % 3 == 1)  # 14
CLOSED = sum(1 for i in range(1, ROWS + 1) if i % 3 == 2)  # 13


def _seed(url: str) -> None:
    engine = sa.create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as db:
            for name in ("Ann", "Bo", "Cy"):
                db.execute(
                    sa.text("INSERT INTO customers (name) VALUES (:n)"), {"n": name}
                )
            for i in range(1, ROWS + 1):
                db.execute(
                    sa.text(
                        "INSERT INTO tickets (title, status, ref, code, notes, "
                        "priority, estimate, customer) VALUES (:title, :status, :ref, "
                        ":code, :notes, :priority, :estimate, :customer)"
                    ),
                    {
                        "title": f"Customer complaint number {i}",
                        "status": STATUSES[i % 3],
                        "ref": f"REF-{i}" if i % 2 else str(i),
                        "code": str(1000 + i),
                        "notes": None if i % 4 else f"note {i}",
                        "priority": None if i % 10 == 0 else i % 5,
                        "estimate": 2.5 if i % 8 == 0 else float(i),
                        "customer": 1 + i % 3,
                    },
                )
            for i in range(1, 6):
                db.execute(
                    sa.text("INSERT INTO comments (body, ticket) VALUES (:b, :t)"),
                    {"b": f"comment {i}", "t": i},
                )
    finally:
        engine.dispose()


def query(url: str, sql: str) -> list[tuple[Any, ...]]:
    engine = sa.create_engine(sqlalchemy_url(url))
    try:
        with engine.connect() as db:
            return [tuple(row) for row in db.execute(sa.text(sql))]
    finally:
        engine.dispose()


def execute(url: str, sql: str) -> None:
    engine = sa.create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as db:
            db.execute(sa.text(sql))
    finally:
        engine.dispose()


@dataclass
class Panel:
    """The project under test: its manifest, folder, database and commands."""

    root: Path
    framework: str
    url: str
    manifest: str = BASE

    @property
    def dest(self) -> Path:
        return self.root / "project"

    def generate(self, text: str, *extra: str) -> subprocess.CompletedProcess:
        path = self.root / "manifest.yaml"
        path.write_text(text)
        return run_panelforge(
            "generate",
            str(path),
            "-o",
            str(self.dest),
            "--framework",
            self.framework,
            *extra,
            env={"DATABASE_URL": self.url},
        )

    def server(self) -> Server:
        return SERVERS[self.framework](self.dest, self.url)

    def manage(self, *args: str) -> subprocess.CompletedProcess:
        server = self.server()
        return subprocess.run(
            server.command(*args),
            cwd=self.dest,
            env=server.env,
            capture_output=True,
            text=True,
            timeout=180,
        )

    def migrate(self) -> None:
        result = self.manage("migrate")
        assert result.returncode == 0, result.stdout + result.stderr

    def files(self) -> dict[str, bytes]:
        return {
            p.relative_to(self.dest).as_posix(): p.read_bytes()
            for p in sorted(self.dest.rglob("*"))
            if p.is_file() and "__pycache__" not in p.parts
        }

    def snapshot(self) -> tuple[dict[str, bytes], list[tuple[Any, ...]]]:
        return self.files(), query(self.url, "SELECT * FROM tickets ORDER BY id")

    def refused(self, text: str, *expected: str, extra: tuple[str, ...] = ()) -> None:
        """Generating ``text`` exits 1 naming ``expected``; nothing changes."""
        before = self.snapshot()
        result = self.generate(text, *extra)
        assert result.returncode == 1, result.stdout + result.stderr
        assert "Traceback" not in result.stderr
        for words in expected:
            assert words in result.stderr, result.stderr
        assert self.snapshot() == before

    def applied(self, text: str, *extra: str) -> str:
        """Generating ``text`` and migrating succeed; returns generate's output.

        Django's ``makemigrations --check`` then finds no migration missing.
        """
        result = self.generate(text, *extra)
        assert result.returncode == 0, result.stdout + result.stderr
        if self.framework == "django":
            found = self.manage("makemigrations", "--check", "--dry-run")
            assert found.returncode == 0, found.stdout + found.stderr
        self.migrate()
        self.manifest = text
        return result.stdout


def changed(text: str, *replacements: tuple[str, str]) -> str:
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return text


@pytest.fixture
def panel(framework: str, tmp_path: Path, database_url: str) -> Panel:
    made = Panel(tmp_path, framework, database_url)
    result = made.generate(BASE, "--quiet")
    assert result.returncode == 0, result.stderr
    made.migrate()
    _seed(database_url)
    return made


# Changes the data decides against (the seeded rows do not fit): refused with counts.
REFUSED: list[tuple[str, Callable[[str], str], tuple[str, ...]]] = [
    (
        "resource renamed without renamed_from",
        lambda m: m.replace("Ticket", "Issue"),
        ("drop table tickets", "renamed_from: Ticket", "--allow-drop Ticket"),
    ),
    (
        "resource renamed, table kept, without renamed_from",
        lambda m: changed(
            m.replace("Ticket", "Issue"),
            ("  Issue:\n", "  Issue:\n    table: tickets\n"),
        ),
        ("renamed_from: Ticket",),
    ),
    (
        "field dropped",
        lambda m: changed(m, ("      notes: {type: string, format: text}\n", "")),
        ("drop column tickets.notes", "--allow-drop Ticket.notes"),
    ),
    (
        "maxLength narrowed below the data",
        lambda m: changed(
            m,
            (
                "title: {type: string, maxLength: 40}",
                "title: {type: string, maxLength: 10}",
            ),
        ),
        ("tickets.title: 40 rows have more than 10 characters",),
    ),
    (
        "enum value removed while in use",
        lambda m: changed(
            m, ("[open, waiting_for_customer, closed]", "[open, closed]")
        ),
        (
            f"tickets.status: {WAITING} rows have an enum value that goes away",
            "renamed_values",
        ),
    ),
    (
        "enum value renamed without a map",
        lambda m: changed(m, ("waiting_for_customer", "waiting")),
        (f"{WAITING} rows have an enum value that goes away ('waiting_for_customer')",),
    ),
    (
        "string to integer with text values",
        lambda m: changed(
            m, ("ref: {type: string, maxLength: 20}", "ref: {type: integer}")
        ),
        ("tickets.ref: 20 rows have a value that is not a valid integer",),
    ),
    (
        "renamed_from and a type change",
        lambda m: changed(
            m,
            (
                "ref: {type: string, maxLength: 20}",
                "reference: {type: integer, renamed_from: ref}",
            ),
        ),
        ("tickets.ref: 20 rows have a value that is not a valid integer",),
    ),
    (
        "number to integer with fractions",
        lambda m: changed(m, ("estimate: {type: number}", "estimate: {type: integer}")),
        ("tickets.estimate: 5 rows have a value that is not a valid integer",),
    ),
    (
        "nullable to required without a default",
        lambda m: changed(m, ("required: [title]", "required: [title, priority]")),
        ("tickets.priority: 4 rows have no value and the field becomes required",),
    ),
    (
        "unique on a column with duplicates",
        lambda m: changed(
            m, ("priority: {type: integer}", "priority: {type: integer, unique: true}")
        ),
        ("tickets.priority: 5 values are shared by several rows",),
    ),
    (
        "required relation added to a table with rows",
        lambda m: changed(
            m,
            (
                "      customer: {type: integer, relation: Customer}\n",
                "      customer: {type: integer, relation: Customer}\n"
                "      owner: {type: integer, relation: Customer}\n",
            ),
            ("required: [title]", "required: [title, owner]"),
        ),
        ("tickets.owner: 40 rows have no value for this new required field",),
    ),
]


def _matrix() -> list:
    """Both frameworks on SQLite, and each on one database server (CI time):
    FastAPI on PostgreSQL, Django on MariaDB; ``PANELFORGE_FULL_MATRIX=1``: every
    framework on every database."""
    servers = {"postgres": [pytest.mark.postgres], "mariadb": [pytest.mark.mariadb]}
    if os.environ.get("PANELFORGE_FULL_MATRIX"):
        pairs = [(f, d) for f in ("fastapi", "django") for d in ("sqlite", *servers)]
    else:
        pairs = [
            ("fastapi", "sqlite"),
            ("django", "sqlite"),
            ("fastapi", "postgres"),
            ("django", "mariadb"),
        ]
    return [
        pytest.param(f, d, id=f"{f}-{d}", marks=servers.get(d, [])) for f, d in pairs
    ]


# MariaDB too (MySQL's DDL cannot roll back, its renames restate the column, its
# foreign keys need their index): the chain of changes is where that shows.
@pytest.mark.parametrize(
    ("framework", "database_url"), _matrix(), indirect=["database_url"]
)
def test_every_change_keeps_or_refuses_and_the_rows_still_save(panel: Panel) -> None:
    url = panel.url
    keys = query(url, "SELECT id FROM tickets ORDER BY id")

    # 1. What would lose data is refused before anything is written.
    for _name, change, expected in REFUSED:
        panel.refused(change(panel.manifest), *expected)

    # 2. The declared versions are applied, every row kept or mapped as declared.
    renamed = changed(
        panel.manifest.replace("Ticket", "Issue"),
        ("  Issue:\n", "  Issue:\n    renamed_from: Ticket\n"),
    )
    out = panel.applied(renamed)
    assert "[safe] rename table tickets to issues, rows kept" in out
    assert query(url, "SELECT id FROM issues ORDER BY id") == keys
    assert query(url, "SELECT ticket FROM comments ORDER BY id") == [
        (i,) for i in range(1, 6)
    ]

    mapped = changed(
        panel.manifest,
        (
            "[open, waiting_for_customer, closed]}",
            "[open, waiting, closed], renamed_values: {waiting_for_customer: waiting}}",
        ),
    )
    panel.applied(mapped)
    assert query(url, "SELECT COUNT(*) FROM issues WHERE status = 'waiting'") == [
        (WAITING,)
    ]
    retired = changed(
        panel.manifest,
        (
            "[open, waiting, closed], renamed_values: {waiting_for_customer: waiting}}",
            "[open, waiting], renamed_values: {closed: open}}",
        ),
    )
    panel.applied(retired)
    assert query(
        url, "SELECT status, COUNT(*) FROM issues GROUP BY status ORDER BY status"
    ) == [
        ("open", ROWS - WAITING),
        ("waiting", WAITING),
    ]

    filled = changed(
        panel.manifest,
        ("priority: {type: integer}", "priority: {type: integer, default: 3}"),
        ("required: [title]", "required: [title, priority]"),
    )
    panel.applied(filled)
    assert query(url, "SELECT COUNT(*) FROM issues WHERE priority = 3") == [(4 + 8,)]

    fits = changed(panel.manifest, ("maxLength: 40", "maxLength: 30"))
    panel.applied(fits)
    assert query(url, "SELECT MAX(LENGTH(title)) FROM issues") == [(28,)]

    numeric = changed(  # renamed and cast at once (Django: text index dropped first)
        panel.manifest,
        (
            "code: {type: string, maxLength: 12}",
            "number: {type: integer, renamed_from: code}",
        ),
    )
    panel.applied(numeric)
    assert query(url, "SELECT number FROM issues ORDER BY id") == [
        (1000 + k,) for (k,) in keys
    ]

    distinct = changed(
        panel.manifest,
        (
            "number: {type: integer, renamed_from: code}",
            "number: {type: integer, unique: true}",
        ),
    )
    out = panel.applied(distinct)
    assert "[decided by data] make issues.number unique" in out

    dropped = changed(
        panel.manifest, ("      notes: {type: string, format: text}\n", "")
    )
    out = panel.applied(dropped, "--allow-drop", "Issue.notes")
    assert "[destructive] drop column issues.notes and its values" in out

    # 3. Every row saves unchanged through the API.
    server = panel.server()
    server.create_user("admin@example.com", "correct horse battery staple")
    server.start()
    try:
        with httpx.Client(
            base_url=server.base_url, headers={"Accept": "application/json"}, timeout=10
        ) as client:
            login = client.post(
                "/admin/authenticate",
                json={
                    "username": "admin@example.com",
                    "password": "correct horse battery staple",
                },
            )
            assert login.status_code == 200, login.text
            client.headers["Authorization"] = f"Bearer {login.json()['token']}"
            listed = client.get(
                "/admin/resource/issue-resource/crud", params={"per_page": 100}
            )
            assert listed.status_code == 200, listed.text
            records = listed.json()["data"]
            assert len(records) == ROWS
            for record in records:
                body = {k: v for k, v in record.items() if k != "id"}
                saved = client.put(
                    f"/admin/resource/issue-resource/crud/{record['id']}", json=body
                )
                assert saved.status_code == 200, (record, saved.text)
            again = client.get(
                "/admin/resource/issue-resource/crud", params={"per_page": 100}
            )
            assert again.json()["data"] == records
            # a unique field refuses another record's value: 422, never a 500
            first, second = records[0], records[1]
            taken = client.patch(
                f"/admin/resource/issue-resource/crud/{second['id']}",
                json={"number": first["number"]},
            )
            assert taken.status_code == 422, taken.text
            assert taken.json()["errors"] == {
                "number": ["The Number has already been taken."]
            }
            body = {k: v for k, v in first.items() if k != "id"}
            assert client.post("/admin/resource/issue-resource/crud", json=body).json()[
                "errors"
            ] == {"number": ["The Number has already been taken."]}
    finally:
        server.stop()

    # 4. Undo: widening is undone; undoing it once a value does not fit is refused.
    widened = changed(
        panel.manifest,
        (
            "priority: {type: integer, default: 3}",
            "priority: {type: number, default: 3}",
        ),
    )
    panel.applied(widened)
    revisions = sorted(_revisions(panel))
    previous = revisions[-2]
    execute(url, "UPDATE issues SET priority = 2.5 WHERE id = 1")
    undo = panel.manage(*_back_to(panel, previous))
    assert undo.returncode == 1, undo.stdout + undo.stderr
    assert (
        "issues.priority: 1 row has a value that is not a valid integer" in undo.stderr
    )
    assert "Traceback" not in undo.stderr
    assert query(url, "SELECT priority FROM issues WHERE id = 1") == [(2.5,)]
    execute(url, "UPDATE issues SET priority = 2 WHERE id = 1")
    undo = panel.manage(*_back_to(panel, previous))
    assert undo.returncode == 0, undo.stdout + undo.stderr
    assert query(url, "SELECT COUNT(*) FROM issues") == [(ROWS,)]


def _revisions(panel: Panel) -> list[str]:
    folder = "migrations/versions" if panel.framework == "fastapi" else "app/migrations"
    return [p.stem for p in (panel.dest / folder).glob("0*.py")]


def _back_to(panel: Panel, name: str) -> tuple[str, ...]:
    if panel.framework == "fastapi":
        return ("migrate", "--revision", name.split("_", 1)[0])
    return ("migrate", "app", name.split("_", 1)[0])
