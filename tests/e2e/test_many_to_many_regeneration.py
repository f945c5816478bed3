"""Regenerating with a many-to-many field added, then removed, on a database with rows.

Adding ``tracks`` to ``Playlist`` writes a migration that creates the link table and
touches no row; the served app links the rows already there. Removing the field
again would drop the link table with its links: refused like a dropped column
(nothing written) until ``--allow-drop Playlist.tracks`` accepts it.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest
from conformance.support import PASSWORD, Api, Deployment, crud
from conftest import FRAMEWORKS, SERVERS, run_panelforge

from generator.manifest.load import load_manifest

pytestmark = pytest.mark.e2e

WITHOUT = """\
project: {name: mix_admin}
resources:
  Playlist:
    fields:
      name: {type: string, maxLength: 100}
  Track:
    fields:
      title: {type: string, maxLength: 100}
"""
WITH_FIELD = WITHOUT.replace(
    "      name: {type: string, maxLength: 100}\n",
    "      name: {type: string, maxLength: 100}\n"
    "      tracks: {type: array, items: {type: integer, relation: Track}}\n",
)
ADMIN = "admin@example.com"


def _generate(
    tmp_path: Path, text: str, framework: str, *extra: str
) -> tuple[int, str]:
    source = tmp_path / "mix.yaml"
    source.write_text(text)
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    result = run_panelforge(
        "generate", str(source), "-o", str(tmp_path / "mix"),
        "--framework", framework, *extra, env=env,
    )  # fmt: skip
    return result.returncode, str(result.stdout) + str(result.stderr)


def _rows(database: Path) -> list[tuple[object, ...]]:
    with sqlite3.connect(database) as db:
        playlists = db.execute("SELECT * FROM playlists ORDER BY id").fetchall()
        tracks = db.execute("SELECT * FROM tracks ORDER BY id").fetchall()
    return [*playlists, *tracks]


def _tables(database: Path) -> set[str]:
    with sqlite3.connect(database) as db:
        found = db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {name for (name,) in found}


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_adding_keeps_rows_and_removing_links_is_refused(
    tmp_path: Path, framework: str
) -> None:
    project, database = tmp_path / "mix", tmp_path / "mix.db"
    code, printed = _generate(tmp_path, WITHOUT, framework)
    assert code == 0, printed
    server = SERVERS[framework](project, f"sqlite:///{database}")
    server.migrate()
    with sqlite3.connect(database) as db:
        db.execute("INSERT INTO playlists (name) VALUES ('Kept')")
        db.executemany("INSERT INTO tracks (title) VALUES (?)", [("One",), ("Two",)])
    before = _rows(database)

    code, printed = _generate(tmp_path, WITH_FIELD, framework)
    assert code == 0, printed
    assert "create link table playlists_tracks" in printed, printed
    server.migrate()
    assert _rows(database) == before
    assert "playlists_tracks" in _tables(database)
    server.create_user(ADMIN, PASSWORD)
    server.start()
    try:
        manifest = load_manifest(tmp_path / "mix.yaml")
        playlist = manifest.resource("Playlist")
        deployment = Deployment(framework, "mix", "sqlite", manifest, server)
        with Api(deployment) as api:
            api.log_in(ADMIN, PASSWORD)
            changed = api.request("PATCH", crud(playlist, 1), json={"tracks": [2, 1]})
            assert changed.status_code == 200, changed.text
            assert changed.json()["data"]["tracks"] == [1, 2]
    finally:
        server.stop()

    files = sorted(p.name for p in project.rglob("*.py"))
    code, printed = _generate(tmp_path, WITHOUT, framework)
    assert code == 1, printed
    assert "drop link table playlists_tracks (Playlist.tracks)" in printed, printed
    assert "--allow-drop Playlist.tracks" in printed, printed
    assert sorted(p.name for p in project.rglob("*.py")) == files  # nothing written

    code, printed = _generate(
        tmp_path, WITHOUT, framework, "--allow-drop", "Playlist.tracks"
    )
    assert code == 0, printed
    server.migrate()
    assert _rows(database) == before
    assert "playlists_tracks" not in _tables(database)
