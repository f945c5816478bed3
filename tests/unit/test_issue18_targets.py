"""What issue 18 changed in the generated code, rule by rule, without serving it.

Keys of every type and the relation columns that hold them, cycles of optional
relations (tables first, their foreign keys after), keyword resource names, the
pattern engine, the docs view written once. The end-to-end proof is
``tests/e2e/test_valid_manifests.py``.
"""

from __future__ import annotations

import keyword
from dataclasses import replace

import pytest

from generator.manifest.load import parse_manifest
from generator.model import ir, naming, patterns
from generator.model.kernel_fields import kernel_field
from generator.model.samples import creation_order
from generator.regen.migrations import diff_schema
from generator.targets import columns, common
from generator.targets.django import migrations as django_migrations
from generator.targets.django import target as django_target
from generator.targets.fastapi import migrations as fastapi_migrations
from generator.targets.fastapi import storage
from generator.targets.fastapi import target as fastapi_target

KEYS = """
project: {name: keys_admin}
resources:
  Country:
    key: code
    fields:
      code: {type: string, maxLength: 2}
  Device:
    key: serial
    fields:
      serial: {type: string, format: uuid}
  City:
    fields:
      country: {type: string, relation: Country}
      device: {type: string, relation: Device, nullable: true}
      twin: {type: integer, relation: City, nullable: true}
"""
CYCLE = """
project: {name: cycle_admin}
resources:
  Author:
    fields:
      best_book: {type: integer, relation: Book, nullable: true}
  Book:
    fields:
      author: {type: integer, relation: Author}
    required: [author]
"""


def load(text: str) -> ir.Project:
    return parse_manifest(text, "m.yaml")


def test_relation_columns_hold_their_target_key_type() -> None:
    project = load(KEYS)
    city = project.resource("City")
    assert storage.column_args(city.field("country"), project)[0] == "sa.String(2)"
    assert storage.column_args(city.field("device"), project)[0] == "sa.Uuid"
    assert storage.column_args(city.field("twin"), project)[0] == "sa.BigInteger"
    assert storage.python_type(city.field("device"), project) == "uuid.UUID | None"
    assert storage.migration_type(city.field("country"), project) == "sa.String(2)"
    assert storage.model_imports(city, project) == ["uuid"]


def test_relations_tell_the_kernel_their_key_type() -> None:
    project = load(KEYS)
    city = project.resource("City")
    kwargs = {f.name: dict(kernel_field(f, project).kwargs) for f in city.fields}
    assert kwargs["country"]["key_type"] == "string"
    assert kwargs["device"]["key_type"] == "uuid"
    assert "key_type" not in kwargs["twin"]  # an integer key: the default


def test_a_string_key_is_given_and_required_a_uuid_key_is_made() -> None:
    project = load(KEYS)
    code = project.resource("Country").key_field
    serial = project.resource("Device").key_field
    assert (code.required, code.read_only) == (True, False)
    assert (serial.required, serial.read_only) == (False, True)


def test_cycles_are_broken_at_an_optional_relation() -> None:
    project = load(CYCLE)
    assert [r.name for r in creation_order(project)] == ["Author", "Book"]
    later = columns.later_relations(creation_order(project))
    assert {name: [f.name for f in fields] for name, fields in later.items()} == {
        "Author": ["best_book"]
    }


def test_fastapi_creates_both_tables_then_the_cycles_foreign_key() -> None:
    context = fastapi_target.migration_context(load(CYCLE))
    authors = "\n".join(context["tables"][0]["elements"])
    assert "fk_authors_best_book_books" not in authors
    assert "fk_books_author_authors" in "\n".join(context["tables"][1]["elements"])
    (added,) = context["later_keys"]
    assert 'op.batch_alter_table(\n        "authors"' in added
    assert "create_foreign_key(" in added and "fk_authors_best_book_books" in added
    (dropped,) = context["dropped_keys"]
    assert 'drop_constraint(op.f("fk_authors_best_book_books")' in dropped


