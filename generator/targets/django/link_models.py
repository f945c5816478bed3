"""Many-to-many link tables as Django models: a model per link table whose primary
key is the pair (``models.CompositePrimaryKey``), its two foreign keys CASCADE
(deleting either record deletes its links), for ``app/models.py`` and migrations."""

from __future__ import annotations

from typing import Any

from ...model import ir, naming
from ...model.links import LinkTable, link_tables
from ..pysource import literal


def link_model_name(table: LinkTable) -> str:
    """``PlaylistTracksLink``: the model of ``tracks`` of ``Playlist``."""
    return f"{table.owner.model_name}{naming.pascal(table.link.name)}Link"


def _attribute(field: ir.Field) -> str:
    """The model field of a link column: ``playlist`` for ``playlist_id``."""
    name = field.name.removesuffix("_id")
    return name if name and name != field.name else field.name


def _field_calls(
    table: LinkTable, project: ir.Project, *, migration: bool
) -> list[tuple[str, str]]:
    """Each column's ``models.ForeignKey(...)``: CASCADE, no reverse accessor; the
    key's own index serves the first column, the second has its own."""
    found = []
    for field in table.fields:
        target = project.resource(field.relation or "")
        if migration:
            to = literal(f"app.{target.model_name.lower()}")
            args = ["on_delete=models.CASCADE", f"to={to}"]
        else:
            args = [literal(target.model_name), "models.CASCADE"]
        args += [f"db_column={literal(field.name)}", "related_name='+'"]
        if field is table.owner_field:
            args.append("db_index=False")
        found.append((_attribute(field), f"models.ForeignKey({', '.join(args)})"))
    return found


def _related(table: LinkTable) -> str:
    return ", ".join(literal(_attribute(f)) for f in table.fields)


def model_entries(project: ir.Project) -> list[dict[str, Any]]:
    """``app/models.py`` entries of the link models (as resources' models are)."""
    entries = []
    for table in link_tables(project):
        fields = [f"pk = models.CompositePrimaryKey({_related(table)})"]
        fields += [
            f"{name} = {call}"
            for name, call in _field_calls(table, project, migration=False)
        ]
        entries.append(
            {
                "name": link_model_name(table),
                "table_name": table.name,
                "table": literal(table.name),
                "fields": fields,
                "str_expression": 'f"{self.pk}"',
                "constraints": "",
            }
        )
    return entries


def create_link_model(table: LinkTable, project: ir.Project) -> dict[str, Any]:
    """The ``CreateModel`` of a link table, shaped as ``create_model``'s."""
    pk = (
        f"models.CompositePrimaryKey({_related(table)}, blank=True, editable=False, "
        "primary_key=True, serialize=False)"
    )
    fields = [f'("pk", {pk}),']
    fields += [
        f"({literal(name)}, {call}),"
        for name, call in _field_calls(table, project, migration=True)
    ]
    return {
        "name": literal(link_model_name(table)),
        "fields": fields,
        "table": literal(table.name),
        "constraints": "",
        "adopted": False,  # a link table is the panel's own
    }
