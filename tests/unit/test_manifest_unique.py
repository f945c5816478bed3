"""A resource's ``unique`` groups (issue 22): what passes, and each way it is wrong."""

from __future__ import annotations

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest
from generator.model import naming

FIELDS = {
    "author": {"type": "integer", "relation": "Author"},
    "title": {"type": "string"},
    "number": {"type": "integer", "nullable": True},
    "secret": {"type": "string", "format": "password"},
}


def manifest(groups: object) -> str:
    book = {"fields": FIELDS, "unique": groups}
    author = {"fields": {"name": {"type": "string"}}}
    data = {
        "project": {"name": "shop_admin"},
        "resources": {"Author": author, "Book": book},
    }
    return yaml.safe_dump(data, sort_keys=False)


def issues(groups: object) -> list[Issue]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(manifest(groups), "m.yaml")
    return list(caught.value.issues)


def test_groups_are_built_in_order() -> None:
    project = parse_manifest(manifest([["author", "title"], ["title", "number"]]), "m")
    groups = project.resource("Book").unique_together
    assert groups == (("author", "title"), ("title", "number"))


@pytest.mark.parametrize(
    ("groups", "code", "message", "hint"),
    [
        (
            [["author", "titel"]],
            "M022",
            "refers to 'titel', which is not a field of 'Book'",
            "did you mean 'title'?",
        ),
        (
            [["title"]],
            "M040",
            "'title' alone is not a group",
            "write 'unique: true' on the field 'title' instead",
        ),
        (
            [["author", "title"], ["title", "author"]],
            "M040",
            "names the same fields as unique[0]",
            "remove it",
        ),
        (
            [["title", "secret"]],
            "M040",
            "'secret' is a password field, which cannot be unique",
            "remove it from the group",
        ),
        (
            [["id", "title"]],
            "M040",
            "'id' is the key, unique on its own",
            "remove it from the group",
        ),
        ([["title", "title"]], "M018", None, None),
        ([[]], "M017", None, None),
        ("title", "M010", None, None),
    ],
)
def test_a_group_that_cannot_be_is_refused(
    groups: object, code: str, message: str | None, hint: str | None
) -> None:
    (found,) = issues(groups)
    assert found.code == code, found
    if message is not None:
        assert (found.message, found.hint) == (message, hint)


def _default_sql_issues(field: dict[str, object]) -> list[Issue]:
    data = {
        "project": {"name": "shop_admin"},
        "resources": {"Book": {"fields": {"added": field}}},
    }
    with pytest.raises(ManifestError) as caught:
        parse_manifest(yaml.safe_dump(data, sort_keys=False), "m.yaml")
    return list(caught.value.issues)


def test_a_server_default_is_built_and_makes_the_field_optional_on_create() -> None:
    text = manifest([["author", "title"]]).replace(
        "    unique:", "      added:\n        type: string\n        format: date\n"
        "        default_sql: current_date\n    required: [added]\n    unique:"
    )  # fmt: skip
    added = parse_manifest(text, "m.yaml").resource("Book").field("added")
    assert (added.default_sql, added.required, added.column_nullable) == (
        "current_date",
        True,
        False,
    )


@pytest.mark.parametrize(
    ("field", "code", "message"),
    [
        (
            {"type": "string", "format": "date", "default_sql": "now()"},
            "M027",
            "'now()' fills date-time fields only",
        ),
        (
            {"type": "integer", "default_sql": "current_date"},
            "M027",
            "'current_date' fills date fields only",
        ),
        (
            {"type": "string", "format": "date-time", "default_sql": "now()",
             "default": "2024-01-01T00:00:00Z"},
            "M027",
            "'default_sql' and 'default' both fill the field in",
        ),
        (
            {"type": "string", "format": "date-time", "default_sql": "NOW()"},
            "M010",
            None,
        ),
    ],
)  # fmt: skip
def test_a_server_default_outside_the_vocabulary_is_refused(
    field: dict[str, object], code: str, message: str | None
) -> None:
    (found,) = _default_sql_issues(field)
    assert found.code == code, found
    if message is not None:
        assert found.message == message


def test_a_long_constraint_name_is_cut_to_63_characters_with_a_digest() -> None:
    assert naming.unique_name("books", ("author", "title")) == "uq_books_author_title"
    long_a = naming.unique_name("t" * 40, ("a" * 20, "b" * 20))
    long_b = naming.unique_name("t" * 40, ("a" * 20, "c" * 20))
    assert len(long_a) == len(long_b) == 63
    assert long_a != long_b and long_a.startswith("uq_" + "t" * 40)
