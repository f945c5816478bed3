"""Has-many fields (issue 23): what passes, what it builds, and each way it is wrong."""

from __future__ import annotations

import importlib
from typing import Any

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest
from generator.model import ir
from generator.model.irdata import project_from_data, project_to_data
from generator.spec.openapi import KERNEL_PACKAGE, resource_class

TRACKS = {
    "type": "array",
    "readOnly": True,
    "items": {"type": "integer", "relation": "Track"},
    "inverse": "album",
}


def manifest(tracks: Any = None, **album: Any) -> str:
    fields = {"title": {"type": "string"}, "tracks": tracks or TRACKS}
    track = {
        "fields": {
            "name": {"type": "string"},
            "album": {"type": "integer", "relation": "Album", "nullable": True},
            "other": {"type": "integer", "relation": "Album", "nullable": True},
        }
    }
    data = {
        "project": {"name": "music_admin"},
        "resources": {"Album": {"fields": fields, **album}, "Track": track},
    }
    return yaml.safe_dump(data, sort_keys=False)


def issues(text: str) -> list[Issue]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text, "m.yaml")
    return list(caught.value.issues)


def only(text: str) -> Issue:
    (issue,) = issues(text)
    return issue


def test_a_has_many_field_is_no_column_of_its_resource() -> None:
    project = parse_manifest(manifest(), "m.yaml")
    album = project.resource("Album")
    assert [f.name for f in album.fields] == ["id", "title"]
    assert album.has_many == (
        ir.HasMany(name="tracks", label="Tracks", target="Track", inverse="album"),
    )
    # Recorded for regeneration, and read back the same.
    assert project_from_data(project_to_data(project)) == project


def test_resources_without_has_many_record_nothing_new() -> None:
    project = parse_manifest(manifest(), "m.yaml")
    assert "has_many" not in project_to_data(project)["resources"][1]


def test_a_self_reference_and_a_label() -> None:
    text = yaml.safe_dump(
        {
            "project": {"name": "staff_admin"},
            "resources": {
                "Employee": {
                    "fields": {
                        "name": {"type": "string"},
                        "manager": {
                            "type": "integer",
                            "relation": "Employee",
                            "nullable": True,
                        },
                        "reports": {
                            "type": "array",
                            "readOnly": True,
                            "items": {"type": "integer", "relation": "Employee"},
                            "inverse": "manager",
                            "label": "Direct reports",
                            "description": "Who reports here",
                        },
                    }
                }
            },
        }
    )
    project = parse_manifest(text, "m.yaml")
    (many,) = project.resource("Employee").has_many
    assert (many.label, many.description) == ("Direct reports", "Who reports here")
    declared = resource_class(project.resource("Employee"), project)
    (kernel,) = declared.has_many
    assert (kernel.resource, kernel.inverse) == ("employee-resource", "manager")
    assert declared.has_many_map == {"reports": kernel}


