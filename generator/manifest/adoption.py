"""A resource's ``adopted:`` → how each column of the existing table really is.

``adopted: true`` says the table exists as panelforge would make it; a mapping says
where it differs: 32-bit integers, timestamps without time zone, and its indexes,
UNIQUE constraints and foreign keys by their real names. Indexes over one column go
onto the field (``ir.Stored``), those over several onto the resource.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from ..model import ir


def adopted_fields(
    spec: dict[str, Any], fields: list[ir.Field]
) -> tuple[list[ir.Field], tuple[ir.TableIndex, ...]]:
    """``fields`` with their ``stored`` facts, and the multi-column indexes."""
    facts = spec.get("adopted")
    if not facts:
        return fields, ()
    facts = facts if isinstance(facts, dict) else {}
    int32, naive = set(facts.get("int32", ())), set(facts.get("naive", ()))
    keys = facts.get("foreign_keys", {})
    single: dict[str, tuple[str, bool]] = {}
    unique: dict[str, str] = {}
    table: list[ir.TableIndex] = []
    for kind in ("indexes", "unique_indexes", "unique"):
        for name, members in facts.get(kind, {}).items():
            if len(members) > 1:
                table.append(
                    ir.TableIndex(
                        name, tuple(members), kind != "indexes", kind == "unique"
                    )
                )
            elif kind == "unique":
                unique[members[0]] = name
            else:
                single[members[0]] = (name, kind == "unique_indexes")
    specs = spec["fields"]

    def declared(field: ir.Field) -> dict[str, Any]:
        found = specs.get(field.name)
        return found if isinstance(found, dict) else {}

    built = []
    for field in fields:
        index = single.get(field.name)
        stored = ir.Stored(
            int32=field.name in int32,
            naive=field.name in naive,
            nullable_key=(field.is_key or field.key_part)
            and facts.get("key_nullable", False),
            index=index[0] if index else None,
            unique_index=bool(index and index[1]),
            # a unique field without a named index or constraint has an unnamed one
            unique=unique.get(field.name, "" if field.unique else None),
            foreign_key=keys.get(field.name),
            # a relation without ``on_delete``: the database's own NO ACTION
            no_action=bool(field.relation) and "on_delete" not in declared(field),
        )
        if stored.unique_index:  # the unique index keeps it unique
            stored = replace(stored, unique=None)
        built.append(replace(field, stored=stored))
    return built, tuple(table)
