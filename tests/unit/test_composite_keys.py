"""The kernel's composite-key codec: a key of several parts in one path segment."""

from __future__ import annotations

import importlib
import re
import uuid
from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from generator.spec.openapi import KERNEL_PACKAGE, load_kernel


def codec():
    load_kernel()
    return importlib.import_module(f"{KERNEL_PACKAGE}.composite_keys")


# Any text a JSON value or a database column can hold (no lone surrogates).
TEXT = st.text(st.characters(blacklist_categories=("Cs",)))
PARTS = st.lists(TEXT, min_size=2, max_size=4)
codec()  # loaded once, before the timed examples


@settings(deadline=None)
@given(PARTS)
def test_any_parts_round_trip_through_one_segment(parts: list[str]) -> None:
    keys = codec()
    text = keys.join_key(parts)
    assert keys.split_key(text, len(parts)) == parts
    assert re.fullmatch(keys.key_pattern(len(parts)), text)


@settings(deadline=None)
@given(PARTS)
def test_a_segment_never_holds_a_slash_and_has_one_comma_per_joint(parts) -> None:
    text = codec().join_key(parts)
    assert "/" not in text
    assert text.count(",") == len(parts) - 1


def test_commas_slashes_and_percents_in_a_part_are_encoded() -> None:
    keys = codec()
    assert keys.join_key(["a,b", "c/d", "50%"]) == "a%2Cb,c%2Fd,50%25"
    assert keys.join_key([3, 17]) == "3,17"
    assert keys.split_key("a%2Cb,c%2Fd,50%25", 3) == ["a,b", "c/d", "50%"]


def test_a_wrong_number_of_parts_or_a_broken_escape_names_nothing() -> None:
    keys = codec()
    assert keys.split_key("3,17", 3) is None
    assert keys.split_key("3,17,4", 2) is None
    assert keys.split_key("3", 2) is None
    assert keys.split_key("3%2,17", 2) is None
    assert keys.split_key("3%zz,17", 2) is None
    assert keys.split_key("%ff,17", 2) is None  # not UTF-8


def test_parts_are_read_by_their_fields_and_the_key_prints_as_its_segment() -> None:
    keys = codec()
    parse = keys.parse_composite_key
    day = date(2026, 11, 27)
    key = parse([int, date.fromisoformat], "3,2026-11-27")
    assert key == (3, day) and str(key) == "3,2026-11-27"
    assert parse([int, int], "3,x") is None
    assert parse([int, int], "3") is None
    ident = uuid.UUID(int=7)
    assert str(keys.CompositeKey((ident, "a,b"))) == f"{ident},a%2Cb"
    assert parse([uuid.UUID, str], f"{ident},a%2Cb") == (ident, "a,b")


def kernel_resource():
    kinds = load_kernel().fields
    resource = importlib.import_module(f"{KERNEL_PACKAGE}.resource")

    class PlaylistTrackResource(resource.Resource):
        uri = "playlist-track-resource"
        name = "PlaylistTrack"
        key_parts = ("playlist", "shelf")
        fields = (
            kinds.BelongsTo("playlist", resource="playlist-resource", key_part=True),
            kinds.Text("shelf", key_part=True),
            kinds.Integer("position"),
        )

    return resource, PlaylistTrackResource


def test_a_resource_declares_its_key_parts_and_reads_a_record_key() -> None:
    resource, link = kernel_resource()
    assert [f.name for f in link.key_fields] == ["playlist", "shelf"]
    assert link.default_sort == "playlist"
    assert all(f.client_key and not f.writable for f in link.key_fields)
    assert [f.name for f in link.creatable_fields] == ["playlist", "shelf", "position"]
    key = link.key_of({"playlist": 3, "shelf": "a,b", "position": 1})
    assert key == (3, "a,b") and str(key) == "3,a%2Cb"
    query = importlib.import_module(f"{KERNEL_PACKAGE}.query")
    assert query.parse_key(link, "3,a%2Cb") == key
    for text in ("3", "x,a", "3,a,b", "3,%zz"):
        assert query.parse_key(link, text) is None


def test_a_resource_with_key_parts_and_a_key_field_is_refused() -> None:
    resource, _ = kernel_resource()
    fields = load_kernel().fields
    declarations = {
        "both": (("a", "b"), (fields.Integer("a", key=True), fields.Text("b"))),
        "one part": (("a",), (fields.Integer("a", key_part=True),)),
        "unmarked": (
            ("a", "b"),
            (fields.Integer("a", key_part=True), fields.Text("b")),
        ),
    }
    for parts, declared in declarations.values():
        with pytest.raises(resource.DeclarationError):
            type(
                "Broken", (resource.Resource,), {"key_parts": parts, "fields": declared}
            )


def test_the_spec_documents_the_composite_key_parameter() -> None:
    _, link = kernel_resource()
    paths = importlib.import_module(f"{KERNEL_PACKAGE}.openapi_paths")
    ctx = paths.ResourceContext(link, "PlaylistTrack", v30=False, jwt=False)
    item = paths.resource_paths(ctx, "/admin")[
        "/admin/resource/playlist-track-resource/crud/{resourceItem}"
    ]
    parameter = item["parameters"][0] if "parameters" in item else None
    parameter = parameter or item["get"]["parameters"][0]
    assert parameter["schema"] == {"type": "string", "pattern": codec().key_pattern(2)}
    assert "Playlist and Shelf" in parameter["description"]
    assert "`3,17`" in parameter["description"]
