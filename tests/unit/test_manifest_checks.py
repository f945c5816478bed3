"""Each schema and semantic rule: the code, the path and the wording of its Issue."""

from __future__ import annotations

import pytest
import yaml

from generator.errors import Issue, ManifestError
from generator.manifest.load import parse_manifest

B = "resources.Book"
F = "resources.Book.fields"


def issues_of(resources: dict | None = None, **top: object) -> list[Issue]:
    """The issues of a manifest with ``resources`` (default: a valid Book)."""
    data = {
        "project": {"name": "shop_admin"},
        **top,
        "resources": resources or {"Book": {"fields": {"title": {"type": "string"}}}},
    }
    return issues_in(yaml.safe_dump(data, sort_keys=False))


def issues_in(text: str) -> list[Issue]:
    with pytest.raises(ManifestError) as caught:
        parse_manifest(text, "m.yaml")
    return list(caught.value.issues)


PROJECT = "project: {name: shop}\n"
ONE_RESOURCE = "resources: {B: {fields: {t: {type: string}}}}\n"


def string_field(options: str) -> str:
    """A manifest whose one field is ``{type: string, <options>}``, in flow style."""
    return (
        PROJECT + f"resources: {{B: {{fields: {{t: {{type: string, {options}}}}}}}}}\n"
    )


def book(fields: dict | None = None, **options: object) -> dict:
    """Resources holding one Book with ``fields`` (default: a string ``title``)."""
    return {"Book": {"fields": fields or {"title": {"type": "string"}}, **options}}


def found(issues: list[Issue]) -> list[tuple[str, str]]:
    return [(issue.code, issue.path) for issue in issues]


