"""Regenerating with column mapping (issue 22): a changed ``column:`` renames the
column with its rows kept, and a ``column:`` equal to the field's name changes nothing.

A project whose tables and columns have PascalCase names (keys, a unique string, a
decimal, a relation in a unique group) holds rows; its ``column:`` mappings then
change, on SQLite (Alembic's batch mode rebuilds the table; Django remakes it) and on
PostgreSQL (``ALTER TABLE … RENAME COLUMN``), then the key's column of the related
table is renamed too. The rows are read back from the new columns, the unique rules
and the foreign key still hold, and the served API answers them by field name.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import sqlalchemy as sa
from conformance.support import PASSWORD, Api, Deployment, crud
from conftest import sqlalchemy_url
from test_change_matrix import Panel, changed, query

from generator.manifest.load import load_manifest

pytestmark = pytest.mark.e2e

BASE = """\
project: {name: tunes_admin}
resources:
  Artist:
    table: Artist
    key: id
    fields:
      id: {type: integer, column: ArtistId}
      name: {type: string, maxLength: 120, column: Name}
    required: [name]
  Track:
    table: Track
    key: id
    fields:
      id: {type: integer, column: TrackId}
      title: {type: string, maxLength: 200, column: Name}
      code: {type: string, maxLength: 20, column: TrackCode, unique: true}
      price: {type: number, format: decimal, precision: 10, scale: 2, column: UnitPrice}
      artist: {type: integer, relation: Artist, column: ArtistId}
      composer: {type: string, maxLength: 200}
    required: [title, artist]
    unique: [[artist, title]]
