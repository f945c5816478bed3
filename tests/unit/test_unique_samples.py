"""The values the emitted tests give unique fields and groups (``distinct`` of
``tests/samples.json``). The end-to-end proof is ``tests/e2e/test_valid_manifests.py``
on ``tests/manifests/valid/unique.yaml``."""

from __future__ import annotations

from pathlib import Path

from generator.manifest.load import parse_manifest
from generator.model import patterns
from generator.model.samples import GIVEN_KEYS, distinct_samples, sample_value

UNIQUE = Path(__file__).parents[1] / "manifests" / "valid" / "unique.yaml"


def test_unique_fields_and_one_member_of_each_group_get_values_of_their_own() -> None:
    book = parse_manifest(UNIQUE.read_text("utf-8"), "unique.yaml").resources[0]
    distinct = distinct_samples(book)
    # the enum member of (binding, edition) is not varied: edition is
    assert list(distinct) == ["isbn", "shelf", "author", "edition"]
    for name, values in distinct.items():
        field = book.field(name)
        assert len(values) == GIVEN_KEYS == len(set(values))
        assert sample_value(field, 1) not in values
        assert sample_value(field, 2) not in values
        for value in values:
            if field.type == "integer":
                assert field.minimum is None or value >= field.minimum
                assert field.maximum is None or value <= field.maximum
            else:
                assert len(value) <= (field.max_length or len(value))
                assert len(value) >= (field.min_length or 0)
                assert not field.pattern or patterns.engine_search(field.pattern, value)


def test_a_resource_without_unique_values_has_none() -> None:
    text = "project: {name: a}\nresources:\n  Note:\n    fields: {t: {type: string}}\n"
    note = parse_manifest(text, "m.yaml").resources[0]
    assert distinct_samples(note) == {}
