"""The FastAPI target: copier answers, the file plan, and each context builder."""

from __future__ import annotations

import ast
from dataclasses import replace

import black
import openapi_projects as projects
import pytest

from generator.model import ir
from generator.paths import resource_templates
from generator.targets import columns, common
from generator.targets.fastapi import api_tests as emitted_tests
from generator.targets.fastapi import storage
from generator.targets.fastapi import target as contexts
from generator.targets.fastapi.target import FastAPITarget
from generator.targets.pysource import (
    call,
    comment_lines,
    exploded,
    laid_out,
    literal,
    tuple_assignment,
)

field = projects.field
target = FastAPITarget()


def _uuid_keyed() -> ir.Resource:
    code = ir.Field(
        name="code",
        type="string",
        label="Code",
        format="uuid",
        read_only=True,
        is_key=True,
    )
    return replace(
        projects.resource("Ticket", field("subject", required=True)),
        key="code",
        fields=(code, field("subject", required=True)),
        default_sort="-code",
    )


# --- copier_data and plan_files ------------------------------------------------------


def test_copier_data_has_exactly_the_skeleton_keys() -> None:
    library = projects.library(jwt=True)
    data = target.copier_data(library)
    assert data == {
        "project_name": library.name,
        "project_title": library.title,
        "framework": "fastapi",
        "jwt": True,
        "token_ttl": 3600,
        "database_file": f"{library.name}.db",
        "jwt_issuer": library.name,
    }


def test_copier_data_ignores_resources() -> None:
    library = projects.library()
    assert target.copier_data(library) == target.copier_data(
        replace(library, resources=())
    )


def test_plan_lists_every_resource_file_once() -> None:
    plans = target.plan_files(projects.library())
    paths = [plan.path for plan in plans]
    assert len(paths) == len(set(paths))
    assert set(paths) == {
        "app/resources/__init__.py",
        "app/core/oag_config.py",
        "app/roles.py",
        "tests/samples.json",
        "migrations/versions/0001_initial.py",
        ".github/workflows/panel.yml",
        ".pre-commit-config.yaml",
        *(f"app/resources/{m}.py" for m in ("author", "book", "member")),
        *(f"app/hooks/{m}.py" for m in ("author", "book", "member")),
        *(f"tests/test_{m}_api.py" for m in ("author", "book", "member")),
        *(f"tests/test_{m}_pages.py" for m in ("author", "book", "member")),
    }


def test_only_hooks_and_ci_config_belong_to_the_user() -> None:
    written_once = (".github/workflows/panel.yml", ".pre-commit-config.yaml")
    for plan in target.plan_files(projects.library()):
        mine = plan.path.startswith("app/hooks/") or plan.path in written_once
        assert plan.owner == ("user" if mine else "generated"), plan.path


def test_every_planned_template_exists() -> None:
    for plan in target.plan_files(projects.todo()):
        assert (resource_templates() / plan.template).is_file(), plan.template


# --- black-style source helpers -----------------------------------------------------


@pytest.mark.parametrize(
    ("value", "code"),
    [
        ("plain", '"plain"'),
        ("it's", '"it\'s"'),
        ('say "hi"', "'say \"hi\"'"),
        ("new\nline", '"new\\nline"'),
        (("a",), '("a",)'),
        ((1, 2), "(1, 2)"),
        ({"done": False}, '{"done": False}'),
        (["x"], '["x"]'),
        (1.5, "1.5"),
        (None, "None"),
    ],
)
def test_literal_quotes_as_black_does(value: object, code: str) -> None:
    assert literal(value) == code
    assert ast.literal_eval(code) == value


def test_call_fits_on_one_line_when_it_can() -> None:
    assert call("f", ["1", "2"], indent=1, prefix="x = ") == "x = f(1, 2)"


def test_call_moves_long_arguments_to_their_own_line() -> None:
    args = ['"' + "a" * 40 + '"', '"' + "b" * 30 + '"']
    text = call("compute", args, indent=1, prefix="value = ")
    assert text == f"value = compute(\n        {args[0]}, {args[1]}\n    )"


