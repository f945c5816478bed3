"""One generation run: load → IR → render → format → spec → validate → write.

Everything is built in memory first (:class:`generator.output.Output`); the destination
is touched only by :mod:`generator.writer`, once every step has succeeded. A first run
stages the project beside DEST and swaps it in; on a project panelforge generated
before (it has ``.panelforge/state.json``) the run updates it in place, merging the
user's edits (:mod:`generator.regenerate`) and adding a migration for schema changes.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Collection
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import ModuleType
from typing import TYPE_CHECKING

from . import ir
from .errors import OutputError
from .format import FormatCache, Formatter
from .output import Output, owner_of, render_skeleton_files
from .paths import user_cache_dir
from .plan import FilePlan
from .regenerate import FileChange, Update, bookkeeping, next_state
from .state import (
    MANIFEST_COPY,
    STATE_FILE,
    generator_version,
    has_state,
    read_state,
)

if TYPE_CHECKING:
    from .drift import CheckReport

Progress = Callable[[str], None]

SUPPORTED_FRAMEWORKS = ("fastapi", "django")


def _quiet(_step: str) -> None:
    """Progress sink that says nothing."""


@dataclass(frozen=True)
class Caches:
    """Where a run may keep and find earlier results; ``None`` turns a cache off."""

    black: Path | None
    spec: Path | None
    skeleton: Path | None = None
    runs: Path | None = None  # stamps of completed runs: a no-op rerun stops early
    templates: Path | None = None  # Jinja's compiled templates
    spec_text: Path | None = None  # the spec's texts, by part
    manifest: Path | None = None  # resources that passed the manifest schema

    @classmethod
    def default(cls, enabled: bool = True) -> Caches:
        """The user cache directory's caches, or none."""
        if not enabled:
            return cls(None, None)
        root = user_cache_dir()
        return cls(
            root / "black",
            root / "spec",
            root / "skeleton",
            root / "runs",
            root / "jinja",
            root / "spec-text",
            root / "manifest",
        )


@dataclass(frozen=True)
class ProjectFiles:
    """The manifest-dependent files of a project, rendered and formatted."""

    generated: dict[str, str]  # always written
    user: dict[str, str]  # extension points: written only where absent


def target_for(project: ir.Project) -> ModuleType:
    """The target module that knows how to emit ``project.framework``."""
    if project.framework not in SUPPORTED_FRAMEWORKS:
        raise OutputError(
            f"framework '{project.framework}' is not yet supported "
            f"(supported: {', '.join(SUPPORTED_FRAMEWORKS)})"
        )
    return importlib.import_module(f"generator.targets.{project.framework}")


def spec_paths(project: ir.Project) -> tuple[str, str]:
    """Where the YAML and JSON specs go, relative to the project root."""
    yaml_path = PurePosixPath(project.docs.path)
    return str(yaml_path), str(yaml_path.with_suffix(".json"))


def build_project_files(
    project: ir.Project,
    *,
    caches: Caches | None = None,
    progress: Progress = _quiet,
    skip: Collection[str] = (),
) -> ProjectFiles:
    """Render, format and spec-check every manifest-dependent file, in memory.

    Files named in ``skip`` are left out (a regeneration never rewrites a migration
    it wrote before, so it need not render one).
    """
    from .openapi import build_spec, dump_spec
    from .validate import validate_spec

    target = target_for(project)
    caches = caches or Caches.default()
    plans = [p for p in target.plan_files(project) if p.path not in skip]
    progress(f"rendering {len(plans)} files for {len(project.resources)} resources")
    formatted = render_files(plans, caches, stable_templates(target))
    progress("building and validating the OpenAPI spec")
    doc = build_spec(project)
    validate_spec(doc, source=project.docs.path, cache_dir=caches.spec)
    yaml_path, json_path = spec_paths(project)
    name = f"{project.framework}\0{project.name}\0{yaml_path}"
    yaml_text, json_text = dump_spec(doc, caches.spec_text, name)
    formatted[yaml_path] = yaml_text
    formatted[json_path] = json_text
    owners = {plan.path: plan.owner for plan in plans}
    return ProjectFiles(
        generated={p: t for p, t in formatted.items() if owners.get(p) != "user"},
        user={p: t for p, t in formatted.items() if owners.get(p) == "user"},
    )


def stable_templates(target: ModuleType) -> frozenset[str]:
    """The target's templates whose render is black's output (none if undeclared)."""
    return frozenset(getattr(target, "BLACK_STABLE_TEMPLATES", ()))


def render_files(
    plans: list[FilePlan], caches: Caches, stable: Collection[str] = ()
) -> dict[str, str]:
    """Render plans and format the Python among them (black, cached).

    Files of the ``stable`` templates skip black where that gives black's bytes.
    """
    from .render import render_plans  # Jinja: not needed by a no-op run

    trusted = {plan.path for plan in plans if plan.template in stable}
    formatter = Formatter(FormatCache(caches.black), trusted)
    return formatter.format_all(render_plans(plans, caches.templates))


def render_output(
    project: ir.Project,
    *,
    caches: Caches | None = None,
    progress: Progress = _quiet,
    skip: Collection[str] = (),
) -> Output:
    """Everything ``project`` generates, in memory: its files and the skeleton."""
    target = target_for(project)
    files = build_project_files(project, caches=caches, progress=progress, skip=skip)
    progress("rendering the project skeleton with copier")
    skeleton_dir = (caches or Caches.default()).skeleton
    output = Output()
    for path, data in render_skeleton_files(target, project, skeleton_dir).items():
        output.add(path, data, owner_of(path, target, None))
    for path, text in files.generated.items():
        output.add(path, text.encode("utf-8"), owner_of(path, target, "generated"))
    for path, text in files.user.items():
        output.add(path, text.encode("utf-8"), "user")
    return output


