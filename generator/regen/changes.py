"""What each file of an existing project becomes when it is regenerated. Pure.

The decision per file, by owner (:mod:`generator.render.output`), with ``base`` the
recorded last output, ``ours`` the file on disk and ``theirs`` the new output:

==========================  ===================================================
generated / shared          absent → added; ours = theirs → unchanged;
                            ours = base → updated; theirs = base → unchanged
                            (your edit stays); else merged, or conflict markers
no longer generated         ours = base → removed; edited → conflict, kept
user (extension point)      absent → added; present → never touched;
                            no longer planned → kept, reported as unused
history (migrations)        written once: absent and unrecorded → added
==========================  ===================================================

:func:`decide_changes` is pure; the caller reads the project and writes the result.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from ..model import ir
from ..render.output import Output
from .install import install_source
from .merge import MergeResult, is_mergeable, merge_three_way
from .state import MERGED_OWNERS, STATE_DIR, State, sha256, state_files

if TYPE_CHECKING:  # the schema diff: not needed by a no-op rerun
    from .change_plan import ChangePlan

Status = Literal[
    "added", "updated", "merged", "conflict", "removed", "kept", "unchanged"
]
STATUSES: tuple[Status, ...] = (
    "added",
    "updated",
    "merged",
    "conflict",
    "removed",
    "kept",
    "unchanged",
)
Merger = Callable[[bytes, bytes, bytes], MergeResult]


@dataclass(frozen=True)
class FileChange:
    """What happens to one file; ``after`` is ``None`` when it is left or removed."""

    path: str
    status: Status
    before: bytes | None
    after: bytes | None
    note: str = ""

    @property
    def internal(self) -> bool:
        """Bookkeeping under ``.panelforge/``, not reported file by file."""
        return self.path.startswith(STATE_DIR + "/")

    def diff(self) -> str:
        """A unified diff from the file as it is to what it becomes ("" if binary)."""
        after = self.before if self.after is None and self.status != "removed" else None
        after = self.after if self.after is not None else after
        texts = []
        for data in (self.before, after):
            try:
                texts.append((data or b"").decode("utf-8").splitlines(keepends=True))
            except UnicodeDecodeError:
                return ""
        lines = difflib.unified_diff(
            texts[0],
            texts[1],
            "/dev/null" if self.before is None else f"a/{self.path}",
            "/dev/null" if after is None else f"b/{self.path}",
        )
        return "".join(line if line.endswith("\n") else line + "\n" for line in lines)


@dataclass(frozen=True)
class Update:
    """The outcome of a regeneration (written, or only planned with --dry-run)."""

    project: ir.Project
    changes: tuple[FileChange, ...]
    dry_run: bool = False
    fresh: bool = False  # a new project, not an update
    plan: ChangePlan | None = None  # the schema changes (an update only)
    warnings: tuple[str, ...] = ()  # identity or install source changes, to tell

    @property
    def reported(self) -> list[FileChange]:
        """The changes worth a line: user-visible files that do not stay as they are."""
        return [c for c in self.changes if not c.internal and c.status != "unchanged"]

    @property
    def conflicts(self) -> list[FileChange]:
        """Files needing the user: conflict markers, or kept edits of removed files."""
        return [c for c in self.changes if c.status == "conflict"]

    def count(self, status: Status) -> int:
        """How many user-visible files have ``status``."""
        return sum(1 for c in self.changes if c.status == status and not c.internal)

    def writes(self) -> dict[str, bytes]:
        """Files whose content changes."""
        return {
            c.path: c.after
            for c in self.changes
            if c.after is not None and c.after != c.before
        }

    def removals(self) -> list[str]:
        """Files deleted."""
        return [c.path for c in self.changes if c.status == "removed"]


def _merged_file(
    path: str,
    ours: bytes | None,
    base: bytes | None,
    theirs: bytes,
    merge: Merger,
) -> FileChange:
    if ours is None:
        return FileChange(path, "added", None, theirs)
    if ours == theirs:
        return FileChange(path, "unchanged", ours, None)
    if ours == base:
        return FileChange(path, "updated", ours, theirs)
    if theirs == base:
        return FileChange(path, "unchanged", ours, None, "edited by you")
    if not all(is_mergeable(d) for d in (ours, theirs, base or b"")):
        note = "changed by you and by the generator, and not mergeable: yours kept"
        return FileChange(path, "conflict", ours, None, note)
    result = merge(base or b"", ours, theirs)
    if result.conflicts:
        note = f"{result.conflicts} conflicting region(s)"
        if base is None:
            note = "not generated by panelforge before, and different"
        return FileChange(path, "conflict", ours, result.data, note)
    if result.data == ours:
        return FileChange(path, "unchanged", ours, None)
    return FileChange(path, "merged", ours, result.data)


def _removed_file(
    path: str, owner: str, ours: bytes | None, base: bytes | None
) -> FileChange | None:
    if ours is None:
        return None
    if owner == "user":
        return FileChange(path, "kept", ours, None, "no longer used")
    if owner not in MERGED_OWNERS:
        return None
    if ours == base:
        return FileChange(path, "removed", ours, None)
    note = "no longer generated, but edited by you: kept; delete it or move your edits"
    return FileChange(path, "conflict", ours, None, note)


def decide_changes(
    output: Output,
    state: State,
    current: Mapping[str, bytes | None],
    base: Mapping[str, bytes],
    merge: Merger = merge_three_way,
) -> list[FileChange]:
    """What every file becomes (state files excepted); see the module's table."""
    changes = []
    for path, theirs in sorted(output.files.items()):
        owner = output.owners[path]
        ours = current.get(path)
        if owner in MERGED_OWNERS:
            changes.append(_merged_file(path, ours, base.get(path), theirs, merge))
        elif ours is None and path not in state.migrations:
            changes.append(FileChange(path, "added", None, theirs))
        else:
            changes.append(FileChange(path, "unchanged", ours, None))
    for path, owner in sorted(state.owners.items()):
        if path not in output.files:
            change = _removed_file(path, owner, current.get(path), base.get(path))
            if change is not None:
                changes.append(change)
    return changes


