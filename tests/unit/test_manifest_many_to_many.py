"""Many-to-many fields (issue 23): what passes, what it builds, each way it is wrong."""

from __future__ import annotations

from typing import Any

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest
from generator.model import ir
from generator.model.irdata import project_from_data, project_to_data
from generator.model.links import link_changes, link_tables

TRACKS = {"type": "array", "items": {"type": "integer", "relation": "Track"}}


def manifest(tracks: Any = None, playlist: Any = None, **extra: Any) -> str:
    fields = {"name": {"type": "string"}, "tracks": tracks or TRACKS}
    resources = {
        "Playlist": {"fields": fields, **(playlist or {})},
        "Track": {
            "fields": {
                "title": {"type": "string"},
                "playlist": {"type": "integer", "relation": "Playlist"},
            }
        },
        **extra,
    }
    data = {"project": {"name": "mix_admin"}, "resources": resources}
    return yaml.safe_dump(data, sort_keys=False)


def issues(text: str) -> list[Issue]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text, "m.yaml")
    return list(caught.value.issues)


def only(text: str) -> Issue:
    (issue,) = issues(text)
    return issue


def test_an_array_without_inverse_is_a_many_to_many_field() -> None:
    project = parse_manifest(manifest(), "m.yaml")
    playlist = project.resource("Playlist")
    assert playlist.has_many == ()
    assert [f.name for f in playlist.fields] == ["id", "name"]
    assert playlist.many_to_many == (
        ir.ManyToMany(
            name="tracks",
            label="Tracks",
            target="Track",
            through="playlists_tracks",
            owner_column="playlist_id",
            target_column="track_id",
        ),
    )


def test_through_names_the_table_and_a_self_link_prefixes_its_column() -> None:
    similar = {"type": "array", "items": {"type": "integer", "relation": "Playlist"}}
    text = manifest({**TRACKS, "through": "playlist_track"}).replace(
        "    - name\n", "    - name\n"
    )
    project = parse_manifest(text, "m.yaml")
    assert project.resource("Playlist").many_to_many[0].through == "playlist_track"
    fields = {"name": {"type": "string"}, "similar": similar}
    data = {
        "project": {"name": "mix_admin"},
        "resources": {"Playlist": {"fields": fields}},
    }
    project = parse_manifest(yaml.safe_dump(data), "m.yaml")
    link = project.resource("Playlist").many_to_many[0]
    assert (link.owner_column, link.target_column) == (
        "playlist_id",
        "related_playlist_id",
    )


def test_a_string_key_names_its_column_and_types_it() -> None:
    tags = {"type": "array", "items": {"type": "string", "relation": "Tag"}}
    tag = {"key": "code", "fields": {"code": {"type": "string", "maxLength": 9}}}
    project = parse_manifest(manifest(tags, Tag=tag), "m.yaml")
    (table,) = link_tables(project)
    assert table.target_field.name == "tag_code"
    assert (table.target_field.type, table.target_field.max_length) == ("string", 9)
    assert table.target_field.on_delete == "cascade"


def test_the_ir_round_trips_through_its_record() -> None:
    project = parse_manifest(manifest(), "m.yaml")
    assert project_from_data(project_to_data(project)) == project


def test_link_changes_create_and_drop_by_table() -> None:
    before = parse_manifest(manifest({"type": "string"}), "m.yaml")
    after = parse_manifest(manifest(), "m.yaml")
    created, dropped = link_changes(before, after)
    assert [t.name for t in created] == ["playlists_tracks"] and dropped == ()
    created, dropped = link_changes(after, before)
    assert created == () and [t.name for t in dropped] == ["playlists_tracks"]


def test_an_unknown_target_suggests_the_close_one() -> None:
    issue = only(manifest({**TRACKS, "items": {"type": "integer", "relation": "Trak"}}))
    assert issue.code == "M021"
    assert issue.hint == "did you mean 'Track'?"


@pytest.mark.parametrize(
    ("through", "message"),
    [
        ("tracks", "link table 'tracks' is the table of resource 'Track'"),
        ("panel_x", "'panel_x' is a table name the panel"),
        ("x" * 64, "longer than 63 characters"),
    ],
)
def test_through_must_be_a_free_table_name(through: str, message: str) -> None:
    issue = only(manifest({**TRACKS, "through": through}))
    assert issue.code == "M046"
    assert message in issue.message


def test_a_default_name_clashing_with_a_resource_table_is_refused() -> None:
    clash = {"fields": {"x": {"type": "string"}}, "table": "playlists_tracks"}
    issue = only(manifest(Other=clash))
    assert (issue.code, issue.path) == ("M046", "resources.Playlist.fields.tracks")


def test_two_fields_cannot_share_a_link_table() -> None:
    items = {"type": "integer", "relation": "Track"}
    other = {"type": "array", "items": items, "through": "playlists_tracks"}
    data = yaml.safe_load(manifest())
    data["resources"]["Playlist"]["fields"]["others"] = other
    issue = only(yaml.safe_dump(data, sort_keys=False))
    assert issue.code == "M046"
    assert "already the link table of 'Playlist.tracks'" in issue.message


def test_through_beside_inverse_or_read_only_contradict() -> None:
    found = issues(manifest({**TRACKS, "inverse": "playlist", "through": "x_y"}))
    assert "M047" in {i.code for i in found}
    issue = only(manifest({**TRACKS, "readOnly": True}))
    assert issue.code == "M047"
    assert issue.hint is not None and "inverse: playlist" in issue.hint


def test_through_on_a_scalar_field_is_refused() -> None:
    issue = only(manifest({"type": "string", "through": "x_y"}))
    assert (issue.code, issue.path) == (
        "M046",
        "resources.Playlist.fields.tracks.through",
    )


@pytest.mark.parametrize(
    "playlist",
    [
        {"required": ["tracks"]},
        {"search": ["tracks"]},
        {"default_sort": "-tracks"},
        {"unique": [["name", "tracks"]]},
        {"query_tags": {"some": {"filter": {"tracks": 1}}}},
    ],
)
def test_the_field_has_no_column_to_use(playlist: dict[str, Any]) -> None:
    codes = {issue.code for issue in issues(manifest(playlist=playlist))}
    assert "M048" in codes


@pytest.mark.parametrize(
    "option", [{"default": 0}, {"minLength": 1}, {"sortable": True}]
)
def test_options_that_need_a_column_are_refused(option: dict[str, Any]) -> None:
    issue = only(manifest({**TRACKS, **option}))
    assert issue.code == "M049"


def test_false_column_options_are_accepted() -> None:
    parse_manifest(manifest({**TRACKS, "sortable": False, "nullable": False}), "m.yaml")
