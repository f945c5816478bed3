"""A project's whole output, assembled in memory from its target.

target plan → Jinja → black → OpenAPI spec (built, validated) → copier skeleton → the
:class:`~generator.render.output.Output` with every file's owner. On a regeneration the
migrations written before are left out and the migration the schema change needs is
added. Nothing here writes to DEST.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from .model import ir
from .regen.state import State
from .render.format import FormatCache, Formatter
from .render.output import Output, read_tree, render_skeleton_files
from .render.plan import FilePlan
from .run import Caches, Run
from .targets import target_for


@dataclass(frozen=True)
class ProjectFiles:
    """The manifest-dependent files of a project, rendered and formatted (UTF-8)."""

    generated: dict[str, bytes]  # always written
    user: dict[str, bytes]  # extension points: written only where absent


def spec_paths(project: ir.Project) -> tuple[str, str]:
    """Where the YAML and JSON specs go, relative to the project root."""
    yaml_path = PurePosixPath(project.docs.path)
    return str(yaml_path), str(yaml_path.with_suffix(".json"))


def render_files(
    plans: list[FilePlan],
    caches: Caches,
    stable: Collection[str] = (),
    name: str | None = None,
) -> dict[str, str]:
    """Render plans and format the Python among them (black, cached).

    Files of the ``stable`` templates skip black where that gives black's bytes. With
    a ``name`` (a project's), black's cache keeps this run's outputs in one file.
    """
    from .render.jinja import render_plans  # Jinja: not needed by a no-op run

    trusted = {plan.path for plan in plans if plan.template in stable}
    formatter = Formatter(FormatCache(caches.black, name), trusted)
    return formatter.format_all(render_plans(plans, caches.templates))


def build_project_files(
    project: ir.Project, run: Run, skip: Collection[str] = ()
) -> ProjectFiles:
    """Render, format and spec-check every manifest-dependent file, in memory.

    Files named in ``skip`` are left out (a regeneration never rewrites a migration
    it wrote before, so it need not render one).
    """
    from .spec.openapi import build_spec, dump_spec
    from .spec.validate import validate_spec

    target = target_for(project.framework)
    caches = run.caches
    plans = [p for p in target.plan_files(project) if p.path not in skip]
    run.progress(f"rendering {len(plans)} files for {len(project.resources)} resources")
    yaml_path, json_path = spec_paths(project)
    name = f"{project.framework}\0{project.name}\0{yaml_path}"
    formatted = render_files(plans, caches, target.black_stable_templates, name)
    owners = {plan.path: plan.owner for plan in plans}
    files = ProjectFiles(generated={}, user={})
    for path in list(formatted):  # each text let go once encoded
        kept = files.user if owners.get(path) == "user" else files.generated
        kept[path] = formatted.pop(path).encode("utf-8")
    run.progress("building and validating the OpenAPI spec")
    doc = build_spec(project)
    validate_spec(doc, source=project.docs.path, cache_dir=caches.spec)
    yaml_data, json_data = dump_spec(doc, caches.spec_text, name)
    files.generated[yaml_path] = yaml_data
    files.generated[json_path] = json_data
    return files


def render_output(project: ir.Project, run: Run, skip: Collection[str] = ()) -> Output:
    """Everything ``project`` generates, in memory: its files and the skeleton."""
    target = target_for(project.framework)
    files = build_project_files(project, run, skip)
    run.progress("rendering the project skeleton with copier")
    output = Output()
    skeleton = render_skeleton_files(target, project, run.caches.skeleton)
    for path, data in skeleton.items():
        output.add(path, data, target.owner_of(path, None))
    for path, data in files.generated.items():
        output.add(path, data, target.owner_of(path, "generated"))
    for path, data in files.user.items():
        output.add(path, data, "user")
    return output


def add_schema_migration(
    output: Output, state: State, project: ir.Project, dest: Path, caches: Caches
) -> str | None:
    """Add the migration from the recorded tables to ``project``'s; return its path.

    It follows the head of the migrations in DEST (hand-written ones included) and
    of the history files this run adds.
    """
    target = target_for(project.framework)
    existing = {
        p: d.decode("utf-8", "replace")
        for p, d in output.owned("history").items()
        if p not in state.migrations
    }
    folder = dest / target.history_dir
    if folder.is_dir():
        existing.update(
            {
                f"{target.history_dir}{p}": d.decode("utf-8", "replace")
                for p, d in read_tree(folder).items()
                if p.endswith(".py") and "/" not in p
            }
        )
    plan = target.schema_migration(state.project, project, existing)
    if plan is None:
        return None
    text = render_files([plan], caches, target.black_stable_templates)[plan.path]
    output.add(plan.path, text.encode("utf-8"), "history")
    return plan.path


def regenerated_output(
    project: ir.Project, state: State, dest: Path, run: Run
) -> Output:
    """What regenerating DEST gives: the output, less old migrations, plus a new one."""
    # A migration written before stays as it is whatever it would be now: not rendered.
    written = {path for path in state.migrations if (dest / path).is_file()}
    output = render_output(project, run, skip=written)
    run.progress("comparing the tables with the recorded ones")
    add_schema_migration(output, state, project, dest, run.caches)
    return output
