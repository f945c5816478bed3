"""The Django target: copier answers, the file plan, model fields and migrations."""

from __future__ import annotations

from dataclasses import replace

import openapi_projects as projects
import pytest

from generator.errors import OutputError
from generator.model import ir
from generator.paths import resource_templates
from generator.regen.migrations import diff_schema
from generator.targets.django import migrations, storage
from generator.targets.django.related_names import related_names
from generator.targets.django.target import DjangoTarget

field = projects.field
target = DjangoTarget()


def test_copier_data_has_exactly_the_skeleton_keys() -> None:
    library = replace(projects.library(jwt=True), framework="django")
    assert target.copier_data(library) == {
        "project_name": library.name,
        "project_title": library.title,
        "framework": "django",
        "jwt": True,
        "token_ttl": 3600,
        "database_file": f"{library.name}.db",
        "jwt_issuer": library.name,
    }


def test_plan_has_models_migration_and_one_model_module_per_resource() -> None:
    library = projects.library()
    plans = {plan.path: plan for plan in target.plan_files(library)}
    assert {
        "app/models.py",
        "app/migrations/0001_initial.py",
        "app/resources/__init__.py",
        "app/oag_config.py",
        "app/roles.py",
        "tests/samples.json",
    } <= set(plans)
    assert plans["app/roles.py"].owner == "generated"
    for resource in library.resources:
        assert plans[f"app/resources/{resource.module}.py"].owner == "generated"
        assert plans[f"app/hooks/{resource.module}.py"].owner == "user"
    for plan in plans.values():
        assert (resource_templates() / plan.template).is_file(), plan.template


_INDEXED = "null=True, blank=True, db_index=True"
MODEL_FIELDS = [
    (field("title", max_length=200), f"CharField(max_length=200, {_INDEXED})"),
    (field("isbn"), f"CharField({_INDEXED})"),
    (field("body", format="text", sortable=False), "TextField(null=True, blank=True)"),
    (field("n", "integer", minimum=0, maximum=10), f"IntegerField({_INDEXED})"),
    (field("big", "integer"), f"BigIntegerField({_INDEXED})"),
    (field("price", "number"), f"FloatField({_INDEXED})"),
    (field("ok", "boolean", default=True), "BooleanField(default=True, db_index=True)"),
    (field("genre", enum=("a", "bcd")), f"CharField(max_length=3, {_INDEXED})"),
    (field("on", format="date", required=True), "DateField(db_index=True)"),
    (field("at", format="date-time"), f"DateTimeField({_INDEXED})"),
    (
        field("secret", format="password", required=True),
        "CharField(max_length=255, db_index=True)",
    ),
]


@pytest.mark.parametrize(("declared", "expected"), MODEL_FIELDS)
def test_model_field_per_declaration(declared: ir.Field, expected: str) -> None:
    thing = projects.resource("Thing", declared)
    project = projects.project(thing)
    code = storage.field_call(declared, thing, project, migration=False)
    assert code == "models." + expected


def test_relations_keep_the_column_name_and_follow_their_delete_rule() -> None:
    library = projects.library()
    book = library.resource("Book")
    author = book.field("author")
    model = storage.field_call(author, book, library, migration=False)
    assert model == (
        'models.ForeignKey("Author", models.PROTECT, db_column="author", '
        'related_name="books", null=True, blank=True)'
    )
    cascade = replace(author, on_delete="cascade")
    assert "models.CASCADE" in storage.field_call(
        cascade, book, library, migration=False
    )
    cleared = replace(author, on_delete="set_null")
    migration = storage.field_call(cleared, book, library, migration=True)
    assert migration.startswith(
        'models.ForeignKey(on_delete=models.SET_NULL, to="app.author"'
    )


def _related(*resources: ir.Resource, hidden: bool = False) -> dict:
    project = projects.project(*resources)
    if hidden:
        project = replace(project, django_model_style=1)
    return related_names(project)


def test_related_names_are_the_plural_of_the_model_holding_the_key() -> None:
    author = projects.resource("Author", field("name"))
    book = projects.resource("Book", field("author", "integer", relation="Author"))
    entry = projects.resource(
        "BookEntry", field("author", "integer", relation="Author")
    )
    assert _related(author, book, entry) == {
        ("Book", "author"): "books",
        ("BookEntry", "author"): "book_entries",
    }
    assert set(_related(author, book, hidden=True).values()) == {"+"}


