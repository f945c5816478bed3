"""A resource's ``display`` (M038): what names a record, and each way it is wrong."""

from __future__ import annotations

import datetime

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest
from generator.spec.openapi import load_kernel

FIELDS = {
    "first_name": {"type": "string"},
    "last_name": {"type": "string"},
    "born_on": {"type": "string", "format": "date", "nullable": True},
    "secret": {"type": "string", "format": "password"},
    "mentor": {"type": "integer", "relation": "Author"},
}


def manifest(display: object) -> str:
    resource = {"fields": FIELDS, "display": display}
    data = {"project": {"name": "shop_admin"}, "resources": {"Author": resource}}
    return yaml.safe_dump(data, sort_keys=False)


def issues(display: object) -> list[Issue]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(manifest(display), "m.yaml")
    return list(caught.value.issues)


@pytest.mark.parametrize(
    "display",
    ["last_name", "{first_name} {last_name}", "{last_name}, {first_name} ({born_on})"]
    + ["id", "{{{first_name}}}", "#{id}"],
)
def test_a_display_of_shown_fields_is_accepted(display: str) -> None:
    project = parse_manifest(manifest(display), "m.yaml")
    assert project.resource("Author").display == display


REFUSED = {
    "unknown field": ("{first_name} {lastname}", "names 'lastname', which is not a"),
    "unknown name": ("surname", "names 'surname', which is not a field of 'Author'"),
    "unbalanced open": ("{first_name", "has an unbalanced '{'"),
    "unbalanced close": ("first_name}", "has an unbalanced '}'"),
    "conversion": ("{first_name!r}", "has '{first_name!r}': only a plain field"),
    "format spec": ("{born_on:%Y}", "has '{born_on:%Y}': only a plain field"),
    "attribute": ("{first_name.upper}", "has '{first_name.upper}'"),
    "index": ("{0}", "has '{0}'"),
    "positional": ("{} {last_name}", "has '{}'"),
    "no field": ("Author {{x}}", "names no field"),
    "password": ("{first_name} {secret}", "names 'secret', a password field"),
    "relation": ("{mentor}", "names 'mentor', a relation field"),
}


@pytest.mark.parametrize("case", REFUSED)
def test_a_display_that_cannot_name_a_record_is_refused(case: str) -> None:
    display, message = REFUSED[case]
    (issue,) = issues(display)
    assert (issue.code, issue.path) == ("M038", "resources.Author.display")
    assert issue.message.startswith(message), issue.message
    assert (issue.line, issue.column) == (20, 14)


def test_a_display_of_the_wrong_type_is_a_schema_error() -> None:
    assert [(i.code, i.path) for i in issues(["first_name"])] == [
        ("M010", "resources.Author.display")
    ]
    assert [i.code for i in issues("")] == ["M017"]


def test_an_unknown_field_gets_a_did_you_mean() -> None:
    (issue,) = issues("{first_name} {lastname}")
    assert issue.hint == "did you mean 'last_name'?"


# The kernel's naming of records, as both frameworks run it.
class _Labels:
    def __init__(self, display: str) -> None:
        kernel = load_kernel()
        fields = kernel.fields
        self.resource = type(
            "AuthorResource",
            (kernel.resource.Resource,),
            {
                "__module__": "labels_test",
                "uri": "author-resource",
                "fields": (
                    fields.ID(),
                    fields.Text("first_name"),
                    fields.Text("last_name"),
                    fields.Date("born_on"),
                ),
                "display": display,
            },
        )

    def name(self, **values: object) -> str:
        return load_kernel().labels.record_label(self.resource, 7, values)


def test_records_are_named_by_their_display() -> None:
    named = _Labels("{last_name}, {first_name} ({born_on})")
    assert named.resource.display_fields == ("last_name", "first_name", "born_on")
    herbert = {"first_name": "Frank", "last_name": "Herbert"}
    assert named.name(**herbert, born_on=datetime.date(1920, 10, 8)) == (
        "Herbert, Frank (1920-10-08)"
    )
    assert named.name(**herbert, born_on=None) == "Herbert, Frank ()"
    assert _Labels("{{{last_name}}}").name(last_name="X") == "{X}"
    assert _Labels("last_name").name(last_name="") == "#7"
    assert _Labels("").name(first_name="Frank") == "Frank"  # first text field


def test_the_kernel_refuses_a_bad_display_at_import() -> None:
    kernel = load_kernel()
    with pytest.raises(kernel.resource.DeclarationError, match="unbalanced"):
        _Labels("{last_name")
    with pytest.raises(kernel.resource.DeclarationError, match="cannot show: nick"):
        _Labels("{nick}")
