"""Regenerating with a has-many field added, then removed, on a database with rows.

A has-many field has no column: adding ``tracks`` to ``Album`` (and ``reports`` to
the self-referencing ``Employee``) plans no schema change and writes no migration,
the rows stay as they were, and the served app answers the children of the rows
already there; removing the fields again is just as quiet.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from conformance.support import HTML, PASSWORD, Api, Deployment, crud, page
from conftest import FRAMEWORKS, REPO, SERVERS, run_panelforge

from generator.manifest.load import load_manifest

pytestmark = pytest.mark.e2e

WITH_FIELDS = (REPO / "tests" / "conformance" / "children" / "music.yaml").read_text()
# The same manifest without its has-many fields: their lines, from the type on.
_HAS_MANY_LINES = ("tracks:", "reports:", "type: array", "readOnly: true", "items:")
WITHOUT = "\n".join(
    line
    for line in WITH_FIELDS.splitlines()
    if not line.strip().startswith(_HAS_MANY_LINES)
    and not line.strip().startswith(("inverse:", "description: The", "label: Direct"))
)
ADMIN = "admin@example.com"


def _generate(tmp_path: Path, text: str, framework: str) -> str:
    source = tmp_path / "music.yaml"
    source.write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = run_panelforge(
        "generate", str(source), "-o", str(tmp_path / "music"),
        "--framework", framework, env=env,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    return str(result.stdout)


def _migrations(project: Path) -> list[str]:
    """The migration files of either framework's project."""
    folders = (project / "migrations" / "versions", project / "app" / "migrations")
    return sorted(
        str(path.relative_to(project))
        for folder in folders
        if folder.is_dir()
        for path in folder.glob("*.py")
    )


def _dump(database: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(database) as db:
        schema = db.execute("SELECT sql FROM sqlite_master ORDER BY name").fetchall()
        rows = db.execute("SELECT * FROM tracks ORDER BY id").fetchall()
        people = db.execute("SELECT * FROM employees ORDER BY id").fetchall()
    return [*schema, *rows, *people]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_adding_and_removing_has_many_changes_no_table(
    tmp_path: Path, framework: str
) -> None:
    project, database = tmp_path / "music", tmp_path / "music.db"
    assert "type: array" not in WITHOUT and "inverse" not in WITHOUT
    _generate(tmp_path, WITHOUT, framework)
    server = SERVERS[framework](project, f"sqlite:///{database}")
    server.migrate()
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO albums (title) VALUES ('Kept')")
        db.executemany(
            "INSERT INTO tracks (title, position, album) VALUES (?, ?, ?)",
            [("One", 1, 1), ("Two", 2, 1), ("Loose", 1, None)],
        )
        db.execute("INSERT INTO employees (name, manager) VALUES ('Boss', NULL)")
        db.execute("INSERT INTO employees (name, manager) VALUES ('Aide', 1)")
    before, migrations = _dump(database), _migrations(project)

    printed = _generate(tmp_path, WITH_FIELDS, framework)
    assert "schema changes" not in printed, printed
    assert _migrations(project) == migrations
    server.migrate()
    assert _dump(database) == before
    server.create_user(ADMIN, PASSWORD)
    server.start()
    try:
        manifest = load_manifest(tmp_path / "music.yaml")
        album, employee = manifest.resource("Album"), manifest.resource("Employee")
        deployment = Deployment(framework, "music", "sqlite", manifest, server)
        with Api(deployment) as api:
            api.log_in(ADMIN, PASSWORD)
            shown = api.get(crud(album, 1) + "?with=tracks").json()
            assert shown == {"id": 1, "title": "Kept", "tracks": [1, 2]}
            boss = api.get(crud(employee, 1) + "?with=reports").json()
            assert boss["reports"] == [2]
            html = api.get(page(album, "detail-page", 1), headers=HTML)
            assert "<h2>Tracks (2)</h2>" in html.text
    finally:
        server.stop()

    printed = _generate(tmp_path, WITHOUT, framework)
    assert "schema changes" not in printed, printed
    assert _migrations(project) == migrations
    server.migrate()
    assert _dump(database) == before
