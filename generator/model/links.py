"""The link tables of many-to-many fields, as both frameworks store them.

``tracks`` on ``Playlist`` is the table ``through`` with two columns, each a
relation to one side's key (ON DELETE CASCADE: deleting either record removes its
links, never the other record); its primary key is the pair, so a pair is stored
once, and the second column has an index of its own (the key's serves the first).
"""

from __future__ import annotations

from dataclasses import dataclass

from . import ir


@dataclass(frozen=True)
class LinkTable:
    """One many-to-many field's link table, its columns as relation fields."""

    owner: ir.Resource
    link: ir.ManyToMany
    owner_field: ir.Field  # holds the owner's key: a relation to the owner
    target_field: ir.Field  # holds the linked record's key

    @property
    def name(self) -> str:
        """The table's name (``through``)."""
        return self.link.through

    @property
    def fields(self) -> tuple[ir.Field, ir.Field]:
        """Both columns, the owner's first (the order of the primary key)."""
        return self.owner_field, self.target_field


def _column(name: str, resource: ir.Resource) -> ir.Field:
    key = resource.key_field
    return ir.Field(
        name=name,
        type=key.type,
        label=name,
        format=key.format,
        max_length=key.max_length,
        required=True,
        relation=resource.name,
        on_delete="cascade",
    )


def link_tables(project: ir.Project) -> tuple[LinkTable, ...]:
    """Every link table of ``project``, in manifest order."""
    found = []
    for resource in project.resources:
        for link in resource.many_to_many:
            target = project.resource(link.target)
            found.append(
                LinkTable(
                    owner=resource,
                    link=link,
                    owner_field=_column(link.owner_column, resource),
                    target_field=_column(link.target_column, target),
                )
            )
    return tuple(found)


def link_changes(
    before: ir.Project, after: ir.Project
) -> tuple[tuple[LinkTable, ...], tuple[LinkTable, ...]]:
    """The link tables ``after`` creates and those it drops, compared with
    ``before`` by table name and columns (any other change: dropped and made again)."""
    old = {t.name: t for t in link_tables(before)}
    new = {t.name: t for t in link_tables(after)}
    created = tuple(t for n, t in new.items() if _shape(old.get(n)) != _shape(t))
    dropped = tuple(t for n, t in old.items() if _shape(new.get(n)) != _shape(t))
    return created, dropped


def _shape(table: LinkTable | None) -> tuple[object, ...] | None:
    if table is None:
        return None
    return tuple(
        (f.name, f.type, f.format, f.max_length, _target_table(table, f))
        for f in table.fields
    )


def _target_table(table: LinkTable, field: ir.Field) -> str:
    return table.owner.name if field is table.owner_field else table.link.target
