"""One generation run: load → IR → render → format → spec → validate → write.

Everything that depends on the manifest is built in memory first; the destination is
touched only by :mod:`generator.writer`, once every step has succeeded.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from types import ModuleType

from . import ir
from .errors import OutputError
from .format import FormatCache, Formatter
from .paths import user_cache_dir
from .plan import FilePlan
from .render import render_plans

Progress = Callable[[str], None]

SUPPORTED_FRAMEWORKS = ("fastapi",)


def _quiet(_step: str) -> None:
    """Progress sink that says nothing."""


@dataclass(frozen=True)
class Caches:
    """Where a run may keep and find earlier results; ``None`` turns a cache off."""

    black: Path | None
    spec: Path | None

    @classmethod
    def default(cls, enabled: bool = True) -> Caches:
        """The user cache directory's caches, or none."""
        if not enabled:
            return cls(None, None)
        root = user_cache_dir()
        return cls(root / "black", root / "spec")


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
) -> ProjectFiles:
    """Render, format and spec-check every manifest-dependent file, in memory."""
    from .openapi import build_spec, dump_spec
    from .validate import validate_spec

    target = target_for(project)
    caches = caches or Caches.default()
    formatter = Formatter(FormatCache(caches.black))
    plans: list[FilePlan] = target.plan_files(project)
    progress(f"rendering {len(plans)} files for {len(project.resources)} resources")
    rendered = render_plans(plans)
    progress("formatting with black")
    formatted = formatter.format_all(rendered)
    progress("building and validating the OpenAPI spec")
    doc = build_spec(project)
    validate_spec(doc, source=project.docs.path, cache_dir=caches.spec)
    yaml_text, json_text = dump_spec(doc)
    yaml_path, json_path = spec_paths(project)
    formatted[yaml_path] = yaml_text
    formatted[json_path] = json_text
    owners = {plan.path: plan.owner for plan in plans}
    return ProjectFiles(
        generated={p: t for p, t in formatted.items() if owners.get(p) != "user"},
        user={p: t for p, t in formatted.items() if owners.get(p) == "user"},
    )


def render_project(
    project: ir.Project,
    root: Path,
    *,
    caches: Caches | None = None,
    progress: Progress = _quiet,
) -> None:
    """Write the whole project into an empty ``root``: skeleton, then the rest."""
    from .project import render_skeleton
    from .writer import write_tree

    target = target_for(project)
    files = build_project_files(project, caches=caches, progress=progress)
    progress("rendering the project skeleton with copier")
    render_skeleton(root, target.copier_data(project))
    write_tree(root, files.generated)
    write_tree(root, files.user)


def complete_project(
    project: ir.Project, root: Path, *, progress: Progress = _quiet
) -> None:
    """Add the manifest-dependent files to a skeleton copier rendered in ``root``."""
    from .writer import write_tree

    files = build_project_files(project, progress=progress)
    write_tree(root, files.generated)
    write_tree(root, {p: t for p, t in files.user.items() if not (root / p).exists()})


def generate(
    manifest: Path,
    dest: Path,
    *,
    framework: ir.Framework | None = None,
    force: bool = False,
    use_cache: bool = True,
    progress: Progress = _quiet,
) -> ir.Project:
    """Generate the project described by ``manifest`` into ``dest``, atomically."""
    from .manifest import load_manifest
    from .writer import check_destination, replace_directory, staging_area

    progress(f"loading {manifest}")
    project = load_manifest(manifest)
    if framework is not None:
        project = project.replace_framework(framework)
    target_for(project)
    check_destination(dest, force=force)
    with staging_area(dest) as stage:
        render_project(
            project, stage, caches=Caches.default(use_cache), progress=progress
        )
        progress(f"writing {dest}")
        replace_directory(stage, dest)
    return project


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