def test_call_puts_one_argument_per_line_last() -> None:
    args = ['"' + "a" * 50 + '"', '"' + "b" * 50 + '"']
    text = call("f", args, indent=0, suffix=",")
    assert text == f"f(\n    {args[0]},\n    {args[1]},\n),"


def test_exploded_and_one_item_tuples() -> None:
    assert exploded("[", [], "]", indent=0) == "[]"
    assert exploded("{", ['"a": 1'], "}", indent=1) == '{\n        "a": 1,\n    }'
    assert tuple_assignment("x", ["A,"], indent=0) == "x = (A,)"
    assert tuple_assignment("x", ["A", "B"], indent=0) == "x = (\n    A,\n    B,\n)"


def test_comment_lines_wrap_at_88() -> None:
    lines = comment_lines("word " * 40)
    assert all(line.startswith("# ") and len(line) <= 88 for line in lines)
    assert len(lines) == 3


# --- storage ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("manifest_field", "sa_type", "python_type"),
    [
        (field("title", max_length=200, required=True), "sa.String(200)", "str"),
        (
            field("isbn", sortable=False),
            'sa.String().with_variant(sa.Text(2**32 - 1), "mysql", "mariadb")',
            "str | None",
        ),
        (
            field("code", unique=True),
            'sa.String().with_variant(sa.String(768), "mysql", "mariadb")',
            "str | None",
        ),
        (
            field("summary", format="text"),
            'sa.Text().with_variant(sa.Text(2**32 - 1), "mysql", "mariadb")',
            "str | None",
        ),
        (field("on", format="date"), "sa.Date", "datetime.date | None"),
        (
            field("at", format="date-time", required=True),
            "sa.DateTime(timezone=True)",
            "datetime.datetime",
        ),
        (field("token", format="uuid"), "sa.Uuid", "uuid.UUID | None"),
        (field("secret", format="password", required=True), "sa.String(255)", "str"),
        (field("genre", enum=("a", "bbb")), "sa.String(3)", "str | None"),
        (field("rating", "integer", enum=(1, 5)), "sa.Integer", "int | None"),
        (field("pages", "integer", minimum=1, maximum=10), "sa.Integer", "int | None"),
        (field("views", "integer", minimum=0), "sa.BigInteger", "int | None"),
        (field("price", "number", nullable=True), "sa.Double", "float | None"),
        (field("done", "boolean", default=False), "sa.Boolean", "bool"),
    ],
)
def test_storage_types(
    manifest_field: ir.Field, sa_type: str, python_type: str
) -> None:
    assert storage.sa_type(manifest_field) == sa_type
    project = projects.project(projects.resource("Book", manifest_field))
    assert storage.python_type(manifest_field, project) == python_type


def test_defaults_are_python_values() -> None:
    assert columns.default_code(field("on", format="date", default="2024-02-03")) == (
        "datetime.date(2024, 2, 3)"
    )
    assert columns.default_code(field("done", "boolean", default=True)) == "True"
    assert columns.default_code(field("token", format="uuid", read_only=True)) == (
        "uuid.uuid4"
    )
    assert columns.default_code(field("token", format="uuid")) is None


def test_column_args_of_keys_relations_and_indexes() -> None:
    library = projects.library()
    book = library.resource("Book")
    assert storage.column_args(book.key_field, library) == [
        "BigKey",
        "primary_key=True",
    ]
    assert storage.column_args(book.field("author"), library) == [
        "sa.BigInteger",
        'sa.ForeignKey("authors.id", ondelete="RESTRICT")',
        "index=True",
    ]
    for rule, clause in (("cascade", "CASCADE"), ("set_null", "SET NULL")):
        ruled = replace(book.field("author"), on_delete=rule)
        assert f'ondelete="{clause}"' in storage.column_args(ruled, library)[1]
    assert "index=True" not in storage.column_args(book.field("summary"), library)


