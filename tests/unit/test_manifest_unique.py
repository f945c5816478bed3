"""A resource's ``unique`` groups (issue 22): what passes, and each way it is wrong."""

from __future__ import annotations

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest

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
            "M039",
            "'title' alone is not a group",
            "write 'unique: true' on the field 'title' instead",
        ),
        (
            [["author", "title"], ["title", "author"]],
            "M039",
            "names the same fields as unique[0]",
            "remove it",
        ),
        (
            [["title", "secret"]],
            "M039",
            "'secret' is a password field, which cannot be unique",
            "remove it from the group",
        ),
        (
            [["id", "title"]],
            "M039",
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
