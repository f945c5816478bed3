"""The Alembic file of a :class:`~generator.regen.migrations.SchemaDiff`, and its place.

Tables are created first (relation targets first), then changed one by one
(:mod:`.alter`), then dropped; the downgrade is the reversed diff. The new
revision follows the single head of the project's migrations, hand-written ones
included.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping, Sequence
from pathlib import PurePosixPath
from typing import Any

from ...errors import OutputError
from ...model import ir
from ...regen.change_plan import migration_checks
from ...regen.migrations import SchemaDiff, Step, next_revision, slug, structural_steps
from ...render.plan import FilePlan
from ..columns import later_relations
from ..common import check_lines
from ..pysource import literal
from .alter import altered_columns, batch, table_change_lines
from .constraints import create_foreign_key, drop_foreign_key
from .db_columns import column
from .link_tables import create_link_lines, drop_link_lines
from .storage import table_context

TEMPLATE = "fastapi/migration_step.py.jinja"


def _create_table_lines(
    resource: ir.Resource, project: ir.Project, later: tuple[ir.Field, ...]
) -> list[str]:
    table = table_context(resource, project, later)
    elements = "".join(f"\n        {e}" for e in table["elements"])
    return [f"op.create_table(\n        {table['name']},{elements}\n    )"] + list(
        table["indexes"]
    )


def later_key_lines(
    created: Sequence[ir.Resource], project: ir.Project, *, drop: bool = False
) -> list[str]:
    """The foreign keys of relations that close a cycle among ``created`` (in their
    creation order): added once every table exists, or (``drop``) dropped first."""
    lines = []
    later = later_relations(created)
    for resource in created:
        fields = later.get(resource.name, ())
        keys = [
            (drop_foreign_key if drop else create_foreign_key)(
                resource.table, column(f, project)
            )
            for f in fields
        ]
        lines += batch(resource, keys)
    return lines


def operation_lines(diff: SchemaDiff) -> list[str]:
    """Every statement of ``upgrade()`` for ``diff`` (``[]``: nothing to migrate)."""
    lines: list[str] = []
    for table in diff.links_dropped:
        lines += drop_link_lines(table)
    # An adopted table exists already: never created, and never dropped either.
    created = [r for r in diff.created if not r.adopted]
    dropped = [r for r in diff.dropped if not r.adopted]
    later = later_relations(created)
    for resource in created:
        lines += _create_table_lines(resource, diff.after, later.get(resource.name, ()))
    lines += later_key_lines(created, diff.after)
    for change in diff.changed:
        lines += table_change_lines(change, diff)
    lines += later_key_lines(dropped[::-1], diff.before, drop=True)
    lines += [f"op.drop_table({literal(r.table)})" for r in dropped]
    for table in diff.links_created:
        lines += create_link_lines(table, diff.after)
    return lines


def steps(diff: SchemaDiff) -> list[Step]:
    """What the migration does, in words: structural changes then altered columns."""
    result = structural_steps(diff)
    for change in diff.changed:
        result += [
            Step("alter", change.after.table, name)
            for name in altered_columns(change, diff)
        ]
    return result


def _imports(lines: list[str]) -> dict[str, bool]:
    text = "\n".join(lines)
    return {
        "uses_datetime": "datetime." in text,
        "uses_decimal": "decimal." in text,
        "uses_uuid": "uuid." in text,
        "uses_sa": "sa." in text,
    }


def migration_plan(
    diff: SchemaDiff,
    *,
    revision: str,
    down_revision: str | tuple[str, ...] | None,
    header: list[str],
) -> FilePlan | None:
    """The plan of the migration for ``diff``, or ``None`` when the tables agree.

    A ``down_revision`` of two revisions joins the panel's own new revision to the
    project's chain: that migration is written even when the tables agree.
    """
    upgrade = operation_lines(diff)
    joining = isinstance(down_revision, tuple)
    if not upgrade and not joining:
        return None
    downgrade = operation_lines(diff.reversed())
    checks = check_lines(migration_checks(diff))
    undo_checks = check_lines(migration_checks(diff.reversed()))
    described = steps(diff)
    summary = _summary(described, diff.after)
    if not upgrade:
        summary = "Join the panel's own new migrations to this project's."
    context: dict[str, Any] = {
        "header": header,
        "summary": summary,
        "details": [str(s) for s in described] if len(described) > 1 else [],
        "revision": literal(revision),
        "revision_id": revision,
        "down_revision": literal(down_revision),
        "down_revision_type": "tuple[str, ...]" if joining else "str | None",
        "down_revision_id": (
            ", ".join(down_revision) if joining else down_revision or ""
        ),
        "upgrade": upgrade,
        "downgrade": downgrade,
        "checks": checks,
        "undo_checks": undo_checks,
        **_imports(upgrade + downgrade),
    }
    name = slug(described) if upgrade else "join_panel_migrations"
    path = f"migrations/versions/{revision}_{name}.py"
    return FilePlan(path, TEMPLATE, context, owner="generated")


def _summary(described: list[Step], project: ir.Project) -> str:
    if len(described) == 1:
        text = str(described[0])
        return text[:1].upper() + text[1:] + "."
    return f"Bring the tables of {project.name} in line with the manifest."


# --- where the new migration goes -----------------------------------------------------

# The panel's own revisions (its users, logins, roles) are 0000, 0000a, 0000b…
_PANEL_REVISION = "0000"


# A line that may start a module-level assignment of a revision identifier.
_REVISION_LINE = re.compile(r"^\(*\s*(?:down_)?revision\b.*$", re.MULTILINE)


def _head_statements(text: str) -> list[ast.stmt] | None:
    """The module's statements up to its last revision line (``None``: no Python).

    A revision file is parsed only that far (a big ``0001_initial`` costs ~0.5 s to
    parse whole): a prefix that parses ends where a statement ends, so its statements
    are the file's first ones. A prefix that does not parse falls back to the whole.
    """
    lines = list(_REVISION_LINE.finditer(text))
    prefix = text[: lines[-1].end()] if lines else ""
    for source in (prefix, text) if prefix else (text,):
        try:
            return ast.parse(source).body
        except SyntaxError:
            continue
    return None


def _assigned(body: list[ast.stmt] | None, name: str) -> str | None:
    """The string assigned to ``name`` at module level (``revision: str = "0002"``)."""
    if body is None:
        return None
    for node in body:
        target: ast.expr | None = None
        if isinstance(node, ast.AnnAssign):
            target = node.target
        elif isinstance(node, ast.Assign) and len(node.targets) == 1:
            target = node.targets[0]
        value = getattr(node, "value", None)
        if (
            isinstance(target, ast.Name)
            and target.id == name
            and isinstance(value, ast.Constant)
            and isinstance(value.value, str)
        ):
            return value.value
    return None


def next_migration_ids(
    existing: Mapping[str, str],
) -> tuple[str, str | tuple[str, ...] | None]:
    """The new revision's id and its ``down_revision``: the one head of ``existing``.

    ``existing`` maps migration file paths to their text, hand-written ones included.
    A project made before a panel revision (``0000b``…) existed has that revision as
    a second head: the new revision follows both, joining them.
    """
    revisions: dict[str, str | None] = {}
    for text in existing.values():
        body = _head_statements(text)
        revision = _assigned(body, "revision")
        if revision is not None:
            revisions[revision] = _assigned(body, "down_revision")
    heads = sorted(set(revisions) - set(revisions.values()))
    panel = [head for head in heads if head.startswith(_PANEL_REVISION)]
    if len(heads) == 2 and len(panel) == 1:
        names = [PurePosixPath(p).name for p in existing] + list(revisions)
        project_head = next(head for head in heads if head not in panel)
        return next_revision(names), (project_head, panel[0])
    if len(heads) > 1:
        raise OutputError(
            f"the migrations have {len(heads)} heads ({', '.join(heads)}); "
            "join them with 'alembic merge heads' before regenerating"
        )
    names = [PurePosixPath(p).name for p in existing] + list(revisions)
    return next_revision(names), heads[0] if heads else None