"""
ROWS = 12

RENAMED = (
    ("column: Name}\n      code", "column: TrackName}\n      code"),
    ("column: TrackCode", "column: Code"),
    ("column: UnitPrice", "column: Price"),
    ("relation: Artist, column: ArtistId}", "relation: Artist, column: Artist_Id}"),
    ("composer: {type: string, maxLength: 200}", "composer: {type: string, "
     "maxLength: 200, column: Composer}"),
)  # fmt: skip


def _seed(url: str) -> list[tuple[object, ...]]:
    engine = sa.create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as db:
            for name in ("Miles", "Monk"):
                db.execute(
                    sa.text('INSERT INTO "Artist" ("Name") VALUES (:n)'), {"n": name}
                )
            for i in range(1, ROWS + 1):
                db.execute(
                    sa.text(
                        'INSERT INTO "Track" ("Name", "TrackCode", "UnitPrice", '
                        '"ArtistId", composer) VALUES (:t, :c, :p, :a, :m)'
                    ),
                    {"t": f"Take {i}", "c": f"T-{i}", "p": f"{i}.25",
                     "a": 1 + i % 2, "m": f"Composer {i}"},
                )  # fmt: skip
    finally:
        engine.dispose()
    return _tracks(url, ("Name", "TrackCode", "UnitPrice", "ArtistId", "composer"))


def _tracks(url: str, columns: tuple[str, ...]) -> list[tuple[object, ...]]:
    named = ", ".join(f'"{c}"' for c in ("TrackId", *columns))
    rows = query(url, f'SELECT {named} FROM "Track" ORDER BY "TrackId"')
    return [tuple(str(v) for v in row) for row in rows]


def _refused(url: str, sql: str) -> bool:
    engine = sa.create_engine(sqlalchemy_url(url))
    try:
        with engine.begin() as db:
            db.execute(sa.text(sql))
        return False
    except sa.exc.IntegrityError:
        return True
    finally:
        engine.dispose()


@pytest.mark.parametrize(
    ("framework", "database_url"),
    [
        pytest.param("fastapi", "sqlite", id="fastapi-sqlite"),
        pytest.param("django", "sqlite", id="django-sqlite"),
        pytest.param(
            "fastapi", "postgres", id="fastapi-postgres", marks=pytest.mark.postgres
        ),
        pytest.param(
            "django", "postgres", id="django-postgres", marks=pytest.mark.postgres
        ),
    ],
    indirect=["database_url"],
)
def test_a_changed_column_mapping_renames_the_column_and_keeps_the_rows(
    tmp_path: Path, framework: str, database_url: str
) -> None:
    panel = Panel(tmp_path, framework, database_url, manifest=BASE)
    result = panel.generate(BASE, "--quiet")
    assert result.returncode == 0, result.stderr
    panel.migrate()
    before = _seed(database_url)
    migrations = set(panel.files())

    # The default column named as it is: nothing to migrate.
    same = changed(BASE, ("      composer: {type: string, maxLength: 200}",
                          "      composer: {type: string, maxLength: 200, "
                          "column: composer}"))  # fmt: skip
    out = panel.applied(same)
    assert "rename" not in out
    assert set(panel.files()) == migrations

    out = panel.applied(changed(BASE, *RENAMED))
    for old, new in (
        ("Name", "TrackName"),
        ("TrackCode", "Code"),
        ("UnitPrice", "Price"),
        ("ArtistId", "Artist_Id"),
        ("composer", "Composer"),
    ):
        assert f"[safe] rename column Track.{old} to {new}" in out, out
    after = _tracks(
        database_url, ("TrackName", "Code", "Price", "Artist_Id", "Composer")
    )
    assert after == before

    # The unique field, the unique group and the foreign key hold on the new names.
    assert _refused(
        database_url,
        'INSERT INTO "Track" ("TrackName", "Code", "Artist_Id") '
        "VALUES ('X', 'T-1', 1)",
    )
    assert _refused(
        database_url,
        'INSERT INTO "Track" ("TrackName", "Code", "Artist_Id") '
        "VALUES ('Take 2', 'T-new', 1)",
    )
    if not database_url.startswith("sqlite"):  # SQLite checks keys per connection
        assert _refused(
            database_url,
            'INSERT INTO "Track" ("TrackName", "Code", "Artist_Id") '
            "VALUES ('Y', 'T-other', 99)",
        )

    # The key's column renamed: the relation's foreign key follows it.
    out = panel.applied(
        changed(
            panel.manifest,
            ("column: ArtistId}\n      name", "column: Key}\n      name"),
        )
    )
    assert "[safe] rename column Artist.ArtistId to Key" in out, out
    artists = query(database_url, 'SELECT "Key", "Name" FROM "Artist" ORDER BY "Key"')
    assert artists == [(1, "Miles"), (2, "Monk")]
    if database_url.startswith("sqlite"):
        keys = query(database_url, 'PRAGMA foreign_key_list("Track")')
        assert [(k[2], k[3], k[4]) for k in keys] == [("Artist", "Artist_Id", "Key")]
        assert query(database_url, "PRAGMA foreign_key_check") == []
    else:
        assert _refused(
            database_url,
            'INSERT INTO "Track" ("TrackName", "Code", "Artist_Id") '
            "VALUES ('Z', 'T-z', 99)",
        )

    _check_served(panel, tmp_path)


def _check_served(panel: Panel, tmp_path: Path) -> None:
    """The regenerated project answers the kept rows by field name."""
    manifest_path = tmp_path / "manifest.yaml"
    project = load_manifest(manifest_path)
    server = panel.server()
    server.create_user("admin@example.com", PASSWORD)
    server.start()
    try:
        database = "sqlite" if panel.url.startswith("sqlite") else "postgres"
        deployment = Deployment(panel.framework, "tunes", database, project, server)
        with Api(deployment) as api:
            api.log_in("admin@example.com", PASSWORD)
            track = project.resource("Track")
            listed = api.get(crud(track), params={"sort": "-price", "per_page": 3})
            assert listed.status_code == 200, listed.text
            records = listed.json()["data"]
            assert [r["title"] for r in records] == [f"Take {i}" for i in (12, 11, 10)]
            assert (
                records[0]["code"] == "T-12" and records[0]["composer"] == "Composer 12"
            )
            shown = api.get(crud(track, records[0]["id"])).json()
            assert shown["artist"] == 1
    finally:
        server.stop()
