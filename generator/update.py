"""Runs on a project panelforge generated before: regenerate it in place, or check it.

Both render the whole new output in memory (but the migrations written before, which
are never rewritten), add the migration the schema change needs, and compare with what
DEST holds; only a regeneration that is not a dry run writes, through
:func:`generator.writer.apply_changes`. A regeneration with nothing to do stops before
all that (:func:`up_to_date`) when a run of the same panelforge with the same manifest
and arguments left DEST's state, and DEST still is what that run wrote.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import replace
from pathlib import Path

from . import ir
from .changes import ChangePlan, plan_changes
from .drift import CheckReport, find_drift
from .errors import OutputError
from .merge import has_conflict_markers
from .output import Output, read_files, read_files_under, read_tree
from .pipeline import (
    Caches,
    Progress,
    render_files,
    render_output,
    stable_templates,
    target_for,
)
from .plan import FilePlan
from .regenerate import (
    Update,
    bookkeeping,
    decide_changes,
    internal_changes,
    merge_bases,
    next_state,
)
from .state import (
    MERGED_OWNERS,
    STATE_DIR,
    STATE_FILE,
    State,
    as_recorded,
    generator_version,
    read_base,
    read_state,
    run_key,
    state_from_json,
)


def _quiet(_step: str) -> None:
    """Progress sink that says nothing."""


def add_schema_migration(
    output: Output, state: State, project: ir.Project, dest: Path, caches: Caches
) -> str | None:
    """Add the migration from the recorded tables to ``project``'s; return its path.

    It follows the head of the migrations in DEST (hand-written ones included) and
    of the history files this run adds.
    """
    target = target_for(project)
    existing = {
        p: d.decode("utf-8", "replace")
        for p, d in output.owned("history").items()
        if p not in state.migrations
    }
    folder = dest / target.HISTORY_DIR
    if folder.is_dir():
        existing.update(
            {
                f"{target.HISTORY_DIR}{p}": d.decode("utf-8", "replace")
                for p, d in read_tree(folder).items()
                if p.endswith(".py") and "/" not in p
            }
        )
    plan: FilePlan | None = target.schema_migration(state.project, project, existing)
    if plan is None:
        return None
    text = render_files([plan], caches, stable_templates(target))[plan.path]
    output.add(plan.path, text.encode("utf-8"), "history")
    return plan.path


def change_plan(
    state: State, project: ir.Project, dest: Path, allow_drop: Collection[str]
) -> ChangePlan:
    """The classified schema changes from the recorded manifest to ``project``.

    Raises :class:`OutputError` (nothing written) for a destructive change that
    ``allow_drop`` does not name, one a migration cannot make, or one the rows of
    the project's database (when reachable) do not fit.
    """
    from .database import count_damage
    from .migrations import diff_schema

    plan = plan_changes(diff_schema(state.project, project), allow_drop)
    plan.refuse_if_needed()
    note = count_damage(plan, dest, project.name)
    return replace(plan, notes=(note,)) if note else plan


def _new_output(
    project: ir.Project, state: State, dest: Path, caches: Caches, progress: Progress
) -> Output:
    # A migration written before stays as it is whatever it would be now: not rendered.
    written = {path for path in state.migrations if (dest / path).is_file()}
    output = render_output(project, caches=caches, progress=progress, skip=written)
    progress("comparing the tables with the recorded ones")
    add_schema_migration(output, state, project, dest, caches)
    return output


def _current(dest: Path, output: Output, state: State) -> dict[str, bytes | None]:
    paths = set(output.files) | set(state.owners) | set(state.migrations)
    return read_files(dest, paths)


def _refuse_unresolved(state: State, current: Mapping[str, bytes | None]) -> None:
    """Merging into a file that still holds conflict markers would nest them."""
    unresolved = sorted(
        path
        for path, owner in state.owners.items()
        if owner in MERGED_OWNERS and has_conflict_markers(current.get(path) or b"")
    )
    if unresolved:
        listed = "".join(f"\n  {path}" for path in unresolved)
        raise OutputError(
            "resolve the conflicts of the last regeneration first "
            f"('<<<<<<< yours' … '>>>>>>> generated'):{listed}"
        )


def _refuse_framework_switch(state: State, project: ir.Project, dest: Path) -> None:
    """A project keeps its framework: regenerating it as another is refused."""
    recorded = state.project.framework
    if project.framework != recorded:
        raise OutputError(
            f"{dest} is a {recorded} project; the manifest asks for "
            f"{project.framework}\n"
            f"  hint: pass --framework {recorded} to regenerate it, or generate the "
            f"{project.framework} project into another folder"
        )


def regenerate_project(
    project: ir.Project,
    source: bytes,
    dest: Path,
    *,
    caches: Caches,
    dry_run: bool = False,
    allow_drop: Collection[str] = (),
    progress: Progress = _quiet,
) -> Update:
    """Bring the project in ``dest`` up to date with ``project``, keeping user edits.

    Destructive schema changes are refused unless ``allow_drop`` names them.
    """
    from .writer import apply_changes

    state = read_state(dest)
    _refuse_framework_switch(state, project, dest)
    plan = change_plan(state, project, dest, allow_drop)
    output = _new_output(project, state, dest, caches, progress)
    current = _current(dest, output, state)
    _refuse_unresolved(state, current)
    bases = merge_bases(state, read_base(dest, state), current)
    changes = decide_changes(output, state, current, bases)
    recorded = next_state(project, output, source, state, generator_version())
    internal = internal_changes(
        bookkeeping(recorded, output, source), read_files_under(dest, STATE_DIR)
    )
    update = Update(project, tuple(changes + internal), dry_run=dry_run, plan=plan)
    if not dry_run:
        progress(f"updating {dest}")
        apply_changes(dest, update.writes(), update.removals())
    return update


def check_project(
    project: ir.Project,
    source: bytes,
    dest: Path,
    *,
    caches: Caches,
    progress: Progress = _quiet,
) -> CheckReport:
    """Whether ``dest`` is what ``project`` generates (extension points aside)."""
    state = read_state(dest)
    output = _new_output(project, state, dest, caches, progress)
    recorded = next_state(project, output, source, state, generator_version())
    current = _current(dest, output, state)
    drift = find_drift(
        output,
        state,
        current,
        merge_bases(state, read_base(dest, state), current),
        internal=internal_changes(
            bookkeeping(recorded, output, source), read_files_under(dest, STATE_DIR)
        ),
    )
    return CheckReport(project, tuple(drift))


def _stamp(stamps: Path, key: str) -> Path:
    return stamps / key[:2] / key


def up_to_date(
    manifest: Path,
    dest: Path,
    options: str,
    stamps: Path | None,
    *,
    dry_run: bool = False,
) -> Update | None:
    """The outcome of regenerating ``dest`` when that is known to change nothing.

    Known when a run of this panelforge with the same manifest bytes and ``options``
    left DEST's state (a stamp in ``stamps``, see :func:`remember_run`) and DEST still
    is what it wrote (:func:`generator.state.as_recorded`); else ``None``: run it.
    """
    if stamps is None:
        return None
    try:
        source = manifest.read_bytes()
        recorded = (dest / STATE_FILE).read_bytes()
    except OSError:
        return None
    if not _stamp(stamps, run_key(recorded, source, options)).is_file():
        return None
    try:
        state = state_from_json(recorded.decode("utf-8"))
    except (ValueError, KeyError, TypeError):
        return None
    if not as_recorded(dest, state, source):
        return None
    return Update(state.project, (), dry_run=dry_run)


def remember_run(dest: Path, source: bytes, options: str, stamps: Path | None) -> None:
    """Stamp the state a finished run left in ``dest``, for :func:`up_to_date`."""
    if stamps is None:
        return
    try:
        recorded = (dest / STATE_FILE).read_bytes()
        stamp = _stamp(stamps, run_key(recorded, source, options))
        stamp.parent.mkdir(parents=True, exist_ok=True)
        stamp.touch()
    except OSError:
        return  # a cache that cannot be written only costs time
