"""The commands: generate, check, validate, spec, inspect, and copier's completion.

Each is a thin function over one :class:`~generator.run.Run`: load the manifest
(:mod:`generator.manifest`), assemble the output in memory (:mod:`generator.assemble`),
then write it (:mod:`generator.render.writer`) or compare it with DEST
(:mod:`generator.regen`). A first run stages the project beside DEST and swaps it in;
on a project panelforge generated before (it has ``.panelforge/state.json``) the run
updates it in place, merging the user's edits and adding a migration for schema
changes. A run that writes holds DEST's lock, and first finishes or removes what an
interrupted run left (:mod:`generator.regen.recovery`); ``check`` reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from .errors import OutputError
from .model import ir
from .regen.changes import FileChange, Update, bookkeeping, next_state
from .regen.drift import CheckReport
from .regen.identity import pin_identity
from .regen.recovery import recover, refuse_unfinished
from .regen.stamps import remember_run, run_options, up_to_date
from .regen.state import (
    MANIFEST_COPY,
    STATE_FILE,
    generator_version,
    has_state,
    read_state,
)
from .regen.workflow import install_changed, workflow_notes
from .render import writer
from .run import Progress, Run, quiet

# The manifest loader (jsonschema), the targets and the renderers are imported where
# they are used: a rerun with nothing to do stops before it needs any of them.


def _start_run(**options: Any) -> Run:
    """``Run.start(**options)``; the panel kernel's compiled modules are kept in the
    run's cache (none: compiled on every run)."""
    from .spec.kernel_bytecode import keep_kernel_bytecode

    run = Run.start(**options)
    keep_kernel_bytecode(run.caches.kernel)
    return run


def _load(manifest: Path, dest: Path, run: Run) -> tuple[ir.Project, bytes]:
    """The project and the manifest's bytes; DEST's own copy keeps its recorded name."""
    from .manifest.load import load_manifest
    from .targets import target_for

    display_name = None
    copy = dest / MANIFEST_COPY
    if copy.is_file() and manifest.resolve() == copy.resolve():
        display_name = read_state(dest).manifest_name
    project = load_manifest(
        manifest, display_name=display_name, cache_dir=run.caches.manifest
    )
    if run.framework is not None:
        project = project.replace_framework(run.framework)
    target_for(project.framework)
    return project, manifest.read_bytes()


def generate(
    manifest: Path,
    dest: Path,
    *,
    framework: ir.Framework | None = None,
    force: bool = False,
    use_cache: bool = True,
    dry_run: bool = False,
    allow_drop: tuple[str, ...] = (),
    progress: Progress = quiet,
) -> Update:
    """Generate ``manifest``'s project into ``dest``, or update the one there.

    An existing panelforge project is updated in place (edits merged, a migration
    added; destructive schema changes only when ``allow_drop`` names them); another
    non-empty ``dest`` is refused unless ``force`` replaces it. ``dry_run`` computes
    the same changes and writes nothing.
    """
    run = _start_run(
        use_cache=use_cache,
        progress=progress,
        force=force,
        dry_run=dry_run,
        framework=framework,
        allow_drop=allow_drop,
    )
    run.progress(f"loading {manifest}")
    options = run_options(manifest, dest, framework)
    if dry_run:
        refuse_unfinished(dest)
        return _generate(manifest, dest, run, options)
    with writer.locked(dest):
        notes = recover(dest)
        update = _generate(manifest, dest, run, options)
    if notes:
        update = replace(update, warnings=(*notes, *update.warnings))
    return update


def _generate(manifest: Path, dest: Path, run: Run, options: str) -> Update:
    if not run.force and has_state(dest):
        return _update(manifest, dest, run, options)
    return _create(manifest, dest, run, options)


def _update(manifest: Path, dest: Path, run: Run, options: str) -> Update:
    """Update the project panelforge made in ``dest`` (a no-op rerun stops early)."""
    done = up_to_date(manifest, dest, options, run.caches.runs, dry_run=run.dry_run)
    if done is not None:
        return done
    from .assemble import regenerated_output
    from .regen.inplace import refuse_framework_switch, update_in_place
    from .regen.row_counts import change_plan

    project, source = _load(manifest, dest, run)
    state = read_state(dest)
    refuse_framework_switch(state, project, dest)
    project, warnings = pin_identity(project, state)
    plan = change_plan(state, project, dest, run)
    output = regenerated_output(project, state, dest, run)
    update = update_in_place(project, source, dest, state, output, run)
    warnings += install_changed(state)
    update = replace(update, plan=plan, warnings=tuple(warnings))
    if not run.dry_run and not update.conflicts:
        remember_run(dest, source, options, run.caches.runs)
    return update


def _create(manifest: Path, dest: Path, run: Run, options: str) -> Update:
    """Generate a new project into ``dest``: staged beside it, then moved into place."""
    from .assemble import render_output

    project, source = _load(manifest, dest, run)
    writer.check_destination(dest, force=run.force)
    warnings: list[str] = []
    if has_state(dest):  # --force over a project panelforge made: same identity
        try:
            project, warnings = pin_identity(project, read_state(dest))
        except OutputError:  # a damaged record: --force starts afresh
            pass
    output = render_output(project, run)
    state = next_state(project, output, source, None, generator_version())
    files = {**output.files, **bookkeeping(state, output, source)}
    added = tuple(FileChange(p, "added", None, d) for p, d in sorted(files.items()))
    if not run.dry_run:
        with writer.staging_area(dest) as stage:
            writer.write_tree(stage, files)
            run.progress(f"writing {dest}")
            writer.replace_directory(stage, dest)
        remember_run(dest, source, options, run.caches.runs)
    return Update(
        project, added, dry_run=run.dry_run, fresh=True, warnings=tuple(warnings)
    )