# (resources, [(code, path)]) — each breaks exactly one rule.
RULES = {
    "type typo": (book({"t": {"type": "text"}}), [("M010", f"{F}.t.type")]),
    "unknown key": (
        book({"t": {"type": "string", "max": 3}}),
        [("M011", f"{F}.t.max")],
    ),
    "missing type": (book({"t": {"label": "T"}}), [("M012", f"{F}.t")]),
    "bad uri": (book(uri="Books"), [("M014", f"{B}.uri")]),
    "bad table": (book(table="my books"), [("M014", f"{B}.table")]),
    "reserved table in capitals": (book(table="Panel_Users"), [("M023", f"{B}.table")]),
    "bad column": (
        book({"t": {"type": "string", "column": "Bad Name"}}),
        [("M014", f"{F}.t.column")],
    ),
    "empty column": (
        book({"t": {"type": "string", "column": ""}}),
        [("M014", f"{F}.t.column")],
    ),
    "long column": (
        book({"t": {"type": "string", "column": "C" * 64}}),
        [("M043", f"{F}.t.column")],
    ),
    "system column": (
        book({"t": {"type": "string", "column": "XMin"}}),
        [("M043", f"{F}.t.column")],
    ),
    "two fields in one column": (
        book(
            {
                "a": {"type": "string", "column": "Name"},
                "b": {"type": "string", "column": "NAME"},
            }
        ),
        [("M043", f"{F}.b.column")],
    ),
    "column of another field's name": (
        book({"a": {"type": "string", "column": "B"}, "b": {"type": "string"}}),
        [("M043", f"{F}.b")],
    ),
    "column of the implicit key": (
        book({"t": {"type": "integer", "column": "ID"}}),
        [("M043", f"{F}.t.column")],
    ),
    "column of the trash": (
        book({"t": {"type": "string", "column": "deleted_at"}}, soft_delete=True),
        [("M043", f"{F}.t.column")],
    ),
    "per_page": (book(per_page=500), [("M016", f"{B}.per_page")]),
    "empty title": (book(title=""), [("M017", f"{B}.title")]),
    "empty enum": (
        book({"t": {"type": "string", "enum": []}}),
        [("M017", f"{F}.t.enum")],
    ),
    "twice required": (
        book(required=["title", "title"]),
        [("M018", f"{B}.required[1]")],
    ),
    "duplicate table": (
        {**book(), "Novel": {"table": "books", "fields": {"t": {"type": "string"}}}},
        [("M020", "resources.Novel.table")],
    ),
    "shared module": (
        {
            "HTTPThing": {"fields": {"t": {"type": "string"}}},
            "HttpThing": {"fields": {"t": {"type": "string"}}},
        },
        [("M020", "resources.HttpThing")],
    ),
    "renamed from a live field": (
        book({"a": {"type": "string"}, "b": {"type": "string", "renamed_from": "a"}}),
        [("M020", f"{F}.b.renamed_from")],
    ),
    "renamed twice": (
        book(
            {
                "a": {"type": "string", "renamed_from": "old"},
                "b": {"type": "string", "renamed_from": "old"},
            }
        ),
        [("M020", f"{F}.b.renamed_from")],
    ),
    "unknown relation": (
        book({"a": {"type": "integer", "relation": "Nope"}}),
        [("M021", f"{F}.a.relation")],
    ),
    "unknown key field": (book(key="code"), [("M022", f"{B}.key")]),
    "unknown sort": (book(default_sort="-nope"), [("M022", f"{B}.default_sort")]),
    "unknown filter field": (
        book(query_tags={"x": {"filter": {"nope": 1}}}),
        [("M022", f"{B}.query_tags.x.filter.nope")],
    ),
    "resource name": (
        {"book_item": {"fields": {"t": {"type": "string"}}}},
        [("M023", "resources.book_item")],
    ),
    "reserved resource": (
        {"Select": {"fields": {"t": {"type": "string"}}}},
        [("M023", "resources.Select")],
    ),
    "keyword resource": (
        {"None": {"fields": {"t": {"type": "string"}}}},
        [("M023", "resources.None")],
    ),
    "field case": (book({"Title": {"type": "string"}}), [("M023", f"{F}.Title")]),
    "double underscore": (book({"a__b": {"type": "string"}}), [("M023", f"{F}.a__b")]),
    "trailing underscore": (book({"ab_": {"type": "string"}}), [("M023", f"{F}.ab_")]),
    "soft keyword": (book({"match": {"type": "string"}}), [("M023", f"{F}.match")]),
    "pydantic name": (
        book({"model_x": {"type": "string"}}),
        [("M023", f"{F}.model_x")],
    ),
    "django name": (book({"pk": {"type": "string"}}), [("M023", f"{F}.pk")]),
    "sqlalchemy name": (
        book({"metadata": {"type": "string"}}),
        [("M023", f"{F}.metadata")],
    ),
    "long field name": (
        book({"a" * 64: {"type": "string"}}),
        [("M023", f"{F}.{'a' * 64}")],
    ),
    "implicit id": (book({"id": {"type": "integer"}}), [("M023", f"{F}.id")]),
    "id beside another key": (
        book({"code": {"type": "string"}, "id": {"type": "integer"}}, key="code"),
        [("M023", f"{F}.id")],
    ),
    "method keyword": (book(methods=["import"]), [("M023", f"{B}.methods[0]")]),
    "method case": (book(methods=["Publish"]), [("M023", f"{B}.methods[0]")]),
    "tag uri": (
        book(query_tags={"In Stock": {"filter": {}}}),
        [("M023", f'{B}.query_tags."In Stock"')],
    ),
    "framework table": (book(table="django_session"), [("M023", f"{B}.table")]),
    "default type": (
        book({"n": {"type": "integer", "default": "one"}}),
        [("M024", f"{F}.n.default")],
    ),
    "default null": (
        book({"n": {"type": "integer", "default": None}}),
        [("M024", f"{F}.n.default")],
    ),
    "default too short": (
        book({"s": {"type": "string", "minLength": 3, "default": "ab"}}),
        [("M024", f"{F}.s.default")],
    ),
    "default too big": (
        book({"n": {"type": "number", "maximum": 1, "default": 1.5}}),
        [("M024", f"{F}.n.default")],
    ),
    "default pattern": (
        book({"s": {"type": "string", "pattern": "^[0-9]+$", "default": "x1"}}),
        [("M024", f"{F}.s.default")],
    ),
    "default date": (
        book({"d": {"type": "string", "format": "date", "default": "31/01/2024"}}),
        [("M024", f"{F}.d.default")],
    ),
    "default date-time": (
        book({"d": {"type": "string", "format": "date-time", "default": "2024-01-31"}}),
        [("M024", f"{F}.d.default")],
    ),
    "default uuid": (
        book({"u": {"type": "string", "format": "uuid", "default": "not-a-uuid"}}),
        [("M024", f"{F}.u.default")],
    ),
    "default password": (
        book({"p": {"type": "string", "format": "password", "default": "secret"}}),
        [("M024", f"{F}.p.default")],
    ),
    "bool is not an integer default": (
        book({"n": {"type": "integer", "default": True}}),
        [("M024", f"{F}.n.default")],
    ),
    "bad pattern": (
        book({"s": {"type": "string", "pattern": "("}}),
        [("M025", f"{F}.s.pattern")],
    ),
    "huge repeat pattern": (
        book({"s": {"type": "string", "pattern": "a{99999999999}"}}),
        [("M025", f"{F}.s.pattern")],
    ),
    "minimum over maximum": (
        book({"n": {"type": "number", "minimum": 5, "maximum": 1}}),
        [("M026", f"{F}.n.minimum")],
    ),
    "fractional integer limit": (
        book({"n": {"type": "integer", "minimum": 0.5}}),
        [("M026", f"{F}.n.minimum")],
    ),
    "int64 limit": (
        book({"n": {"type": "integer", "maximum": 2**63}}),
        [("M026", f"{F}.n.maximum")],
    ),
    "minLength on integer": (
        book({"n": {"type": "integer", "minLength": 1}}),
        [("M027", f"{F}.n.minLength")],
    ),
    "minimum on string": (
        book({"s": {"type": "string", "minimum": 1}}),
        [("M027", f"{F}.s.minimum")],
    ),
    "enum on boolean": (
        book({"b": {"type": "boolean", "enum": [True]}}),
        [("M027", f"{F}.b.enum")],
    ),
    "enum on relation": (
        {**book({"a": {"type": "integer", "relation": "Book", "enum": [1]}})},
        [("M027", f"{F}.a.enum")],
    ),
    "relation on number": (
        book({"a": {"type": "number", "relation": "Book"}}),
        [("M027", f"{F}.a.relation")],
    ),
    "sortable password": (
        book({"p": {"type": "string", "format": "password", "sortable": True}}),
        [("M027", f"{F}.p.sortable")],
    ),
    "read-only and required": (
        book({"s": {"type": "string", "readOnly": True}}, required=["s"]),
        [("M027", f"{F}.s.readOnly")],
    ),
    "relation type": (
        {
            "Author": {"fields": {"n": {"type": "string"}}},
            **book({"a": {"type": "string", "relation": "Author"}}),
        },
        [("M028", f"{F}.a.type")],
    ),
    "relation to a string key": (
        {
            "Country": {"key": "code", "fields": {"code": {"type": "string"}}},
            **book({"c": {"type": "integer", "relation": "Country"}}),
        },
        [("M028", f"{F}.c.type")],
    ),
    "boolean key": (book({"b": {"type": "boolean"}}, key="b"), [("M029", f"{B}.key")]),
    "email key": (
        book({"e": {"type": "string", "format": "email"}}, key="e"),
        [("M029", f"{B}.key")],
    ),
    "nullable key": (
        book({"k": {"type": "integer", "nullable": True}}, key="k"),
        [("M029", f"{F}.k.nullable")],
    ),
    "generated key required": (book(required=["id"]), [("M029", f"{B}.required[0]")]),
    "search a password": (
        book({"p": {"type": "string", "format": "password"}}, search=["p"]),
        [("M030", f"{B}.search[0]")],
    ),
    "search a date": (
        book({"d": {"type": "string", "format": "date"}}, search=["d"]),
        [("M030", f"{B}.search[0]")],
    ),
    "sort by text": (
        book({"t": {"type": "string", "format": "text"}}, default_sort="t"),
        [("M030", f"{B}.default_sort")],
    ),
    "filter on password": (
        book(
            {"p": {"type": "string", "format": "password"}},
            query_tags={"x": {"filter": {"p": "a"}}},
        ),
        [("M030", f"{B}.query_tags.x.filter.p")],
    ),
    "filter type": (
        book({"n": {"type": "integer"}}, query_tags={"x": {"filter": {"n": "1"}}}),
        [("M031", f"{B}.query_tags.x.filter.n")],
    ),
    "filter null on a required field": (
        book(required=["title"], query_tags={"x": {"filter": {"title": None}}}),
        [("M031", f"{B}.query_tags.x.filter.title")],
    ),
    "unknown list field": (book(list=["title", "nope"]), [("M022", f"{B}.list[1]")]),
    "empty list": (book(list=[]), [("M017", f"{B}.list")]),
    "twice listed": (book(list=["title", "title"]), [("M018", f"{B}.list[1]")]),
    "list a password": (
        book({"p": {"type": "string", "format": "password"}}, list=["p"]),
        [("M030", f"{B}.list[0]")],
    ),
    "unknown readonly field": (
        book(readonly=["nope"]),
        [("M022", f"{B}.readonly[0]")],
    ),
    "twice read-only": (
        book(readonly=["title", "title"]),
        [("M018", f"{B}.readonly[1]")],
    ),
    "read-only and required without default": (
        book(required=["title"], readonly=["title"]),
        [("M027", f"{B}.readonly[0]")],
    ),
    "read-only supplied key": (
        book({"code": {"type": "string"}}, key="code", readonly=["code"]),
        [("M027", f"{B}.readonly[0]")],
    ),
    "method named as an ability": (
        book(methods=["delete"]),
        [("M023", f"{B}.methods[0]")],
    ),
    "method named as a hook": (
        book(methods=["before_creating"]),
        [("M023", f"{B}.methods[0]")],
    ),
    "enum type": (
        book({"n": {"type": "integer", "enum": [1, "2"]}}),
        [("M032", f"{F}.n.enum[1]")],
    ),
    "enum float on integer": (
        book({"n": {"type": "integer", "enum": [1, 2.5]}}),
        [("M032", f"{F}.n.enum[1]")],
    ),
}