@pytest.mark.parametrize(
    ("tracks", "where", "code", "message", "hint"),
    [
        (
            {**TRACKS, "inverse": "albun"},
            "resources.Album.fields.tracks.inverse",
            "M022",
            "refers to 'albun', which is not a field of 'Track'",
            "did you mean 'album'?",
        ),
        (
            {**TRACKS, "inverse": "name"},
            "resources.Album.fields.tracks.inverse",
            "M030",
            "'Track.name' is not a relation to 'Album'",
            "relations of 'Track' to 'Album' are 'album', 'other'",
        ),
        (
            {k: v for k, v in TRACKS.items() if k != "readOnly"},
            "resources.Album.fields.tracks",
            "M027",
            "a has-many field is read-only: its values are the children's",
            "add 'readOnly: true'; change the children's own field to move one",
        ),
        (
            {**TRACKS, "readOnly": False},
            "resources.Album.fields.tracks.readOnly",
            "M027",
            "a has-many field is read-only: its values are the children's",
            "add 'readOnly: true'; change the children's own field to move one",
        ),
        (
            {k: v for k, v in TRACKS.items() if k != "inverse"},
            "resources.Album.fields.tracks.readOnly",
            "M047",
            "a many-to-many field without 'inverse' is written by requests",
            "remove 'readOnly' to link records, or add 'inverse: <its relation to "
            "this resource>' (has-many)",
        ),
        (
            {**TRACKS, "items": {"type": "integer", "relation": "Trak"}},
            "resources.Album.fields.tracks.items.relation",
            "M021",
            "refers to 'Trak', which is not a resource",
            "declared resources are 'Album', 'Track'",
        ),
        (
            {**TRACKS, "items": {"type": "string", "relation": "Track"}},
            "resources.Album.fields.tracks.items.type",
            "M028",
            "'string' is not the type of the key of 'Track' (integer)",
            "write 'type: integer' in items",
        ),
        (
            {**TRACKS, "default": 1},
            "resources.Album.fields.tracks.default",
            "M027",
            "'default' does not apply to has-many fields (they have no column)",
            "remove it",
        ),
        (
            {**TRACKS, "sortable": True},
            "resources.Album.fields.tracks.sortable",
            "M027",
            "'sortable' does not apply to has-many fields (they have no column)",
            "remove it",
        ),
    ],
)
def test_a_field_that_cannot_be(
    tracks: dict[str, Any], where: str, code: str, message: str, hint: str | None
) -> None:
    issue = only(manifest(tracks))
    assert (issue.path, issue.code, issue.message, issue.hint) == (
        where,
        code,
        message,
        hint,
    )


def test_false_options_a_has_many_field_has_anyway_pass() -> None:
    tracks = {**TRACKS, "sortable": False, "filterable": False, "nullable": False}
    parse_manifest(manifest(tracks), "m.yaml")


def test_an_inverse_that_is_not_filterable_cannot_list() -> None:
    text = manifest().replace(
        "relation: Album\n        nullable: true\n      other",
        "relation: Album\n        nullable: true\n        filterable: false\n"
        "      other",
    )
    issue = only(text)
    assert (issue.code, issue.message) == (
        "M030",
        "'Track.album' is not filterable, so its records cannot be listed",
    )


@pytest.mark.parametrize(
    ("album", "where", "code", "message"),
    [
        (
            {"required": ["tracks"]},
            "resources.Album.required[0]",
            "M030",
            "'tracks' is a has-many field, which is read-only, so no request gives it",
        ),
        (
            {"search": ["tracks"]},
            "resources.Album.search[0]",
            "M030",
            "'tracks' is a has-many field, which has no column to search",
        ),
        (
            {"list": ["title", "tracks"]},
            "resources.Album.list[1]",
            "M030",
            "'tracks' is a has-many field, which is shown on the detail page, not as "
            "a column of the list",
        ),
        (
            {"default_sort": "-tracks"},
            "resources.Album.default_sort",
            "M030",
            "'-tracks' sorts by a has-many field, which has no column",
        ),
        (
            {"key": "tracks"},
            "resources.Album.key",
            "M029",
            "'tracks' is a has-many field, which cannot be a key",
        ),
        (
            {"query_tags": {"some": {"filter": {"tracks": 1}}}},
            "resources.Album.query_tags.some.filter.tracks",
            "M030",
            "'tracks' is a has-many field, which cannot be filtered on",
        ),
        (
            {"unique": [["title", "tracks"]]},
            "resources.Album.unique[0][1]",
            "M040",
            "'tracks' is a has-many field, which has no column to share",
        ),
        (
            {"display": "{title} {tracks}"},
            "resources.Album.display",
            "M038",
            "names 'tracks', which holds many values, not one",
        ),
    ],
)
def test_a_has_many_field_named_where_a_column_is_meant(
    album: dict[str, Any], where: str, code: str, message: str
) -> None:
    issue = only(manifest(**album))
    assert (issue.path, issue.code, issue.message) == (where, code, message)