def complete_project(
    project: ir.Project,
    root: Path,
    manifest: bytes,
    *,
    progress: Progress = _quiet,
) -> None:
    """Add the manifest-dependent files and the state to a skeleton in ``root``.

    Used by ``copier copy`` (generator/copier_task.py): copier has rendered the same
    skeleton into ``root`` already.
    """
    from .writer import write_tree

    output = render_output(project, progress=progress)
    state = next_state(project, output, manifest, None, generator_version())
    files = {p: d for p, d in output.files.items() if output.owners[p] != "user"}
    files.update(
        {p: d for p, d in output.owned("user").items() if not (root / p).exists()}
    )
    write_tree(root, {**files, **bookkeeping(state, output, manifest)})


def _load(
    manifest: Path,
    dest: Path,
    framework: ir.Framework | None,
    caches: Caches | None = None,
) -> tuple[ir.Project, bytes]:
    """The project and the manifest's bytes; DEST's own copy keeps its recorded name."""
    from .manifest import load_manifest

    display_name = None
    copy = dest / MANIFEST_COPY
    if copy.is_file() and manifest.resolve() == copy.resolve():
        display_name = read_state(dest).manifest_name
    cache_dir = caches.manifest if caches is not None else None
    project = load_manifest(manifest, display_name=display_name, cache_dir=cache_dir)
    if framework is not None:
        project = project.replace_framework(framework)
    target_for(project)
    return project, manifest.read_bytes()


def generate(
    manifest: Path,
    dest: Path,
    *,
    framework: ir.Framework | None = None,
    force: bool = False,
    use_cache: bool = True,
    dry_run: bool = False,
    allow_drop: Collection[str] = (),
    progress: Progress = _quiet,
) -> Update:
    """Generate ``manifest``'s project into ``dest``, or update the one there.

    An existing panelforge project is updated in place (edits merged, a migration
    added; destructive schema changes only when ``allow_drop`` names them); another
    non-empty ``dest`` is refused unless ``force`` replaces it. ``dry_run`` computes
    the same changes and writes nothing.
    """
    from .writer import check_destination, replace_directory, staging_area, write_tree

    progress(f"loading {manifest}")
    caches = Caches.default(use_cache)
    options = _run_options(manifest, dest, framework)
    if not force and has_state(dest):
        from .update import regenerate_project, remember_run, up_to_date

        done = up_to_date(manifest, dest, options, caches.runs, dry_run=dry_run)
        if done is not None:
            return done
        project, source = _load(manifest, dest, framework, caches)
        update = regenerate_project(
            project,
            source,
            dest,
            caches=caches,
            dry_run=dry_run,
            allow_drop=allow_drop,
            progress=progress,
        )
        if not dry_run and not update.conflicts:
            remember_run(dest, source, options, caches.runs)
        return update
    project, source = _load(manifest, dest, framework, caches)
    check_destination(dest, force=force)
    output = render_output(project, caches=caches, progress=progress)
    state = next_state(project, output, source, None, generator_version())
    files = {**output.files, **bookkeeping(state, output, source)}
    added = tuple(FileChange(p, "added", None, d) for p, d in sorted(files.items()))
    if not dry_run:
        from .update import remember_run

        with staging_area(dest) as stage:
            write_tree(stage, files)
            progress(f"writing {dest}")
            replace_directory(stage, dest)
        remember_run(dest, source, options, caches.runs)
    return Update(project, added, dry_run=dry_run, fresh=True)


def _run_options(manifest: Path, dest: Path, framework: str | None) -> str:
    """What of a run's arguments, besides the manifest's bytes, shapes its output."""
    copy = dest / MANIFEST_COPY
    is_copy = copy.is_file() and manifest.resolve() == copy.resolve()
    return "\0".join((os.fsdecode(manifest), str(is_copy), framework or ""))


def check(
    manifest: Path | None,
    dest: Path,
    *,
    use_cache: bool = True,
    progress: Progress = _quiet,
) -> CheckReport:
    """Compare ``dest`` with what ``manifest`` generates; writes nothing.

    ``manifest`` defaults to the copy ``dest`` recorded (``.panelforge/manifest.yaml``).
    """
    from .update import check_project

    if not has_state(dest):
        raise OutputError(
            f"'{dest}' is not a project panelforge generated (no {STATE_FILE})"
        )
    manifest = manifest if manifest is not None else dest / MANIFEST_COPY
    progress(f"loading {manifest}")
    framework = read_state(dest).project.framework
    caches = Caches.default(use_cache)
    project, source = _load(manifest, dest, framework, caches)
    return check_project(project, source, dest, caches=caches, progress=progress)


def write_spec_only(
    manifest: Path, out_dir: Path, *, progress: Progress = _quiet
) -> list[Path]:
    """Write only ``oag.yaml`` and ``oag.json`` for ``manifest`` into ``out_dir``."""
    from .manifest import load_manifest
    from .openapi import build_spec, dump_spec
    from .validate import validate_spec
    from .writer import write_files_atomically

    project = load_manifest(manifest)
    progress("building and validating the OpenAPI spec")
    doc = build_spec(project)
    validate_spec(doc, source=str(manifest), cache_dir=Caches.default().spec)
    yaml_text, json_text = dump_spec(doc)
    yaml_name = PurePosixPath(project.docs.path).name
    json_name = str(PurePosixPath(yaml_name).with_suffix(".json"))
    return write_files_atomically(out_dir, {yaml_name: yaml_text, json_name: json_text})