def test_model_imports_only_what_annotations_use() -> None:
    library = projects.library()
    assert storage.model_imports(library.resource("Book"), library) == ["datetime"]
    assert storage.model_imports(library.resource("Member"), library) == [
        "datetime",
        "uuid",
    ]
    tag = projects.resource("Tag", field("name"))
    assert storage.model_imports(tag, projects.project(tag)) == []


# --- the resource module and the registry -------------------------------------------


def test_fields_block_uses_the_kernel_mapping() -> None:
    library = projects.library()
    block = common.fields_block(library.resource("Book"), library)
    assert block.startswith("fields = (\n        ID(),\n")
    assert '        Text("title", max_length=200, required=True),\n' in block
    assert '        BelongsTo("author", resource="author-resource"),\n' in block


def test_kernel_imports_are_sorted_as_isort_sorts_them() -> None:
    library = projects.library()
    line = common.kernel_imports(library.resource("Author"), library)
    assert line == "from panel_core.fields import ID, Date, Email, Text, Url"


def test_resource_context_declares_tags_and_methods() -> None:
    library = projects.library()
    context = contexts.resource_context(library.resource("Book"), library)
    assert context["uses_big_key"]
    assert context["resource_import"] == (
        "from panel_core.resource import QueryTag, Resource"
    )
    attributes = "\n".join(context["attributes"])
    assert 'search = ("title", "isbn")' in attributes
    assert 'QueryTag("available", "Available", {"available": True}),' in attributes
    assert 'methods = ("publish",)' in attributes


def test_declarations_name_the_resource_and_carry_its_field_lists() -> None:
    library = projects.library()
    book = library.resource("Book")
    context = contexts.resource_context(book, library)
    assert context["name"] == '"Book"'
    assert not any("_fields" in line for line in context["attributes"])
    listed = replace(
        book, index_fields=("title", "author"), readonly_fields=("available",)
    )
    attributes = contexts.resource_context(listed, library)["attributes"]
    assert attributes[-2:] == [
        'index_fields = ("title", "author")',
        'readonly_fields = ("available",)',
    ]


@pytest.mark.parametrize(
    "value",
    [
        {},
        {"a": {"*": ("b",)}},
        {"a" * 30: {"*": ("b" * 30, "c" * 30)}, "d": {}},
        {"a" * 30: {"*": ("b" * 10,), "e": ("c" * 30, "d" * 30)}},
        {"r": {"Resource": tuple(f"ability_number_{i}" for i in range(6))}},
        {"r": ["x" * 100]},
    ],
)
def test_laid_out_lays_nested_literals_out_as_black_does(value: object) -> None:
    code = laid_out(value, indent=0, prefix="X: dict[str, Any] = ") + "\n"
    assert black.format_str(code, mode=black.Mode()) == code
    assert ast.literal_eval(code.partition(" = ")[2]) == value


def test_roles_module_lists_the_declared_roles() -> None:
    viewer = ir.Role("viewer", (("*", ("view_any", "view")),))
    project = replace(projects.library(), roles=(viewer,))
    context = common.roles_context(project)
    assert context["header"] == [
        "# Generated by panelforge from library.yaml. Edit the manifest's roles "
        "instead."
    ]
    assert context["roles"] == (
        "ROLES: dict[str, dict[str, tuple[str, ...]]] = {\n"
        '    "viewer": {"*": ("view_any", "view")},\n'
        "}"
    )
    empty = common.roles_context(projects.library())["roles"]
    assert empty == "ROLES: dict[str, dict[str, tuple[str, ...]]] = {}"


def test_registry_imports_user_classes_in_manifest_order() -> None:
    context = common.registry_context(projects.library())
    assert context["imports"][0] == "from app.hooks.author import AuthorResource"
    assert context["resources"].splitlines()[1:4] == [
        "    AuthorResource,",
        "    BookResource,",
        "    MemberResource,",
    ]


def test_hooks_context_lists_the_manifest_methods() -> None:
    context = common.hooks_context(projects.library().resource("Book"))
    assert context["methods"] == ["publish"]
    assert context["import_line"] == (
        "from app.resources.book import BookResource as GeneratedBookResource"
    )