@pytest.mark.parametrize("case", list(RULES))
def test_rule(case: str) -> None:
    resources, expected = RULES[case]
    assert found(issues_of(resources)) == expected


TOP_RULES = {
    "project name keyword": (
        {"project": {"name": "class"}},
        [("M023", "project.name")],
    ),
    "project name stdlib": ({"project": {"name": "json"}}, [("M023", "project.name")]),
    "project name reserved": (
        {"project": {"name": "tests"}},
        [("M023", "project.name")],
    ),
    "project name case": ({"project": {"name": "Shop"}}, [("M023", "project.name")]),
    "framework": (
        {"project": {"name": "shop", "framework": "flask"}},
        [("M010", "project.framework")],
    ),
    "token ttl": ({"auth": {"token_ttl": 90000}}, [("M016", "auth.token_ttl")]),
    "jwt type": ({"auth": {"jwt": "yes please"}}, [("M010", "auth.jwt")]),
    "openapi version": (
        {"docs": {"openapi_version": "3.2"}},
        [("M010", "docs.openapi_version")],
    ),
    "docs path escapes": ({"docs": {"path": "../oag.yaml"}}, [("M014", "docs.path")]),
    "docs path absolute": (
        {"docs": {"path": "/etc/oag.yaml"}},
        [("M014", "docs.path")],
    ),
    "docs route": ({"docs": {"route": "/oag.json"}}, [("M014", "docs.route")]),
    "unknown top key": ({"resource": {}}, [("M011", "resource")]),
    "admin declared": (
        {"roles": {"admin": {"*": ["view"]}}},
        [("M034", "roles.admin")],
    ),
    "role name case": ({"roles": {"Editor": {}}}, [("M034", "roles.Editor")]),
    "role name dash": ({"roles": {"front-desk": {}}}, [("M034", "roles.front-desk")]),
    "role of an unknown resource": (
        {"roles": {"viewer": {"Bok": ["view"]}}},
        [("M034", "roles.viewer.Bok")],
    ),
    "unknown ability": (
        {"roles": {"viewer": {"*": ["view", "veiw"]}}},
        [("M034", 'roles.viewer."*"[1]')],
    ),
    "another resource's method": (
        {"roles": {"viewer": {"Book": ["publish"]}}},
        [("M034", "roles.viewer.Book[0]")],
    ),
    "abilities not a list": (
        {"roles": {"viewer": {"*": "view"}}},
        [("M010", 'roles.viewer."*"')],
    ),
    "role not a mapping": ({"roles": {"viewer": ["view"]}}, [("M010", "roles.viewer")]),
    "ability twice": (
        {"roles": {"viewer": {"*": ["view", "view"]}}},
        [("M018", 'roles.viewer."*"[1]')],
    ),
}