def check(
    manifest: Path | None,
    dest: Path,
    *,
    strict: bool = False,
    use_cache: bool = True,
    progress: Progress = quiet,
) -> CheckReport:
    """Whether regenerating ``dest`` from ``manifest`` would change nothing; writes
    nothing. Edits of generated files that regenerating keeps are reported, not
    failures, unless ``strict``.

    ``manifest`` defaults to the copy ``dest`` recorded (``.panelforge/manifest.yaml``).
    """
    refuse_unfinished(dest)
    if not has_state(dest):
        raise OutputError(
            f"'{dest}' is not a project panelforge generated (no {STATE_FILE})"
        )
    from .assemble import regenerated_output
    from .regen.inplace import check_in_place

    manifest = manifest if manifest is not None else dest / MANIFEST_COPY
    progress(f"loading {manifest}")
    state = read_state(dest)
    run = _start_run(
        use_cache=use_cache, progress=progress, framework=state.project.framework
    )
    project, source = _load(manifest, dest, run)
    project, warnings = pin_identity(project, state)
    output = regenerated_output(project, state, dest, run)
    report = check_in_place(project, source, dest, state, output, strict=strict)
    notes = (*warnings, *workflow_notes(dest))
    return replace(report, notes=notes)


def validate(manifest: Path) -> ir.Project:
    """Check ``manifest`` only; every problem is reported in one error."""
    from .manifest.load import load_manifest

    return load_manifest(manifest)


def write_spec(
    manifest: Path, out_dir: Path, *, progress: Progress = quiet
) -> list[Path]:
    """Write only ``oag.yaml`` and ``oag.json`` for ``manifest`` into ``out_dir``."""
    from .manifest.load import load_manifest
    from .spec.openapi import build_spec, dump_spec
    from .spec.validate import validate_spec

    run = _start_run(progress=progress)
    project = load_manifest(manifest)
    run.progress("building and validating the OpenAPI spec")
    doc = build_spec(project)
    validate_spec(doc, source=str(manifest), cache_dir=run.caches.spec)
    yaml_data, json_data = dump_spec(doc)
    yaml_name = PurePosixPath(project.docs.path).name
    json_name = str(PurePosixPath(yaml_name).with_suffix(".json"))
    files = {yaml_name: yaml_data, json_name: json_data}
    return writer.write_files_atomically(out_dir, files)


def complete_project(
    project: ir.Project, root: Path, manifest: bytes, *, progress: Progress = quiet
) -> None:
    """Add the manifest-dependent files and the state to a skeleton in ``root``.

    Used by ``copier copy`` (generator/copier_task.py): copier has rendered the same
    skeleton into ``root`` already.
    """
    from .assemble import render_output

    output = render_output(project, Run(progress=progress))
    state = next_state(project, output, manifest, None, generator_version())
    files = {p: d for p, d in output.files.items() if output.owners[p] != "user"}
    files.update(
        {p: d for p, d in output.owned("user").items() if not (root / p).exists()}
    )
    writer.write_tree(root, {**files, **bookkeeping(state, output, manifest)})


def inspect_database(
    database_url: str,
    *,
    tables: tuple[str, ...] = (),
    exclude: tuple[str, ...] = (),
    output: Path | None = None,
    force: bool = False,
) -> Inspected:
    """Read the catalog of ``database_url`` and write a manifest for its tables.

    Writes ``output`` (refusing an existing file unless ``force``) when given; the
    text and the notes on what the manifest leaves out are returned either way.
    """
    from .introspect.catalog import read_catalog
    from .introspect.resources import build_manifest
    from .introspect.urls import parse_database_url
    from .introspect.yamltext import manifest_text

    url = parse_database_url(database_url)
    if output is not None and output.exists() and not force:
        raise OutputError(f"'{output}' exists (use --force to replace it)")
    catalog = read_catalog(url).selected(tables, exclude)
    inspection = build_manifest(catalog, url.database_name)
    text = manifest_text(
        inspection,
        source=url.masked,
        backend=catalog.backend_name,
        output=None if output is None else str(output),
    )
    if output is not None:
        writer.write_new_file(output, text, force=force)
    resources = len(inspection.manifest["resources"])
    return Inspected(
        text,
        inspection.notes,
        resources,
        inspection.table_count,
        _validation_problem(text, output),
    )


def _validation_problem(text: str, output: Path | None) -> str | None:
    """What ``validate`` would say of the inspected manifest, or None when it passes."""
    from .errors import ManifestError
    from .manifest.load import parse_manifest

    try:
        parse_manifest(text, str(output or "<stdout>"))
    except ManifestError as exc:
        return exc.message
    return None


@dataclass(frozen=True)
class Inspected:
    """What ``inspect`` made: the manifest's text, its notes and counts, and what
    ``validate`` says of it (None: it passes)."""

    text: str
    notes: tuple[str, ...]
    resources: int
    tables: int
    problem: str | None = None
