"""Many-to-many link tables for SQLAlchemy: the ``sa.Table`` beside the owner's
model, and the migration lines that create and drop it."""

from __future__ import annotations

from ...model import ir
from ...model.links import LinkTable, link_tables
from ..pysource import literal
from .storage import migration_type, on_delete


def _reference(field: ir.Field, project: ir.Project) -> tuple[str, str]:
    target = project.resource(field.relation or "")
    return target.table, target.key_column


def model_link_lines(resource: ir.Resource, project: ir.Project) -> list[str]:
    """``<field>_links = sa.Table(...)`` for each many-to-many field of ``resource``:
    the key is the pair; deleting either record deletes its links."""
    lines = []
    for table in link_tables(project):
        if table.owner.name != resource.name:
            continue
        columns = []
        for field in table.fields:
            target, key = _reference(field, project)
            foreign = f"sa.ForeignKey({literal(f'{target}.{key}')}, ondelete="
            foreign += f"{literal(on_delete(field))})"
            extra = ", index=True" if field is table.target_field else ""
            columns.append(
                f"sa.Column({literal(field.name)}, {migration_type(field, project)}, "
                f"{foreign}, primary_key=True{extra}),"
            )
        body = "".join(f"\n    {column}" for column in columns)
        lines.append(
            f"{table.link.name}_links = sa.Table(\n    {literal(table.name)},\n"
            f"    Base.metadata,{body}\n)"
        )
    return lines


def create_link_lines(table: LinkTable, project: ir.Project) -> list[str]:
    """``op.create_table`` of a link table, and the index of its second column."""
    name = table.name
    elements = [
        f"sa.Column({literal(f.name)}, {migration_type(f, project)}, nullable=False),"
        for f in table.fields
    ]
    pair = ", ".join(literal(f.name) for f in table.fields)
    elements.append(
        f"sa.PrimaryKeyConstraint({pair}, name=op.f({literal('pk_' + name)})),"
    )
    for field in table.fields:
        target, key = _reference(field, project)
        constraint = literal(f"fk_{name}_{field.name}_{target}")
        elements.append(
            f"sa.ForeignKeyConstraint([{literal(field.name)}], "
            f"[{literal(f'{target}.{key}')}], name=op.f({constraint}), "
            f"ondelete={literal(on_delete(field))}),"
        )
    body = "".join(f"\n        {e}" for e in elements)
    column = table.target_field.name
    index = literal(f"ix_{name}_{column}")
    return [
        f"op.create_table(\n        {literal(name)},{body}\n    )",
        f"op.create_index(op.f({index}), {literal(name)}, [{literal(column)}])",
    ]


def drop_link_lines(table: LinkTable) -> list[str]:
    """``op.drop_table`` of a link table (its index and keys go with it)."""
    return [f"op.drop_table({literal(table.name)})"]