def test_related_names_say_which_key_when_one_name_would_not_do() -> None:
    # Two keys of Book to Author; Author has a field "notes"; and "objects" is
    # every model's manager.
    author = projects.resource("Author", field("notes"))
    book = projects.resource(
        "Book",
        field("author", "integer", relation="Author"),
        field("editor", "integer", relation="Author"),
    )
    note = projects.resource("Note", field("author", "integer", relation="Author"))
    thing = projects.resource("Object", field("book", "integer", relation="Book"))
    assert _related(author, book, note, thing) == {
        ("Book", "author"): "books_as_author",
        ("Book", "editor"): "books_as_editor",
        ("Note", "author"): "notes_as_author",
        ("Object", "book"): "objects_as_book",
    }


def test_integer_keys_are_big_auto_fields() -> None:
    key = projects.KEY
    thing = projects.resource("Thing", field("a"))
    project = projects.project(thing)
    assert storage.field_call(key, thing, project, migration=False) == (
        "models.BigAutoField(primary_key=True)"
    )
    assert storage.field_call(key, thing, project, migration=True) == (
        "models.BigAutoField(primary_key=True, serialize=False)"
    )


def _with_field(project: ir.Project, name: str, extra: ir.Field) -> ir.Project:
    resources = tuple(
        replace(r, fields=r.fields + (extra,)) if r.name == name else r
        for r in project.resources
    )
    return replace(project, resources=resources)


def test_schema_migration_adds_a_field_after_the_leaf() -> None:
    before = projects.library()
    after = _with_field(before, "Book", field("subtitle", max_length=80))
    existing = {
        "app/migrations/__init__.py": "",
        "app/migrations/0001_initial.py": "dependencies = []\n",
        "app/migrations/0002_by_hand.py": 'dependencies = [("app", "0001_initial")]\n',
    }
    plan = target.schema_migration(before, after, existing)
    assert plan is not None
    assert plan.path == "app/migrations/0003_add_books_subtitle.py"
    assert plan.context["dependency"] == '"0002_by_hand"'
    assert plan.context["changes"] == [
        'migrations.AddField(model_name="book", name="subtitle", '
        "field=models.CharField(max_length=80, null=True, blank=True, db_index=True))"
    ]


def test_no_schema_change_means_no_migration() -> None:
    library = projects.library()
    existing = {"app/migrations/0001_initial.py": "dependencies = []\n"}
    assert target.schema_migration(library, library, existing) is None


def test_two_leaves_must_be_merged_first() -> None:
    existing = {
        "app/migrations/0001_initial.py": "dependencies = []\n",
        "app/migrations/0002_a.py": 'dependencies = [("app", "0001_initial")]\n',
        "app/migrations/0002_b.py": 'dependencies = [("app", "0001_initial")]\n',
    }
    with pytest.raises(OutputError, match="makemigrations --merge"):
        migrations.next_migration(existing)


def test_dropped_resources_are_deleted_models() -> None:
    before = projects.library()
    after = replace(
        before, resources=tuple(r for r in before.resources if r.name != "Member")
    )
    plan = migrations.migration_plan(
        diff_schema(before, after),
        name_number="0002",
        dependency="0001_initial",
        header=[],
    )
    assert plan is not None
    assert plan.context["deleted"] == ['migrations.DeleteModel(name="Member")']
    # An adopted table's model leaves Django's record only: the table stays.
    adopted = replace(before.resource("Member"), adopted=True)
    before = replace(
        before,
        resources=tuple(adopted if r.name == "Member" else r for r in before.resources),
    )
    plan = migrations.migration_plan(
        diff_schema(before, after),
        name_number="0002",
        dependency="0001_initial",
        header=[],
    )
    assert plan is not None
    assert plan.context["deleted"] == [
        "migrations.SeparateDatabaseAndState(state_operations="
        '[migrations.DeleteModel(name="Member")])'
    ]
    assert plan.path == "app/migrations/0002_drop_members.py"
