"""What an interrupted run left in or beside DEST: made good by the next run, told
by ``check``.

- An update killed while switching files left ``.panelforge/journal.json``: the next
  ``generate`` finishes the switch first (:func:`generator.render.journal.finish`);
  ``check`` (and ``generate --dry-run``) refuse to compare a half-switched project
  and say how to finish it.
- An update killed before switching left ``.panelforge/pending/``; earlier versions of
  panelforge left ``.X.panelforge-XXXXXXXX`` files beside the ones they replaced: the
  next run removes them, ``check`` reports them (``leftover``).
- A new project killed before its swap left ``.DEST.panelforge-XXXXXXXX`` beside DEST;
  ``--force`` killed between its two renames left no DEST and ``.DEST.old-XXXXXXXX``:
  the next run into DEST restores DEST from that backup and removes the rest.

Runs hold DEST's lock (:func:`generator.render.writer.locked`): what a live run is
writing is never taken for a leftover.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import OutputError
from ..render import journal, writer
from .drift import Drift
from .state import BASE_DIR, STATE_DIR, read_state

_LEFTOVER_NOTE = "left by an interrupted run: the next 'panelforge generate' removes it"


def recover(dest: Path) -> list[str]:
    """Finish or undo what an interrupted run left; what was done, to tell the user.

    The caller holds DEST's lock.
    """
    notes = []
    try:
        removed, restored = writer.sweep_beside(dest)
    except OSError as exc:
        raise OutputError(f"cannot restore '{dest}' from its backup: {exc}") from exc
    if restored is not None:
        notes.append(
            f"'{dest}' was restored from '{restored.name}', where an interrupted "
            "run had moved it"
        )
    if journal.finish(dest, STATE_DIR):
        notes.append(f"finished the update of '{dest}' that an interrupted run left")
    swept = [f"../{p.name}/" for p in removed]
    swept += journal.sweep(dest, STATE_DIR, _folders(dest))
    if swept:
        listed = ", ".join(swept)
        notes.append(f"removed what an interrupted run left in '{dest}': {listed}")
    return notes


def refuse_unfinished(dest: Path) -> None:
    """Refuse to compare DEST while a run writes it, or a run left it half-switched."""
    if writer.in_use(dest):
        raise OutputError(
            f"a panelforge run is writing '{dest}' right now; try again when it "
            "has finished"
        )
    backups = [p for p in writer.left_beside(dest) if ".old-" in p.name]
    if not dest.exists() and backups:
        raise OutputError(
            f"'{dest}' is missing: an interrupted 'panelforge generate' moved it to "
            f"'{backups[0]}'; run 'panelforge generate MANIFEST -o {dest}' to "
            "restore it and generate again"
        )
    if journal.unfinished(dest, STATE_DIR):
        raise OutputError(
            f"'{dest}' is half-way through an update that was interrupted "
            f"({STATE_DIR}/{journal.JOURNAL} is left); run 'panelforge generate "
            f"MANIFEST -o {dest}' to finish it first"
        )


def leftover_drift(dest: Path) -> list[Drift]:
    """What interrupted runs left in and beside DEST, as ``check`` reports it."""
    found = journal.leftovers(dest, STATE_DIR, _folders(dest))
    found += [
        os.path.relpath(p, dest.resolve()) + "/" for p in writer.left_beside(dest)
    ]
    return [Drift(path, "leftover", _LEFTOVER_NOTE) for path in found]


def _folders(dest: Path) -> set[str]:
    """The folders holding files panelforge writes, as DEST's state records them."""
    try:
        state = read_state(dest)
    except OutputError:  # no state (a new project) or a damaged one
        return set()
    paths = [*state.owners, *state.migrations]
    paths += [f"{BASE_DIR}/{path}" for path in state.hashes]
    return {path.rpartition("/")[0] or "." for path in paths}