def test_fastapi_regeneration_adds_and_drops_cycles_the_same_way() -> None:
    after = load(CYCLE)
    before = replace(after, resources=())
    upgrade = fastapi_migrations.operation_lines(diff_schema(before, after))
    create_books = next(i for i, line in enumerate(upgrade) if '"books",' in line)
    key = next(i for i, line in enumerate(upgrade) if "create_foreign_key" in line)
    assert key > create_books
    downgrade = fastapi_migrations.operation_lines(diff_schema(after, before))
    drop_key = next(i for i, line in enumerate(downgrade) if "drop_constraint" in line)
    drops = [i for i, line in enumerate(downgrade) if "op.drop_table" in line]
    assert drop_key < min(drops)


def test_django_adds_the_cycles_field_after_both_models() -> None:
    project = load(CYCLE)
    context = django_target.migration_context(project)
    author = context["models"][0]
    assert author["name"] == '"Author"'
    assert not any("best_book" in line for line in author["fields"])
    (added,) = context["later_fields"]
    assert added.startswith('migrations.AddField(model_name="author", name="best_book"')
    diff = diff_schema(project, replace(project, resources=()))
    plan = django_migrations.migration_plan(
        diff, name_number="0002", dependency="0001_initial", header=[]
    )
    assert plan is not None
    changes = plan.context["changes"]
    assert changes == ['migrations.RemoveField(model_name="author", name="best_book")']


@pytest.mark.parametrize("word", [w for w in keyword.kwlist if w.islower()])
def test_keyword_resource_names_get_a_module_with_a_trailing_underscore(
    word: str,
) -> None:
    name = naming.pascal(word)
    assert naming.module_name(name) == f"{word}_"
    fields = "{fields: {t: {type: string}}}"
    project = load(f"project: {{name: kw_admin}}\nresources: {{{name}: {fields}}}\n")
    assert project.resources[0].module == f"{word}_"


def test_patterns_are_checked_with_the_panels_engine() -> None:
    assert patterns.engine_problem("^[0-9]+$") is None
    assert "look-around" in (patterns.engine_problem("(?=a)a") or "")
    assert "backreferences" in (patterns.engine_problem("(a)\\1") or "")
    assert patterns.engine_search("^[A-Z]+$", "ABC")
    assert not patterns.engine_search("^[A-Z]+$", "ABC\n")  # Python's re would


def test_a_docs_view_of_the_project_is_written_once_from_the_builtin_page() -> None:
    project = load(
        "project: {name: d_admin}\ndocs: {view: templates/docs.html}\n"
        "resources: {B: {fields: {t: {type: string}}}}\n"
    )
    (plan,) = common.docs_view_plans(project)
    assert (plan.path, plan.owner) == ("templates/docs.html", "user")
    assert "<!DOCTYPE html>" in plan.context["page"]
    assert common.docs_view_plans(replace(project, docs=ir.Docs())) == []


def _codes(text: str) -> list[tuple[str, str]]:
    from generator.errors import ManifestError

    try:
        load(text)
    except ManifestError as exc:
        return [(issue.code, issue.path) for issue in exc.issues]
    return []


def test_a_cycle_with_one_optional_relation_is_accepted() -> None:
    assert _codes(CYCLE) == []


def test_a_relation_with_a_default_counts_as_required_on_a_cycle() -> None:
    text = CYCLE.replace(
        "{type: integer, relation: Book, nullable: true}",
        "{type: integer, relation: Book, default: 1}",
    )
    assert _codes(text) == [("M035", "resources.Author.fields.best_book.relation")]


@pytest.mark.parametrize(
    ("docs", "code"),
    [
        ("{route: admin}", "M037"),
        ("{route: static/spec.json}", "M037"),
        ("{route: docs.json}", None),
        ("{route: oag}", None),
        ("{route: page}", "M037"),
        ("{view: /etc/passwd}", "M014"),
        ("{view: templates/../../x.html}", "M014"),
        ("{view: templates/docs.txt}", "M014"),
        ("{view: templates/a/b.html}", None),
    ],
)
def test_docs_routes_and_views(docs: str, code: str | None) -> None:
    book = "resources: {B: {fields: {t: {type: string}}}}\n"
    text = f"project: {{name: d_admin}}\ndocs: {docs}\n{book}"
    assert [c for c, _ in _codes(text)] == ([code] if code else [])
