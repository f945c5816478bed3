"""What changed in the tables between two manifests, and what the next migration is.

Pure and framework-neutral: resources are matched by name, fields by name or by
``renamed_from``. Whether a matched column changed in storage (type, nullability,
index, foreign key) is the target's call; it renders the operations from this diff.
The downgrade is the same diff :meth:`SchemaDiff.reversed`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from ..errors import OutputError
from ..model import ir, naming
from ..model.links import LinkTable, link_changes
from ..model.samples import creation_order

_SLUG_LENGTH = 40

FieldPair = tuple[ir.Field, ir.Field]  # (before, after)
Group = tuple[str, tuple[str, ...]]  # a unique group's constraint name and fields


@dataclass(frozen=True)
class TableChange:
    """One table both manifests declare, and what happened to its fields."""

    before: ir.Resource
    after: ir.Resource
    added: tuple[ir.Field, ...]
    dropped: tuple[ir.Field, ...]
    kept: tuple[FieldPair, ...]  # includes renamed fields: their names differ

    @property
    def renamed(self) -> tuple[FieldPair, ...]:
        """The kept fields whose column's name changed (a field renamed, or its
        ``column:``)."""
        return tuple((b, a) for b, a in self.kept if b.column_name != a.column_name)

    def unique_groups(self) -> tuple[list[Group], list[Group]]:
        """The unique constraints the change drops and creates, by name and fields:
        one whose table or fields are renamed is dropped and made again."""
        old = {
            naming.unique_name(self.before.table, g): g
            for g in self.before.unique_together
        }
        new = {
            naming.unique_name(self.after.table, g): g
            for g in self.after.unique_together
        }
        dropped = [(n, g) for n, g in old.items() if new.get(n) != g]
        created = [(n, g) for n, g in new.items() if old.get(n) != g]
        return dropped, created

    def reversed(self) -> TableChange:
        """The change that undoes this one."""
        return TableChange(
            before=self.after,
            after=self.before,
            added=self.dropped,
            dropped=self.added,
            kept=tuple((a, b) for b, a in self.kept),
        )


@dataclass(frozen=True)
class SchemaDiff:
    """Tables created, dropped and changed from ``before`` to ``after``."""

    before: ir.Project
    after: ir.Project
    created: tuple[ir.Resource, ...]  # relation targets first
    dropped: tuple[ir.Resource, ...]  # relation users first
    changed: tuple[TableChange, ...]  # every table both declare, in ``after``'s order
    # many-to-many link tables made and dropped (created after every table, dropped
    # before any: they refer to both sides)
    links_created: tuple[LinkTable, ...] = ()
    links_dropped: tuple[LinkTable, ...] = ()

    def reversed(self) -> SchemaDiff:
        """The diff that undoes this one (a downgrade)."""
        created = {r.name for r in self.created}
        dropped = {r.name for r in self.dropped}
        by_name = {c.before.name: c.reversed() for c in self.changed}  # old names
        return SchemaDiff(
            before=self.after,
            after=self.before,
            created=tuple(r for r in creation_order(self.before) if r.name in dropped),
            dropped=tuple(
                r for r in reversed(creation_order(self.after)) if r.name in created
            ),
            changed=tuple(
                by_name[r.name]
                for r in creation_order(self.before)
                if r.name in by_name
            ),
            links_created=self.links_dropped,
            links_dropped=self.links_created,
        )


@dataclass(frozen=True)
class Step:
    """One change in words: ``add books.isbn``, ``create table tags``."""

    verb: str  # create, drop, add, rename, alter, move (enum values)
    table: str
    column: str | None = None
    new_name: str | None = None

    def __str__(self) -> str:
        if self.column is None:
            text = f"{self.verb} table {self.table}"
            return f"{text} to {self.new_name}" if self.new_name else text
        text = f"{self.verb} {self.table}.{self.column}"
        return f"{text} to {self.new_name}" if self.new_name else text


def diff_schema(before: ir.Project, after: ir.Project) -> SchemaDiff:
    """How the tables of ``after`` differ from those of ``before``.

    A resource continues the one of its name, else the one it was ``renamed_from``
    (its table is renamed when the names differ). Raises :class:`OutputError` for a
    change a migration cannot make while keeping the data: another key.
    """
    old = {r.name: r for r in before.resources}
    sources = {r.name: s for r in after.resources if (s := _source(r, old))}
    _check_supported(old, after, sources)
    continued = set(sources.values())
    links_created, links_dropped = link_changes(before, after)
    return SchemaDiff(
        before=before,
        after=after,
        created=tuple(r for r in creation_order(after) if r.name not in sources),
        dropped=tuple(
            r for r in reversed(creation_order(before)) if r.name not in continued
        ),
        changed=tuple(
            _table_change(old[sources[r.name]], r)
            for r in creation_order(after)
            if r.name in sources
        ),
        links_created=links_created,
        links_dropped=links_dropped,
    )


def _source(resource: ir.Resource, old: dict[str, ir.Resource]) -> str | None:
    """The recorded resource ``resource`` continues: its name, or its old name."""
    if resource.name in old:
        return resource.name
    if resource.renamed_from is not None and resource.renamed_from in old:
        return resource.renamed_from
    return None


def _table_change(before: ir.Resource, after: ir.Resource) -> TableChange:
    old = {f.name: f for f in before.stored_fields}
    kept: list[FieldPair] = []
    added: list[ir.Field] = []
    for field in after.stored_fields:
        source = _source_name(field, old)
        if source is None:
            added.append(field)
        else:
            kept.append((old[source], field))
    claimed = {b.name for b, _ in kept}
    dropped = tuple(f for f in before.stored_fields if f.name not in claimed)
    return TableChange(before, after, tuple(added), dropped, tuple(kept))


def _source_name(field: ir.Field, old: dict[str, ir.Field]) -> str | None:
    """The old field ``field`` continues: its name, else the one it was renamed from."""
    if field.name in old:
        return field.name
    if field.renamed_from is not None and field.renamed_from in old:
        return field.renamed_from
    return None


def _check_supported(
    old: dict[str, ir.Resource], after: ir.Project, sources: dict[str, str]
) -> None:
    problems = []
    for resource in after.resources:
        if resource.name not in sources:
            continue
        previous = old[sources[resource.name]]
        if _key_signature(previous) != _key_signature(resource):
            problems.append(
                f"resources.{resource.name}: the key changed "
                f"('{_key_names(previous)}' → '{_key_names(resource)}')"
            )

    if problems:
        raise OutputError(
            "the manifest changes what a migration cannot change with the data kept:\n"
            + "\n".join(f"  {p}" for p in problems)
            + "\n  hint: keep the old key, or regenerate with --force and write "
            "that migration by hand"
        )


def _key_fields(resource: ir.Resource) -> list[ir.Field]:
    """The key field, or a composite key's parts (in the key's order)."""
    return [f for f in resource.fields if f.is_key or f.key_part]


def _key_signature(resource: ir.Resource) -> list[tuple[str, str, str | None]]:
    return [(f.name, f.type, f.format) for f in _key_fields(resource)]


def _key_names(resource: ir.Resource) -> str:
    return ", ".join(f.name for f in _key_fields(resource))


# --- the next migration's identity -------------------------------------------------


def next_revision(existing: Iterable[str]) -> str:
    """``"0003"`` after files ``0001_initial.py`` and ``0002_x.py``."""
    numbers = [int(m.group()) for name in existing if (m := re.match(r"\d+", name))]
    return f"{max(numbers, default=0) + 1:04d}"


def structural_steps(diff: SchemaDiff) -> list[Step]:
    """Tables created and dropped, columns added, renamed and dropped, in that order."""
    steps = [Step("drop", t.name) for t in diff.links_dropped]
    steps += [Step("create", r.table) for r in diff.created]
    for change in diff.changed:
        table = change.after.table
        if change.before.table != table:
            steps.append(Step("rename", change.before.table, None, table))
        steps += [Step("add", table, f.column_name) for f in change.added]
        steps += [
            Step("rename", table, b.column_name, a.column_name)
            for b, a in change.renamed
        ]
        steps += [Step("drop", table, f.column_name) for f in change.dropped]
    steps += [Step("drop", r.table) for r in diff.dropped]
    steps += [Step("create", t.name) for t in diff.links_created]
    return steps


def slug(steps: list[Step]) -> str:
    """A file-name slug: the one change, else the one table, else ``update_schema``."""
    if len(steps) == 1:
        step = steps[0]
        text = f"{step.verb} {step.table} {step.column or ''}"
    elif len({s.table for s in steps}) == 1:
        text = f"update {steps[0].table}"
    else:
        text = "update schema"
    words = re.sub(r"[^a-z0-9]+", "_", text.lower()).strip("_")
    return words[:_SLUG_LENGTH].rstrip("_")