def next_state(
    project: ir.Project,
    output: Output,
    manifest: bytes,
    previous: State | None,
    generator_version: str,
) -> State:
    """The state recorded after writing ``output``."""
    history = {p for p, o in output.owners.items() if o == "history"}
    if previous is not None:
        history |= set(previous.migrations)
    return State(
        project=project,
        manifest_name=project.manifest_name,
        manifest_sha256=sha256(manifest),
        owners={p: o for p, o in sorted(output.owners.items()) if o != "history"},
        hashes={p: sha256(d) for p, d in sorted(output.owned(*MERGED_OWNERS).items())},
        migrations=tuple(sorted(history)),
        generator_version=generator_version,
        install=install_source(),
    )


def bookkeeping(state: State, output: Output, manifest: bytes) -> dict[str, bytes]:
    """The files of ``.panelforge/`` for ``state`` (mergeable files mirrored)."""
    mirrored = {
        p: d for p, d in output.owned(*MERGED_OWNERS).items() if is_mergeable(d)
    }
    return state_files(state, mirrored, manifest)


def merge_bases(
    state: State, mirror: Mapping[str, bytes], current: Mapping[str, bytes | None]
) -> dict[str, bytes]:
    """Each file's merge base: its mirror, or the file itself when unedited.

    An unedited file has the recorded hash; large assets are recognised that way,
    having no mirror.
    """
    bases = dict(mirror)
    for path, digest in state.hashes.items():
        ours = current.get(path)
        if path not in bases and ours is not None and sha256(ours) == digest:
            bases[path] = ours
    return bases


def internal_changes(
    wanted: Mapping[str, bytes], current: Mapping[str, bytes]
) -> list[FileChange]:
    """Bring ``.panelforge/`` from ``current`` to ``wanted`` (stale files removed)."""
    changes = []
    for path, data in sorted(wanted.items()):
        before = current.get(path)
        if before is None:
            changes.append(FileChange(path, "added", None, data))
        elif before != data:
            changes.append(FileChange(path, "updated", before, data))
    changes += [
        FileChange(path, "removed", data, None)
        for path, data in sorted(current.items())
        if path not in wanted
    ]
    return changes