# --- the migration ------------------------------------------------------------------


def test_migration_creates_relation_targets_first() -> None:
    context = contexts.migration_context(projects.library())
    assert [t["name"] for t in context["tables"]] == [
        '"authors"',
        '"books"',
        '"members"',
    ]
    assert context["drop_order"] == ['"members"', '"books"', '"authors"']


def test_migration_table_has_keys_constraints_and_indexes() -> None:
    library = projects.library()
    table = storage.table_context(library.resource("Book"), library)
    elements = "\n".join(table["elements"])
    assert 'sa.PrimaryKeyConstraint("id", name=op.f("pk_books")),' in elements
    assert 'name=op.f("fk_books_author_authors"),' in elements
    assert 'ondelete="RESTRICT",' in elements
    assert (
        'op.create_index(op.f("ix_books_title"), "books", ["title"])'
        in table["indexes"]
    )


# --- the emitted API tests ----------------------------------------------------------


def test_samples_come_back_as_the_api_writes_them() -> None:
    joined = field("joined_at", format="date-time")
    assert emitted_tests.sample(joined).endswith("+00:00")


def test_parents_are_created_before_the_payload_uses_them() -> None:
    library = projects.library()
    parents = emitted_tests.parents_context(library.resource("Book"), library)
    assert [p.variable for p in parents] == ["author"]
    assert parents[0].create == (
        'author = create(client, "author-resource", AUTHOR_PAYLOAD)'
    )
    context = emitted_tests.api_test_context(library.resource("Book"), library)
    assert '"author": author["id"],' in context["payload"]


def test_api_test_cases_follow_the_fields() -> None:
    library = projects.library()
    book = emitted_tests.api_test_context(library.resource("Book"), library)
    assert book["has"] == {
        "wrong_type": True,
        "not_null": True,
        "patch": True,
        "filter": True,
        "search": True,
        "relation": True,
        "required": True,
        "restricted_relation": True,
        "cascading_relation": False,
        "round_trip": True,
        "trashed_relation": False,
        "soft_delete": False,
        "uploads": False,
    }
    assert 'REQUIRED_MESSAGE = "The Title field is required."' in book["constants"]
    member = emitted_tests.api_test_context(library.resource("Member"), library)
    # A password to write back, a read-only token: its export cannot import back.
    assert member["has"]["round_trip"] is False
    assert 'HIDDEN = ("password",)' in member["constants"]
    assert any(
        c.startswith("REQUIRED_MESSAGE = ") and "(and 1 more error)" in c
        for c in member["constants"]
    )


def test_uuid_keys_get_a_uuid_for_the_missing_record() -> None:
    resource = _uuid_keyed()
    project = projects.project(resource)
    constants = emitted_tests.api_test_context(resource, project)["constants"]
    assert 'MISSING_KEY = "00000000-0000-0000-0000-000000000000"' in constants
    assert storage.column_args(resource.key_field, project) == [
        "sa.Uuid",
        "primary_key=True",
        "default=uuid.uuid4",
    ]


def test_oag_config_carries_the_manifest_docs_block() -> None:
    project = replace(
        projects.library(),
        title='The "Library"',
        docs=ir.Docs(title="API", path="spec/api.yaml", openapi_version="3.0.3"),
    )
    context = common.oag_config_context(project)
    assert context["project_title"] == "'The \"Library\"'"
    assert context["docs_title"] == '"API"'
    assert context["docs_path"] == '"spec/api.yaml"'
    assert context["docs_route"] == '"oag.json"'
    assert context["docs_view"] == '"oag::docs"'
    assert context["openapi_version"] == '"3.0.3"'


def test_samples_create_relation_targets_first() -> None:
    import json

    samples = json.loads(common.samples_context(projects.library())["samples"])
    order = [s["resource"] for s in samples]
    book = next(s for s in samples if s["resource"] == "book-resource")
    assert order.index("author-resource") < order.index("book-resource")
    assert book["key"] == "id"
    assert book["relations"] == {"author": "author-resource"}
    assert "author" not in book["body"] and book["body"]["title"]
