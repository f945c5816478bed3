"""Composite keys in the model and in storage: the IR keeps the parts in the key's
order, the FastAPI model and migration make them one primary key, and Django's model
and migration declare a ``CompositePrimaryKey`` (Django 5.2).

Built from the manifest data (``build_project``) without the checks.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import sqlalchemy as sa
import yaml
from conftest import MARIADB_PARAM, mariadb_database, postgres_database

from generator.errors import OutputError
from generator.manifest.build import build_project
from generator.model.irdata import project_from_data, project_to_data
from generator.model.samples import creation_order
from generator.regen.migrations import diff_schema
from generator.targets import common
from generator.targets.django import storage as django_storage
from generator.targets.fastapi import migrations
from generator.targets.fastapi import storage as fastapi_storage

MANIFEST = (
    Path(__file__).resolve().parents[1]
    / "conformance"
    / "composite"
    / "link_table.yaml"
)


def project():
    data = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    return build_project(data, MANIFEST.name)


def test_the_parts_come_first_in_the_key_order_and_are_required() -> None:
    link = project().resource("PlaylistTrack")
    assert link.is_composite and link.key_parts == ("playlist", "track")
    assert link.key == ""
    assert [f.name for f in link.fields] == ["playlist", "track", "position"]
    parts = link.fields[:2]
    assert all(p.key_part and p.required and not p.is_key for p in parts)
    assert not any(p.column_nullable for p in parts)
    assert link.default_sort == "playlist"


def test_the_state_file_records_the_parts_only_for_a_composite_key() -> None:
    tunes = project()
    data = project_to_data(tunes)
    assert project_from_data(data) == tunes
    link, playlist = data["resources"][2], data["resources"][0]
    assert link["key_parts"] == ["playlist", "track"]
    assert "key_parts" not in playlist
    assert all("key_part" not in f for f in playlist["fields"])


def test_fastapi_makes_both_parts_the_primary_key() -> None:
    tunes = project()
    link = tunes.resource("PlaylistTrack")
    lines = fastapi_storage.column_lines(link, tunes)
    assert "primary_key=True" in lines[0] and "playlists.id" in lines[0]
    assert "primary_key=True" in lines[1] and "tracks.id" in lines[1]
    assert "primary_key=True" not in lines[2]
    table = fastapi_storage.table_context(link, tunes)
    constraint = [e for e in table["elements"] if "PrimaryKeyConstraint" in e]
    assert constraint == [
        'sa.PrimaryKeyConstraint("playlist", "track", name=op.f("pk_playlist_track")),'
    ]
    assert not any("sqlite_autoincrement" in e for e in table["elements"])


def test_django_declares_a_composite_primary_key_in_model_and_migration() -> None:
    tunes = project()
    link = tunes.resource("PlaylistTrack")
    lines = django_storage.model_field_lines(link, tunes)
    assert lines[0] == 'pk = models.CompositePrimaryKey("playlist", "track")'
    assert lines[1].startswith("playlist = models.ForeignKey(")
    assert "primary_key" not in "".join(lines[1:])
    migration = django_storage.migration_field_lines(link, tunes)
    assert migration[0] == (
        '("pk", models.CompositePrimaryKey("playlist", "track", blank=True, '
        "editable=False, primary_key=True, serialize=False)),"
    )


class _Op:
    """Enough of Alembic's ``op`` to run the initial migration's table lines."""

    def __init__(self, metadata: sa.MetaData) -> None:
        self.metadata = metadata

    def f(self, name: str) -> str:
        return name

    def create_table(self, name: str, *elements: object, **options: object) -> None:
        sa.Table(name, self.metadata, *elements, **options)

    def create_index(self, name: str, table: str, columns: list[str], **kw) -> None:
        table_ = self.metadata.tables[table]
        sa.Index(name, *(table_.c[c] for c in columns), **kw)


def _migrated(url: str) -> sa.Engine:
    tunes = project()
    metadata = sa.MetaData()
    code = "\n".join(
        line
        for resource in creation_order(tunes)
        for line in migrations._create_table_lines(resource, tunes, ())
    )
    exec(code, {"sa": sa, "op": _Op(metadata)})  # noqa: S102 - the emitted lines
    engine = sa.create_engine(url.replace("mysql://", "mysql+pymysql://", 1))
    if engine.dialect.name == "sqlite":
        sa.event.listen(
            engine, "connect", lambda c, _: c.execute("PRAGMA foreign_keys=ON")
        )
    metadata.create_all(engine)
    return engine


@pytest.mark.parametrize("database", ["sqlite", "postgres", MARIADB_PARAM])
def test_the_migrated_table_keeps_each_pair_once_and_its_parts_exist(
    database: str, tmp_path: Path
) -> None:
    with contextlib.ExitStack() as stack:
        servers = {"postgres": postgres_database, "mariadb": mariadb_database}
        url = (
            f"sqlite:///{tmp_path / 'tunes.db'}"
            if database == "sqlite"
            else stack.enter_context(servers[database]())
        )
        engine = _migrated(url)
        stack.callback(engine.dispose)
        insert = "INSERT INTO playlist_track (playlist, track, position) VALUES"
        with engine.begin() as connection:
            connection.execute(sa.text("INSERT INTO playlists (name) VALUES ('a')"))
            connection.execute(sa.text("INSERT INTO tracks (title) VALUES ('x')"))
            connection.execute(sa.text("INSERT INTO tracks (title) VALUES ('y')"))
            connection.execute(sa.text(f"{insert} (1, 1, 1), (1, 2, 2)"))
        for values in ("(1, 1, 3)", "(1, 9, 3)", "(NULL, 1, 3)"):
            with pytest.raises(sa.exc.IntegrityError):
                with engine.begin() as connection:
                    connection.execute(sa.text(f"{insert} {values}"))
        inspector = sa.inspect(engine)
        key = inspector.get_pk_constraint("playlist_track")
        assert key["constrained_columns"] == ["playlist", "track"]


def test_the_emitted_declaration_names_the_parts_in_the_key_order() -> None:
    tunes = project()
    link = tunes.resource("PlaylistTrack")
    block = common.fields_block(link, tunes)
    assert block.count("key_part=True") == 2
    assert (
        block.index('"playlist"') < block.index('"track"') < block.index('"position"')
    )
    assert common.declaration_lines(link, tunes)[0] == (
        'key_parts = ("playlist", "track")'
    )
    playlist = tunes.resource("Playlist")
    assert "key_part" not in common.fields_block(playlist, tunes)
    assert not any(
        "key_parts" in line for line in common.declaration_lines(playlist, tunes)
    )


_SETTINGS = """\
SECRET_KEY = "test"
INSTALLED_APPS = ["app"]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": "db.sqlite3"}}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"
"""


def _django_models() -> str:
    tunes = project()
    classes = []
    for resource in creation_order(tunes):
        lines = django_storage.model_field_lines(resource, tunes)
        body = "".join(f"    {line}\n" for line in lines)
        meta = f"    class Meta:\n        db_table = {resource.table!r}\n"
        classes.append(f"class {resource.model_name}(models.Model):\n{body}{meta}")
    return "from django.db import models\n\n\n" + "\n\n".join(classes)


def test_django_writes_the_emitted_migration_line_and_keeps_pairs_once(
    tmp_path: Path,
) -> None:
    (tmp_path / "app" / "migrations").mkdir(parents=True)
    (tmp_path / "app" / "__init__.py").write_text("")
    (tmp_path / "app" / "migrations" / "__init__.py").write_text("")
    (tmp_path / "app" / "models.py").write_text(_django_models())
    (tmp_path / "settings.py").write_text(_SETTINGS)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "settings", "PYTHONPATH": "."}

    def django(*args: str) -> str:
        command = [sys.executable, "-m", "django", *args]
        done = subprocess.run(
            command, cwd=tmp_path, env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
        return done.stdout

    django("makemigrations", "app")
    written = (tmp_path / "app" / "migrations" / "0001_initial.py").read_text()
    tunes = project()
    ours = django_storage.migration_field_lines(tunes.resource("PlaylistTrack"), tunes)
    # What Django itself writes (black-formatted when black is on the PATH).
    assert _code(ours[0]) in _code(written)
    django("migrate", "-v0")
    insert = "INSERT INTO playlist_track (playlist, track, position) VALUES"
    script = (
        "from django.db import IntegrityError, connection\n"
        "c = connection.cursor()\n"
        "c.execute(\"INSERT INTO playlists (name) VALUES ('a')\")\n"
        "c.execute(\"INSERT INTO tracks (title) VALUES ('x')\")\n"
        f"c.execute('{insert} (1, 1, 1)')\n"
        "from app.models import PlaylistTrack\n"
        "print(PlaylistTrack.objects.get(pk=(1, 1)).position)\n"
        "try:\n"
        f"    c.execute('{insert} (1, 1, 2)')\n"
        "except IntegrityError:\n"
        "    print('refused')\n"
    )
    assert django("shell", "-v", "0", "-c", script).split() == ["1", "refused"]


def test_a_regeneration_that_makes_a_key_composite_is_refused() -> None:
    data = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    link = data["resources"]["PlaylistTrack"]
    del link["key"]
    before = build_project(data, MANIFEST.name)
    with pytest.raises(
        OutputError, match=r"the key changed \('id' → 'playlist, track'\)"
    ):
        diff_schema(before, project())
    with pytest.raises(OutputError, match=r"\('playlist, track' → 'id'\)"):
        diff_schema(project(), before)


def _code(text: str) -> str:
    """``text`` without what black changes: quotes, white space, trailing commas."""
    bare = re.sub(r"\s+", "", text.replace('"', "'"))
    return re.sub(r",\)", ")", bare)
