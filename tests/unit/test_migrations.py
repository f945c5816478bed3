"""The schema diff between two manifests, and the Alembic code rendered from it."""

from __future__ import annotations

import ast

import black
import pytest

from generator.errors import OutputError
from generator.manifest.load import parse_manifest
from generator.regen.migrations import (
    Step,
    diff_schema,
    next_revision,
    slug,
    structural_steps,
)
from generator.render.jinja import render_plans
from generator.targets.fastapi import db_columns
from generator.targets.fastapi import migrations as fm

BASE = """
project: {name: shop_admin}
resources:
  Category:
    fields:
      name: {type: string, maxLength: 50}
  Product:
    fields:
      title: {type: string, maxLength: 100}
      pages: {type: integer, minimum: 1}
      category: {type: integer, relation: Category}
    required: [title]
"""


def project(text: str = BASE):
    return parse_manifest(text, "shop.yaml")


def edited(*replacements: tuple[str, str]):
    text = BASE
    for old, new in replacements:
        assert old in text, old
        text = text.replace(old, new)
    return project(text)


PAGES = "      pages: {type: integer, minimum: 1}\n"


def upgrade_code(before, after) -> str:
    return "\n".join(fm.operation_lines(diff_schema(before, after)))


# --- the diff -------------------------------------------------------------------------


def test_same_manifest_means_no_change() -> None:
    diff = diff_schema(project(), project())
    assert structural_steps(diff) == []
    assert fm.operation_lines(diff) == []
    assert fm.migration_plan(
        diff, revision="0002", down_revision="0001", header=[]
    ) is (None)


def test_labels_and_search_need_no_migration() -> None:
    after = edited(
        (
            "title: {type: string, maxLength: 100}",
            "title: {type: string, maxLength: 100, label: Name}",
        )
    )
    assert fm.operation_lines(diff_schema(project(), after)) == []


def test_added_and_dropped_fields() -> None:
    after = edited((PAGES, "      isbn: {type: string}\n"))
    diff = diff_schema(project(), after)
    (change,) = [c for c in diff.changed if c.after.name == "Product"]
    assert [f.name for f in change.added] == ["isbn"]
    assert [f.name for f in change.dropped] == ["pages"]
    assert [str(s) for s in structural_steps(diff)] == [
        "add products.isbn",
        "drop products.pages",
    ]


def test_renamed_from_pairs_the_old_field() -> None:
    after = edited(
        (PAGES, "      page_count: {type: integer, minimum: 1, renamed_from: pages}\n")
    )
    diff = diff_schema(project(), after)
    (change,) = [c for c in diff.changed if c.renamed]
    assert [(b.name, a.name) for b, a in change.renamed] == [("pages", "page_count")]
    assert not change.added and not change.dropped
    code = upgrade_code(project(), after)
    # With the column restated: MySQL renames with CHANGE COLUMN.
    assert (
        'batch_op.alter_column("pages",new_column_name="page_count",'
        "existing_type=sa.BigInteger(),existing_nullable=True,)"
    ) in "".join(code.split())
    assert 'op.drop_index(op.f("ix_products_pages"), table_name="products")' in code
    assert '"ix_products_page_count"' in code


def test_a_stale_renamed_from_is_ignored() -> None:
    before = edited(
        (PAGES, "      page_count: {type: integer, minimum: 1, renamed_from: pages}\n")
    )
    assert fm.operation_lines(diff_schema(before, before)) == []


def test_new_tables_come_relation_targets_first_and_drops_users_first() -> None:
    tag = "      tag: {type: integer, relation: Tag}\n"
    after = project(
        BASE.replace(
            "  Category:", "  Tag:\n    fields: {label: {type: string}}\n  Category:"
        ).replace(PAGES, PAGES + tag)
    )
    diff = diff_schema(project(), after)
    assert [r.name for r in diff.created] == ["Tag"]
    back = diff.reversed()
    assert [r.name for r in back.dropped] == ["Tag"]
    code = upgrade_code(project(), after)
    assert code.index('op.create_table(\n        "tags"') < code.index(
        "fk_products_tag_tags"
    )
    removed = project(
        BASE.replace(PAGES, "")
        .replace("      category: {type: integer, relation: Category}\n", "")
        .replace(
            "  Category:\n    fields:\n      name: {type: string, maxLength: 50}\n", ""
        )
    )
    down = upgrade_code(project(), removed)
    assert down.index('"fk_products_category_categories"') < down.index(
        'op.drop_table("categories")'
    )


def test_changing_the_key_is_refused() -> None:
    after = edited(
        ("  Product:\n    fields:", "  Product:\n    key: title\n    fields:"),
        ("required: [title]", "required: [title]"),
    )
    with pytest.raises(OutputError, match="resources.Product: the key changed"):
        diff_schema(project(), after)


def test_a_new_table_name_renames_the_table_with_its_indexes() -> None:
    after = edited(
        ("  Product:\n    fields:", "  Product:\n    table: goods\n    fields:")
    )
    code = upgrade_code(project(), after)
    assert 'op.rename_table("products", "goods")' in code
    assert 'op.drop_index(op.f("ix_products_title"), table_name="products")' in code
    assert 'op.create_index(op.f("ix_goods_title"), "goods", ["title"])' in code
    # the foreign key is named after its table: dropped under the old name
    assert "fk_products_category_categories" in code
    assert "fk_goods_category_categories" in code
    assert '"pk_products" TO "pk_goods"' in code


def test_a_renamed_resource_continues_its_table() -> None:
    after = project(
        BASE.replace("  Product:\n", "  Item:\n    renamed_from: Product\n")
    )
    diff = diff_schema(project(), after)
    assert diff.created == diff.dropped == ()
    (change,) = [c for c in diff.changed if c.after.name == "Item"]
    assert (change.before.table, change.after.table) == ("products", "items")
    assert 'op.rename_table("products", "items")' in upgrade_code(project(), after)


