"""Column mapping (``column:``): the model, the state, both targets' storage and the
change plan of a changed mapping."""

from __future__ import annotations

from generator.manifest.load import parse_manifest
from generator.model import irdata
from generator.regen.change_plan import plan_changes
from generator.regen.migrations import diff_schema, structural_steps
from generator.targets.django import storage as django_storage
from generator.targets.fastapi import migrations as fastapi_migrations
from generator.targets.fastapi import storage as fastapi_storage

BASE = """
project: {name: tunes_admin}
resources:
  Artist:
    table: Artist
    key: id
    fields:
      id: {type: integer, column: ArtistId}
      name: {type: string, maxLength: 120, column: Name}
  Track:
    table: Track
    fields:
      title: {type: string, maxLength: 200, column: Name}
      artist: {type: integer, relation: Artist, column: ArtistId}
      composer: {type: string, column: composer}
    required: [title]
    unique: [[artist, title]]
"""


def project(text: str = BASE):
    return parse_manifest(text, "tunes.yaml")


def test_the_model_keeps_field_names_and_knows_the_columns() -> None:
    track = project().resource("Track")
    assert [f.name for f in track.fields] == ["id", "title", "artist", "composer"]
    assert [f.column_name for f in track.fields] == [
        "id",
        "Name",
        "ArtistId",
        "composer",
    ]
    # A column named like its field is the default one: nothing is recorded.
    assert track.field("composer").column is None
    assert project().resource("Artist").key_column == "ArtistId"


def test_the_state_records_a_mapping_only_where_there_is_one() -> None:
    tunes = project()
    data = irdata.project_to_data(tunes)
    fields = {f["name"]: f for f in data["resources"][1]["fields"]}
    assert fields["title"]["column"] == "Name"
    assert "column" not in fields["composer"]
    assert irdata.project_from_data(data) == tunes


def test_sqlalchemy_names_the_column_and_keys_it_by_the_field() -> None:
    tunes = project()
    lines = fastapi_storage.column_lines(tunes.resource("Track"), tunes)
    assert lines[1] == (
        'title: Mapped[str] = mapped_column("Name", sa.String(200), index=True, '
        'key="title")'
    )
    assert '"ArtistId",' in lines[2] and 'key="artist",' in lines[2]
    assert 'sa.ForeignKey("Artist.id", ondelete="RESTRICT")' in lines[2]
    assert lines[3].startswith("composer: Mapped[str | None] = mapped_column(\n")
    assert "key=" not in lines[3]
    artist = fastapi_storage.column_lines(tunes.resource("Artist"), tunes)
    assert artist[0] == (
        'id: Mapped[int] = mapped_column("ArtistId", BigKey, primary_key=True, '
        'key="id")'
    )


def test_the_initial_migration_names_columns_indexes_and_keys_by_column() -> None:
    tunes = project()
    table = fastapi_storage.table_context(tunes.resource("Track"), tunes)
    text = "\n".join(table["elements"] + table["indexes"])
    assert 'sa.Column("Name", sa.String(200), nullable=False)' in text
    assert '["ArtistId"],\n            ["Artist.ArtistId"],' in text
    assert 'name=op.f("fk_Track_ArtistId_Artist")' in text
    assert (
        'sa.UniqueConstraint("ArtistId", "Name", name=op.f("uq_Track_artist_title"))'
        in text
    )
    assert 'op.create_index(op.f("ix_Track_Name"), "Track", ["Name"])' in text
    model_groups = fastapi_storage.unique_constraints(
        tunes.resource("Track"), migration=False
    )
    assert model_groups == [
        'sa.UniqueConstraint("artist", "title", name="uq_Track_artist_title"),'
    ]


def test_django_names_the_column_with_db_column() -> None:
    tunes = project()
    artist, track = tunes.resource("Artist"), tunes.resource("Track")
    key = django_storage.field_call(artist.key_field, artist, tunes, migration=False)
    assert key == 'models.BigAutoField(primary_key=True, db_column="ArtistId")'
    title = django_storage.field_call(
        track.field("title"), track, tunes, migration=True
    )
    assert title == 'models.CharField(max_length=200, db_column="Name", db_index=True)'
    relation = django_storage.field_call(
        track.field("artist"), track, tunes, migration=False
    )
    assert 'db_column="ArtistId"' in relation


def test_a_changed_mapping_is_a_safe_column_rename() -> None:
    before = project()
    after = project(
        BASE.replace("column: Name}\n      artist", "column: Title}\n      artist")
    )
    diff = diff_schema(before, after)
    lines = plan_changes(diff).lines()
    assert lines == ["[safe] rename column Track.Name to Title"]
    assert plan_changes(diff).changes[0].where == "resources.Track.fields.title.column"
    assert [str(s) for s in structural_steps(diff)] == ["rename Track.Name to Title"]
    upgrade = "\n".join(fastapi_migrations.operation_lines(diff))
    assert '"Name",\n            new_column_name="Title",' in upgrade


def test_a_mapping_equal_to_the_field_name_changes_nothing() -> None:
    before = project()
    after = project(BASE.replace("composer: {type: string, column: composer}",
                                 "composer: {type: string}"))  # fmt: skip
    diff = diff_schema(before, after)
    assert plan_changes(diff).lines() == []
    assert fastapi_migrations.operation_lines(diff) == []


def test_data_checks_name_the_columns() -> None:
    before = project()
    after = project(BASE.replace("required: [title]", "required: [title, artist]"))
    (check,) = plan_changes(diff_schema(before, after)).checks()
    assert (check.table, check.column, check.key) == ("Track", "ArtistId", "id")


def test_a_changed_key_column_is_renamed_and_its_references_follow() -> None:
    before = project()
    after = project(
        BASE.replace("column: ArtistId}\n      name", "column: Id}\n      name")
    )
    diff = diff_schema(before, after)
    assert plan_changes(diff).lines() == ["[safe] rename column Artist.ArtistId to Id"]
    upgrade = "\n".join(fastapi_migrations.operation_lines(diff))
    assert '"ArtistId",\n            new_column_name="Id",' in upgrade
    assert 'op.f("fk_Track_ArtistId_Artist"),\n            "Artist",\n' in upgrade
    assert '["ArtistId"],\n            ["Id"],' in upgrade
