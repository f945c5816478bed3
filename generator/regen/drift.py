"""Does a project still match its manifest? The rules of ``panelforge check``.

DEST has *drifted* when regenerating would change a file it should not have to:

- ``missing``: a file the manifest generates is not there (a new migration included);
- ``modified``: a generated file differs from what the manifest generates (an edit
  outside the extension points, or unresolved conflict markers);
- ``outdated``: a shared file (``pyproject.toml``) lacks a change the generator made
  since (edits of it are fine);
- ``extra``: a file panelforge generated before that the manifest no longer makes.

Extension points (``app/hooks/*.py``) may hold anything; written migrations may be
adjusted by hand. Pure: the caller reads DEST.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from ..model import ir
from ..render.output import Output
from .changes import FileChange
from .merge import has_conflict_markers
from .state import MERGED_OWNERS, STATE_DIR, State

Kind = Literal["missing", "modified", "outdated", "extra"]


@dataclass(frozen=True)
class Drift:
    """One way DEST differs from what the manifest generates."""

    path: str
    kind: Kind
    note: str = ""


@dataclass(frozen=True)
class CheckReport:
    """The outcome of ``panelforge check``: no drift means DEST is up to date."""

    project: ir.Project
    drift: tuple[Drift, ...]
    notes: tuple[str, ...] = ()  # worth saying even when DEST is up to date

    @property
    def ok(self) -> bool:
        """Whether DEST is exactly what the manifest generates."""
        return not self.drift


def _file_drift(
    path: str, owner: str, ours: bytes | None, base: bytes | None, theirs: bytes
) -> Drift | None:
    if ours is None:
        return Drift(path, "missing")
    if owner == "generated" and ours != theirs:
        note = "conflict markers" if has_conflict_markers(ours) else ""
        return Drift(path, "modified", note)
    if owner == "shared" and ours != theirs and theirs != base:
        return Drift(path, "outdated", "regenerate to merge the generator's change")
    return None


def _history_drift(path: str, ours: bytes | None, state: State) -> Drift | None:
    if ours is not None:
        return None
    if path in state.migrations:
        return Drift(path, "missing", "a migration written before was deleted")
    return Drift(path, "missing", "the tables changed since the last generation")


def find_drift(
    output: Output,
    state: State,
    current: Mapping[str, bytes | None],
    base: Mapping[str, bytes],
    internal: Sequence[FileChange] = (),
) -> list[Drift]:
    """Every drifted file, by path; ``internal``: pending ``.panelforge/`` writes."""
    drift: list[Drift | None] = []
    for path, theirs in output.files.items():
        owner = output.owners[path]
        ours = current.get(path)
        if owner in MERGED_OWNERS:
            drift.append(_file_drift(path, owner, ours, base.get(path), theirs))
        elif owner == "history":
            drift.append(_history_drift(path, ours, state))
        elif ours is None:
            drift.append(Drift(path, "missing", "an extension point"))
    for path in state.migrations:
        if path not in output.files and current.get(path) is None:
            drift.append(Drift(path, "missing", "a migration written before"))
    for path, owner in state.owners.items():
        if owner in MERGED_OWNERS and path not in output.files and current.get(path):
            drift.append(Drift(path, "extra", "the manifest no longer generates it"))
    if internal:
        drift.append(Drift(f"{STATE_DIR}/", "outdated", "the recorded state differs"))
    return sorted((d for d in drift if d is not None), key=lambda d: d.path)