@pytest.mark.parametrize("case", list(TOP_RULES))
def test_top_level_rule(case: str) -> None:
    top, expected = TOP_RULES[case]
    assert found(issues_of(**top)) == expected


def test_roles_grant_abilities_and_method_names() -> None:
    resources = {
        "Book": {"fields": {"t": {"type": "string"}}, "methods": ["publish"]},
        "Author": {"fields": {"n": {"type": "string"}}, "methods": ["archive"]},
    }
    manifest = {
        "project": {"name": "shop_admin"},
        "roles": {
            "editor": {"*": ["view_any", "view", "publish"], "Book": ["publish"]},
            "clerk": {"Author": ["archive", "import", "export", "mass_delete"]},
            "nobody": {},
        },
        "resources": resources,
    }
    project = parse_manifest(yaml.safe_dump(manifest, sort_keys=False), "m.yaml")
    assert [(r.name, r.grants) for r in project.roles] == [
        ("editor", (("*", ("view_any", "view", "publish")), ("Book", ("publish",)))),
        ("clerk", (("Author", ("archive", "import", "export", "mass_delete")),)),
        ("nobody", ()),
    ]


def test_role_problems_say_what_is_expected() -> None:
    (admin,) = issues_of(roles={"admin": {"*": ["view"]}})
    assert admin.message == (
        "'admin' is built in (it may do everything), so it cannot be declared"
    )
    (resource,) = issues_of(roles={"viewer": {"Bok": ["view"]}})
    assert resource.message == "refers to 'Bok', which is not a resource"
    assert resource.hint == "did you mean 'Book'?"
    (far,) = issues_of(roles={"viewer": {"Zebra": ["view"]}})
    assert far.hint == "use '*' or one of 'Book'"
    (ability,) = issues_of(roles={"viewer": {"Book": ["archive"]}})
    assert ability.message == "'archive' is not an ability of 'Book'"
    assert ability.hint == (
        "abilities are 'view_any', 'view', 'create', 'update', 'delete' and 3 more"
    )


