"""Runs on a project panelforge generated before: update it in place, or check it.

Both compare the new output, rendered in memory by the caller (all of it but the
migrations written before, which are never rewritten, plus the migration the schema
change needs), with what DEST holds; only an update that is not a dry run writes,
through :func:`generator.render.journal.apply_changes` (new files staged, a journal,
then renames: a killed update is finished by the next run).
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

from ..errors import OutputError
from ..model import ir
from ..render.journal import apply_changes, is_work_file
from ..render.output import Output, read_files, read_files_under
from ..run import Run
from .changes import (
    FileChange,
    Update,
    bookkeeping,
    decide_changes,
    internal_changes,
    merge_bases,
    next_state,
)
from .drift import CheckReport, Drift, find_drift, spec_drift
from .merge import has_conflict_markers
from .recovery import leftover_drift
from .state import MERGED_OWNERS, STATE_DIR, State, generator_version, read_base


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


def refuse_framework_switch(state: State, project: ir.Project, dest: Path) -> None:
    """A project keeps its framework: regenerating it as another is refused."""
    recorded = state.project.framework
    if project.framework != recorded:
        raise OutputError(
            f"{dest} is a {recorded} project; the manifest asks for "
            f"{project.framework}\n"
            f"  hint: pass --framework {recorded} to regenerate it, or generate the "
            f"{project.framework} project into another folder"
        )


def _state_changes(
    project: ir.Project, source: bytes, dest: Path, state: State, output: Output
) -> list[FileChange]:
    """How ``.panelforge/`` changes when ``output`` is recorded."""
    recorded = next_state(project, output, source, state, generator_version())
    present = {
        path: data
        for path, data in read_files_under(dest, STATE_DIR).items()
        if not is_work_file(path, STATE_DIR)  # an interrupted run's: see recovery
    }
    return internal_changes(bookkeeping(recorded, output, source), present)


def update_in_place(
    project: ir.Project,
    source: bytes,
    dest: Path,
    state: State,
    output: Output,
    run: Run,
) -> Update:
    """Bring the project in ``dest`` to ``output``, keeping the user's edits."""
    current = _current(dest, output, state)
    _refuse_unresolved(state, current)
    bases = merge_bases(state, read_base(dest, state), current)
    changes = decide_changes(output, state, current, bases)
    internal = _state_changes(project, source, dest, state, output)
    update = Update(project, tuple(changes + internal), dry_run=run.dry_run)
    if not run.dry_run:
        run.progress(f"updating {dest}")
        apply_changes(dest, update.writes(), update.removals(), work=STATE_DIR)
    return update


def check_in_place(
    project: ir.Project,
    source: bytes,
    dest: Path,
    state: State,
    output: Output,
    *,
    strict: bool = False,
) -> CheckReport:
    """Whether regenerating ``dest`` into ``output`` would change nothing.

    ``strict``: whether ``dest`` is ``output`` (extension points aside), edits of
    generated files failing too.
    """
    internal = _state_changes(project, source, dest, state, output)
    current = _current(dest, output, state)
    drift = find_drift(
        output,
        state,
        current,
        merge_bases(state, read_base(dest, state), current),
        internal=internal,
        strict=strict,
    )
    drift += spec_drift(project, output, current)
    drift += leftover_drift(dest)
    return CheckReport(project, tuple(sorted(drift, key=_by_path)))


def _by_path(drift: Drift) -> tuple[str, str]:
    return drift.path, drift.kind
