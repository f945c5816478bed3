"""Relations from foreign keys, and cycles of required relations (pure).

A one-column foreign key to a resource's one-field key becomes a relation field
(with its delete rule), a part of a composite key included; any other is noted and
its columns stay plain fields. One relation of each cycle of required relations is
made optional (M035 refuses such cycles).
"""

from __future__ import annotations

from typing import Any

from .catalog import Column, ForeignKey, Table
from .drafts import Draft, Key

# An explicit RESTRICT is said too: an adopted table's foreign key keeps its rule
# (``on_delete`` left out: the database's default, NO ACTION).
_ON_DELETE = {"CASCADE": "cascade", "SET NULL": "set_null", "RESTRICT": "restrict"}
_KEEPS_RESTRICT = {None, "RESTRICT", "NO ACTION"}


def relations_of(
    table: Table, keys: dict[str, Key], notes: list[str]
) -> dict[str, tuple[ForeignKey, Key]]:
    """The foreign keys that become relations, by column; notes on the others."""
    found = {}
    for fk in table.foreign_keys:
        target = keys.get(fk.target)
        columns = ", ".join(fk.columns)
        if len(fk.columns) > 1:
            notes.append(
                f"{table.name}: the foreign key ({columns}) → {fk.target} has several "
                "columns; its columns are plain fields"
            )
        elif target is None:
            notes.append(
                f"{table.name}.{columns}: refers to {fk.target}, which is not a "
                "resource here; kept as a plain field"
            )
        elif target.parts:
            notes.append(
                f"{table.name}.{columns}: refers to {fk.target}, whose key is "
                "composite (a relation holds a key of one field); kept as a plain field"
            )
        elif fk.target_columns != (target.column,):
            notes.append(
                f"{table.name}.{columns}: refers to "
                f"{fk.target}.{fk.target_columns[0]}, which is not its key; "
                "kept as a plain field"
            )
        elif (fk.columns[0],) == table.primary_key:
            notes.append(
                f"{table.name}.{columns}: the key also refers to {fk.target}; "
                "the relation is not expressed (a key cannot be a relation)"
            )
        else:
            found[fk.columns[0]] = (fk, target)
    return found


def relation_options(
    options: dict[str, Any],
    fk: ForeignKey,
    target: Key,
    column: Column,
    where: str,
    notes: list[str],
) -> dict[str, Any]:
    """A relation field on ``target``'s key, with the foreign key's delete rule."""
    found = {k: v for k, v in target.options.items() if k != "maxLength"}
    if "maxLength" in options and found["type"] == "string":
        found["maxLength"] = options["maxLength"]
    found["relation"] = target.resource
    rule = (fk.on_delete or "").upper() or None
    if rule in _ON_DELETE and (rule != "SET NULL" or column.nullable):
        found["on_delete"] = _ON_DELETE[rule]
    elif rule not in _KEEPS_RESTRICT:
        notes.append(f"{where}: ON DELETE {rule} is not expressed; the panel restricts")
    return found


def break_required_cycles(resources: list[Draft], notes: list[str]) -> None:
    """Make one relation optional on each cycle of required relations.

    No record of such a cycle could be created through the panel (M035): the
    database's NOT NULL stays, the manifest says so.
    """
    while True:
        edges = {
            r.name: sorted(
                (r.fields[f]["relation"], f, r)
                for f in r.required
                if "relation" in r.fields[f]
            )
            for r in resources
        }
        cycle = _find_cycle(edges)
        if cycle is None:
            return
        _target, name, resource = cycle
        resource.required.remove(name)
        notes.append(
            f"{resource.table.name}.{resource.fields[name].get('column', name)}: "
            "NOT NULL, but on a cycle of required relations; made optional here "
            "(the database still refuses an empty value)"
        )


def _find_cycle(edges: dict[str, list[tuple[str, str, Draft]]]) -> Any:
    """The first edge of the first cycle found (depth first, in name order)."""
    done: set[str] = set()

    def visit(node: str, path: list[tuple[str, str, Draft]]) -> Any:
        for edge in edges.get(node, ()):
            on_path = [e[2].name for e in path] + [node]
            if edge[0] in on_path:
                return [*path, edge][on_path.index(edge[0])]
            if edge[0] not in done:
                found = visit(edge[0], [*path, edge])
                if found is not None:
                    return found
        done.add(node)
        return None

    for start in sorted(edges):
        found = visit(start, [])
        if found is not None:
            return found
    return None