def test_field_lists_reach_the_resource() -> None:
    fields = {"title": {"type": "string"}, "by": {"type": "string"}}
    manifest = {
        "project": {"name": "shop_admin"},
        "resources": book(fields, list=["title", "id"], readonly=["by"]),
    }
    project = parse_manifest(yaml.safe_dump(manifest, sort_keys=False), "m.yaml")
    (resource,) = project.resources
    assert resource.index_fields == ("title", "id")
    assert resource.readonly_fields == ("by",)
    assert project.roles == ()


def test_read_only_and_required_explains_why() -> None:
    (issue,) = issues_of(book(required=["title"], readonly=["title"]))
    assert issue.message == (
        "'title' is required without a default, so making it read-only means no "
        "record could ever be created"
    )
    assert issue.hint == "give it a default, or remove it from 'required' or 'readonly'"
    fields = {"title": {"type": "string", "default": "untitled"}}
    manifest = {
        "project": {"name": "shop_admin"},
        "resources": book(fields, required=["title"], readonly=["title"]),
    }
    parse_manifest(yaml.safe_dump(manifest, sort_keys=False), "m.yaml")


def test_type_message_and_did_you_mean() -> None:
    (issue,) = issues_of(book({"pages": {"type": "integr"}}))
    assert issue.message == (
        "'integr' is not one of 'string', 'integer', 'number', 'boolean', 'array'"
    )
    assert issue.hint == "did you mean 'integer'?"


def test_unknown_key_hints_a_close_key_or_lists_the_known_ones() -> None:
    (close,) = issues_of(book({"t": {"type": "string", "max_length": 3}}))
    assert close.hint == "did you mean 'maxLength'?"
    (far,) = issues_of(project={"name": "shop", "colour": "red"})
    assert far.hint == (
        "known keys are 'name', 'title', 'framework', 'database', 'jwt_issuer'"
    )


def test_relation_hint_names_the_declared_resources() -> None:
    resources = {
        "Author": {"fields": {"n": {"type": "string"}}},
        **book({"a": {"type": "integer", "relation": "Writer"}}),
    }
    (issue,) = issues_of(resources)
    assert issue.message == "refers to 'Writer', which is not a resource"
    assert issue.hint == "declared resources are 'Author', 'Book'"
    (near,) = issues_of(
        {
            **resources,
            "Book": {"fields": {"a": {"type": "integer", "relation": "Autor"}}},
        }
    )
    assert near.hint == "did you mean 'Author'?"


def test_unknown_field_hint_lists_the_fields_including_the_implicit_key() -> None:
    (issue,) = issues_of(book(search=["name"]))
    assert issue.message == "refers to 'name', which is not a field of 'Book'"
    assert issue.hint == "fields of 'Book' are 'id', 'title'"


def test_a_long_hint_is_cut_to_one_line() -> None:
    fields = {f"field_number_{i}": {"type": "string"} for i in range(20)}
    (issue,) = issues_of(book(fields, search=["zzz"]))
    assert issue.hint is not None and issue.hint.endswith("more")
    assert len(issue.hint) < 90


def test_integers_are_not_floats() -> None:
    (issue,) = issues_of(book(per_page=25.0))
    assert (issue.code, issue.message) == (
        "M010",
        "'25.0' is a number, expected an integer",
    )


