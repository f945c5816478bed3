"""Adopted tables (``adopted:``): the model, the state, both targets' models and
migrations, and the later migrations that use the real names."""

from __future__ import annotations

from dataclasses import replace

from generator.manifest.load import parse_manifest
from generator.model import ir, irdata
from generator.regen.migrations import diff_schema
from generator.targets.django import migrations as django_migrations
from generator.targets.django import storage as django_storage
from generator.targets.fastapi import migrations as fastapi_migrations
from generator.targets.fastapi import storage as fastapi_storage
from generator.targets.fastapi.adopted import adopted_table_args

SHOP = """
project: {name: shop_admin}
resources:
  Customer:
    table: customer
    fields:
      email: {type: string, maxLength: 120, unique: true}
      city: {type: string, maxLength: 60, nullable: true}
      seen: {type: string, format: date-time, nullable: true}
    required: [email]
    adopted:
      int32: [id]
      naive: [seen]
      indexes: {customer_city_idx: [city], customer_seen_city: [seen, city]}
      unique: {customer_email_key: [email]}
  Invoice:
    table: invoice
    fields:
      customer_id: {type: integer, relation: Customer}
      handled_by: {type: integer, relation: Customer, nullable: true,
                   on_delete: set_null}
    required: [customer_id]
    adopted:
      int32: [id, customer_id, handled_by]
      foreign_keys: {customer_id: invoice_customer_id_fkey}
  Note:
    fields:
      text: {type: string}
"""


def shop(text: str = SHOP) -> ir.Project:
    return parse_manifest(text, "shop.yaml")


def test_adopted_facts_go_onto_the_fields_and_the_resource() -> None:
    customer = shop().resource("Customer")
    assert customer.adopted and not shop().resource("Note").adopted
    assert customer.field("id").stored == ir.Stored(int32=True)
    assert customer.field("city").stored == ir.Stored(index="customer_city_idx")
    assert customer.field("email").stored == ir.Stored(unique="customer_email_key")
    assert customer.field("seen").stored == ir.Stored(naive=True)
    assert customer.table_indexes == (
        ir.TableIndex("customer_seen_city", ("seen", "city")),
    )
    invoice = shop().resource("Invoice")
    assert invoice.field("customer_id").stored == ir.Stored(
        int32=True, foreign_key="invoice_customer_id_fkey", no_action=True
    )
    assert not invoice.field("handled_by").stored.no_action  # said: SET NULL
    assert shop().resource("Note").field("text").stored is None


def test_the_state_records_adoption_and_reads_it_back() -> None:
    project = shop()
    data = irdata.project_to_data(project)
    assert irdata.project_from_data(data) == project
    note = next(r for r in data["resources"] if r["name"] == "Note")
    assert "adopted" not in note and "stored" not in note["fields"][1]


def test_the_fastapi_model_declares_the_table_as_it_is() -> None:
    project = shop()
    customer = project.resource("Customer")
    lines = fastapi_storage.column_lines(customer, project)
    assert "sa.Integer, primary_key=True" in lines[0]
    assert "index=True" not in "".join(lines) and "unique=True" not in "".join(lines)
    assert "sa.TIMESTAMP" in lines[3]
    assert adopted_table_args(customer) == [
        'sa.UniqueConstraint("email", name="customer_email_key"),',
        'sa.Index("customer_city_idx", "city"),',
        'sa.Index("customer_seen_city", "seen", "city"),',
    ]
    invoice = fastapi_storage.column_lines(project.resource("Invoice"), project)
    assert 'name="invoice_customer_id_fkey"' in invoice[1]
    assert "ondelete" not in invoice[1]  # NO ACTION, as the database has it
    assert 'ondelete="SET NULL"' in invoice[2]


def test_the_first_migrations_create_only_tables_that_are_not_adopted() -> None:
    project = shop()
    empty = replace(project, resources=())
    lines = fastapi_migrations.operation_lines(diff_schema(empty, project))
    created = [line for line in lines if "create_table" in line]
    assert len(created) == 1 and '"notes"' in created[0]
    assert fastapi_migrations.operation_lines(diff_schema(project, empty)) == [
        'op.drop_table("notes")'
    ]
    plan = django_migrations.migration_plan(
        diff_schema(empty, project), name_number="0001", dependency=None, header=[]
    )
    assert plan is not None
    adopted = [m["adopted"] for m in plan.context["created"]]
    assert adopted == [True, True, False]  # Customer, Invoice, Note
    key = django_storage.field_call(
        project.resource("Customer").field("id"),
        project.resource("Customer"),
        project,
        migration=False,
    )
    assert key == "models.AutoField(primary_key=True)"


def test_a_dropped_field_of_an_adopted_table_drops_its_real_index() -> None:
    before = shop()
    after = shop(
        SHOP.replace("      city: {type: string, maxLength: 60, nullable: true}\n", "")
        .replace("customer_city_idx: [city], ", "")
        .replace("customer_seen_city: [seen, city]", "customer_seen: [seen]")
    )
    text = "\n".join(fastapi_migrations.operation_lines(diff_schema(before, after)))
    assert 'op.drop_index(op.f("customer_city_idx"), table_name="customer")' in text
    assert "ix_customer_city" not in text