def test_reversed_twice_is_the_same_diff() -> None:
    after = edited((PAGES, "      page_count: {type: string, renamed_from: pages}\n"))
    diff = diff_schema(project(), after)
    assert diff.reversed().reversed() == diff


# --- the rendered operations ----------------------------------------------------------


def test_type_change_casts_on_postgresql() -> None:
    after = edited((PAGES, "      pages: {type: string, maxLength: 20}\n"))
    code = upgrade_code(project(), after)
    assert "type_=sa.String(20)" in code
    assert 'postgresql_using="pages::varchar(20)"' in code


def test_required_field_added_fills_existing_rows() -> None:
    after = edited(
        ("required: [title]", "required: [title, sku]"),
        (PAGES, PAGES + "      sku: {type: string, default: none-yet}\n"),
    )
    code = upgrade_code(project(), after)
    flat = "".join(code.split())  # black lays the calls out over several lines
    sku_type = 'sa.String().with_variant(sa.String(768),"mysql","mariadb")'
    assert f'sa.Column("sku",{sku_type},nullable=True,)' in flat
    assert '.values({"sku":"none-yet"})' in flat
    assert flat.index(".values(") < flat.index(
        f'alter_column("sku",existing_type={sku_type},nullable=False,)'
    )


def test_relation_made_required_is_not_filled_with_a_made_up_value() -> None:
    after = edited(("required: [title]", "required: [title, category]"))
    code = upgrade_code(project(), after)
    assert ".values(" not in code  # the data check refuses while NULLs remain
    # The foreign key's ON DELETE is the delete rule, not the nullability: it stays.
    assert "foreign_key" not in code


@pytest.mark.parametrize(
    ("spec", "value"),
    [
        ("{type: integer, minimum: 5}", None),
        ("{type: number}", None),
        ("{type: boolean}", None),
        ("{type: string, enum: [b, a]}", None),
        ("{type: string}", None),
        ("{type: string, default: ''}", '""'),
        ("{type: integer, default: 7}", "7"),
        ("{type: string, format: date, default: '2024-01-31'}", None),
    ],
)
def test_only_a_declared_default_fills_empty_rows(spec: str, value: str) -> None:
    after = project(
        BASE.replace(PAGES, f"      x: {spec}\n").replace("[title]", "[title, x]")
    )
    field = after.resource("Product").field("x")
    if value is None and field.has_default:
        assert db_columns.fill_value(field) is not None  # the date's own literal
    else:
        assert db_columns.fill_value(field) == value


def test_migration_file_is_black_clean_python() -> None:
    after = edited(
        (
            PAGES,
            "      page_count: {type: string, renamed_from: pages}\n"
            "      since: {type: string, format: date, default: '2024-01-31'}\n",
        ),
        ("required: [title]", "required: [title, since]"),
    )
    plan = fm.migration_plan(
        diff_schema(project(), after),
        revision="0003",
        down_revision="0002",
        header=["# Generated by panelforge from shop.yaml."],
    )
    assert plan is not None
    assert plan.path == "migrations/versions/0003_update_products.py"
    text = render_plans([plan])[plan.path]
    ast.parse(text)
    mode = black.Mode(target_versions={black.TargetVersion.PY311})
    assert black.format_str(text, mode=mode) == text
    assert 'revision: str = "0003"' in text
    assert 'down_revision: str | None = "0002"' in text
    assert "import datetime\n" in text


# --- naming the next migration --------------------------------------------------------


def test_next_revision_follows_the_highest_number() -> None:
    assert next_revision([]) == "0001"
    assert (
        next_revision(["0000_panel_users.py", "0001_initial.py", "notes.txt"]) == "0002"
    )
    assert next_revision(["0009_x.py", "0010_y.py"]) == "0011"


def test_next_migration_ids_follow_the_single_head() -> None:
    files = {
        "v/0000_users.py": 'revision: str = "0000"\ndown_revision: str | None = None\n',
        "v/0001_initial.py": 'revision = "0001"\ndown_revision = "0000"\n',
        "v/0002_mine.py": 'revision = "abc123"\ndown_revision = "0001"\n',
    }
    assert fm.next_migration_ids(files) == ("0003", "abc123")
    files["v/0003_other.py"] = 'revision = "zz"\ndown_revision = "0001"\n'
    with pytest.raises(OutputError, match="2 heads"):
        fm.next_migration_ids(files)


@pytest.mark.parametrize(
    ("steps", "expected"),
    [
        ([Step("add", "books", "isbn")], "add_books_isbn"),
        ([Step("create", "tags")], "create_tags"),
        ([Step("add", "books", "a"), Step("drop", "books", "b")], "update_books"),
        ([Step("add", "books", "a"), Step("drop", "tags")], "update_schema"),
        ([Step("alter", "a" * 60, "b")], "alter_" + "a" * 34),
    ],
)
def test_slug(steps: list[Step], expected: str) -> None:
    assert slug(steps) == expected


def test_a_dropped_relation_loses_its_foreign_key_before_its_index() -> None:
    # MySQL refuses to drop an index a foreign key still needs.
    after = edited(("      category: {type: integer, relation: Category}\n", ""))
    flat = "".join(upgrade_code(project(), after).split())
    foreign_key = 'batch_op.drop_constraint(op.f("fk_products_category_categories")'
    index = 'batch_op.drop_index(op.f("ix_products_category"))'
    assert foreign_key in flat and index in flat
    assert flat.index(foreign_key) < flat.index(index)
    assert flat.count('drop_index(op.f("ix_products_category")') == 1  # only there