def test_quoted_boolean_hints_removing_the_quotes() -> None:
    (issue,) = issues_in(PROJECT + "auth: {jwt: 'true'}\n" + ONE_RESOURCE)
    assert (issue.code, issue.hint) == ("M010", "remove the quotes")


def test_a_plain_number_where_a_string_is_expected_hints_quoting() -> None:
    text = "project: {name: shop, title: 2024}\n" + ONE_RESOURCE
    (issue,) = issues_in(text)
    assert (issue.code, issue.message) == (
        "M010",
        "'2024' is an integer, expected a string",
    )
    assert issue.hint == 'quote it: "2024"'


@pytest.mark.parametrize(
    ("written", "read"),
    [
        ("no", "false"),
        ("off", "false"),
        ("Yes", "true"),
        ("on", "true"),
        ("0755", "493"),
        ("1:30", "90"),
        ("1.10", "1.1"),
        ("0x1F", "31"),
    ],
)
def test_yaml_11_traps_where_a_string_is_expected(written: str, read: str) -> None:
    text = f"project: {{name: shop, title: {written}}}\n" + ONE_RESOURCE
    (issue,) = issues_in(text)
    assert issue.code == "M013"
    assert issue.message == f"YAML reads '{written}' as {read}; quote it: \"{written}\""


@pytest.mark.parametrize("where", ["default: no", "enum: [yes, maybe]"])
def test_yaml_11_traps_in_string_field_values(where: str) -> None:
    assert [issue.code for issue in issues_in(string_field(where))] == ["M013"]


def test_yaml_11_trap_in_a_filter_value() -> None:
    text = (
        PROJECT + "resources:\n  B:\n    fields: {answer: {type: string}}\n"
        "    query_tags: {negative: {filter: {answer: no}}}\n"
    )
    (issue,) = issues_in(text)
    assert (issue.code, issue.line, issue.column) == ("M013", 5, 46)


def test_keys_are_names_as_written() -> None:
    text = (
        "project: {name: shop}\nresources:\n  B:\n    fields: {'no': {type: boolean}}\n"
        "    query_tags: {on: {filter: {'no': true}}, off: {filter: {'no': false}}}\n"
    )
    project = parse_manifest(text, "m.yaml")
    assert [t.uri for t in project.resources[0].query_tags] == ["on", "off"]
    assert project.resources[0].fields[1].name == "no"


def test_values_the_schema_rejects_cause_no_follow_up_problems() -> None:
    resources = {
        "Book": {
            "fields": ["title"],
            "required": ["title"],
            "search": ["title"],
            "default_sort": "title",
        },
        "Other": {
            "fields": {
                "a": {"type": "strin", "enum": [1]},
                "b": {"type": "integer", "relation": "Book"},
            }
        },
    }
    assert found(issues_of(resources)) == [
        ("M010", "resources.Book.fields"),
        ("M010", "resources.Other.fields.a.type"),
    ]


def test_a_wrong_enum_does_not_also_reject_the_default() -> None:
    text = string_field("enum: [yes, no], default: maybe")
    assert [issue.code for issue in issues_in(text)] == ["M013", "M013"]


def test_positions_point_at_the_value_or_the_key() -> None:
    text = (
        "project:\n  name: shop\nresources:\n  Book:\n    fields:\n"
        "      class: {type: string}\n      n: {type: integer, minimum: 0.5}\n"
    )
    keyword, limit = issues_in(text)
    assert (keyword.line, keyword.column) == (6, 7)  # the key 'class'
    assert (limit.line, limit.column) == (7, 35)  # the value 0.5


def test_a_derived_clash_points_at_the_resource_name() -> None:
    text = PROJECT + (
        "resources:\n"
        "  Book: {fields: {t: {type: string}}}\n"
        "  Tome: {uri: book-resource, fields: {t: {type: string}}}\n"
        "  BOOK: {fields: {t: {type: string}}}\n"
    )
    issues = issues_in(text)
    assert [(i.code, i.path, i.line, i.column) for i in issues] == [
        ("M020", "resources.Tome.uri", 4, 15),
        ("M020", "resources.BOOK", 5, 3),
    ]


def test_every_missing_key_is_reported() -> None:
    assert [(i.code, i.message) for i in issues_in("{}\n")] == [
        ("M012", "the required key 'project' is missing"),
        ("M012", "the required key 'resources' is missing"),
    ]