def test_items_and_inverse_belong_to_arrays() -> None:
    text = manifest().replace(
        "title:\n        type: string",
        "title:\n        type: string\n        inverse: x",
    )
    issue = only(text)
    assert (issue.path, issue.code) == ("resources.Album.fields.title.inverse", "M027")
    assert issue.message == "'inverse' applies to array (has-many) fields only"


def test_with_names_has_many_fields_only() -> None:
    project = parse_manifest(manifest(), "m.yaml")
    album = resource_class(project.resource("Album"), project)
    children = importlib.import_module(f"{KERNEL_PACKAGE}.children")
    query = importlib.import_module(f"{KERNEL_PACKAGE}.query")
    assert children.asked_children(album, [("with", "tracks, tracks")]) == (
        album.has_many_map["tracks"],
    )
    assert children.asked_children(album, [("page", "2")]) == ()
    with pytest.raises(query.QueryError) as caught:
        children.asked_children(album, [("with", "tracks,title")])
    assert caught.value.errors == {
        "with": [
            "The with parameter names 'title', which is not a has-many field of "
            "this resource (it takes: tracks)."
        ]
    }


def _kernel(name: str) -> Any:
    return importlib.import_module(f"{KERNEL_PACKAGE}.{name}")


def test_the_detail_page_section_of_a_has_many_field() -> None:
    project = parse_manifest(manifest(), "m.yaml")
    album = resource_class(project.resource("Album"), project)
    track = resource_class(project.resource("Track"), project)
    children = _kernel("children")
    many = album.has_many_map["tracks"]
    query = children.children_query(track, many, 7)
    filters = _kernel("filters")
    assert (query.filters, query.per_page, query.sort_text) == (
        (filters.Filter("album", filters.EQUALS, 7),),
        25,
        "id",
    )
    items = [{"id": 3, "name": "Intro", "album": 7, "other": None}]
    section = children.children_section(many, track, 7, items, 30, {"create": True})
    base = "/admin/resource/track-resource"
    assert section == {
        "name": "tracks",
        "label": "Tracks",
        "children": [("Intro", f"{base}/detail-page/3")],
        "total": 30,
        "all_url": f"{base}/index-page?filter%5Balbum%5D=7",
        "add_url": f"{base}/form-page?album=7",
    }
    alone = children.children_section(many, track, 7, items, 1, {"create": False})
    assert (alone["all_url"], alone["add_url"]) == (None, None)


def test_a_create_form_takes_initial_values_from_its_url() -> None:
    project = parse_manifest(manifest(), "m.yaml")
    track = resource_class(project.resource("Track"), project)
    children = _kernel("children")
    assert children.prefilled_values(track, [("album", "7"), ("id", "9")]) == {
        "album": "7"
    }
    assert children.prefilled_values(track, [("_fragment-load", "x")]) is None
    assert children.with_children({"id": 7}, {"tracks": (1, 2)}) == {
        "id": 7,
        "tracks": [1, 2],
    }


def test_items_take_the_type_of_the_childs_key_not_of_its_link() -> None:
    def text(item_type: str) -> str:
        album = {
            "key": "code",
            "fields": {
                "code": {"type": "string", "maxLength": 8},
                "tracks": {
                    **TRACKS,
                    "items": {"type": item_type, "relation": "Track"},
                },
            },
        }
        track = {"fields": {"album": {"type": "string", "relation": "Album"}}}
        data = {
            "project": {"name": "music_admin"},
            "resources": {"Album": album, "Track": track},
        }
        return yaml.safe_dump(data, sort_keys=False)

    parse_manifest(text("integer"), "m.yaml")
    issue = only(text("string"))
    assert (issue.path, issue.code, issue.message, issue.hint) == (
        "resources.Album.fields.tracks.items.type",
        "M028",
        "'string' is not the type of the key of 'Track' (integer)",
        "write 'type: integer' in items",
    )
