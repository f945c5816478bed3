"""Updating a project in place so that a killed run is finished by the next one.

:func:`apply_changes` writes every new or changed file into ``<work>/pending/`` (inside
DEST, so on its filesystem; ``work`` is ``.panelforge``), checks that each can be moved
to its place, and only then writes the journal, ``<work>/journal.json``: the files to
move and the files to remove (with their hash). Then it switches: one rename per file,
then the removals; the pending folder goes, and the journal last.

Until the journal exists DEST is the old project: a kill leaves at most the pending
folder, which the next run removes. Once it exists, DEST is the new project in the
making: the next run first finishes the switch (:func:`finish`), renaming what is
still pending and removing what is still to remove, so DEST becomes the new project
whichever rename the kill followed. ``panelforge check`` reports an unfinished switch
instead of comparing a half-switched project.
"""

from __future__ import annotations

import hashlib
import json
import os
import secrets
import shutil
from collections.abc import Iterable, Mapping
from pathlib import Path, PurePosixPath
from typing import Any

from ..errors import OutputError
from .writer import is_temporary, renamed, write_file

JOURNAL = "journal.json"
PENDING = "pending"
_FORMAT = 1


def journal_path(root: Path, work: str) -> Path:
    """Where the journal of an update of ``root`` lives."""
    return root / work / JOURNAL


def unfinished(root: Path, work: str) -> bool:
    """Whether an update of ``root`` was interrupted while switching files."""
    return os.path.lexists(journal_path(root, work))


def is_work_file(relative: str, work: str) -> bool:
    """Whether a path under DEST is the journal, a pending file or a temporary file."""
    return (
        relative == f"{work}/{JOURNAL}"
        or relative.startswith(f"{work}/{PENDING}/")
        or is_temporary(PurePosixPath(relative).name)
    )


def apply_changes(
    root: Path,
    writes: Mapping[str, bytes],
    removals: Iterable[str] = (),
    *,
    work: str = ".panelforge",
) -> None:
    """Update files under ``root`` in place: the old files or the new ones, never lost.

    A failure before the switch leaves ``root`` as it was; a kill during the switch
    leaves the journal, and :func:`finish` completes it. Files not named are never
    touched.
    """
    work_dir = root / work
    made_work = not work_dir.exists()
    pending = work_dir / PENDING
    try:
        work_dir.mkdir(parents=True, exist_ok=True)
        shutil.rmtree(pending, ignore_errors=True)
        pending.mkdir()
        journal = _stage(root, pending, writes, removals)
        _write_journal(work_dir, journal)
    except BaseException as exc:  # a refusal, a failure, Ctrl-C: nothing changed
        shutil.rmtree(pending, ignore_errors=True)
        if made_work:
            shutil.rmtree(work_dir, ignore_errors=True)
        if isinstance(exc, OSError) and not isinstance(exc, OutputError):
            raise OutputError(f"cannot write into '{root}': {exc}") from exc
        raise
    _switch(root, work, journal)
    if made_work:
        _remove_if_empty(work_dir)


def finish(root: Path, work: str) -> bool:
    """Complete the switch an interrupted update left; whether there was one."""
    path = journal_path(root, work)
    if not os.path.lexists(path):
        return False
    try:
        journal = _parse(path.read_bytes())
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise OutputError(
            f"'{path}' (left by an interrupted update) is damaged ({exc}); restore "
            f"'{root}' from version control and remove it"
        ) from exc
    _switch(root, work, journal)
    return True


def sweep(root: Path, work: str, folders: Iterable[str] = ()) -> list[str]:
    """Remove what interrupted runs left (no journal: call :func:`finish` first).

    The pending folder, and temporary files (``.X.panelforge-XXXXXXXX``) in ``work``
    and in ``folders`` (relative to ``root``). Returns what was removed.
    """
    found = leftovers(root, work, folders)
    for relative in found:
        path = root / relative.rstrip("/")
        if relative.endswith("/"):
            shutil.rmtree(path, ignore_errors=True)
        else:
            path.unlink(missing_ok=True)
    return found


def leftovers(root: Path, work: str, folders: Iterable[str] = ()) -> list[str]:
    """What interrupted runs left in ``root``, by relative path (folders end in /)."""
    found = []
    if (root / work / PENDING).is_dir():
        found.append(f"{work}/{PENDING}/")
    for folder in sorted({work, *folders}):
        try:
            entries = list(os.scandir(root / folder))
        except OSError:
            continue
        for entry in entries:
            if is_temporary(entry.name) and not entry.is_dir(follow_symlinks=False):
                found.append(PurePosixPath(folder, entry.name).as_posix())
    return sorted(found)


def _stage(
    root: Path, pending: Path, writes: Mapping[str, bytes], removals: Iterable[str]
) -> dict[str, Any]:
    """Write the new files under ``pending``; the journal that moves them."""
    device = pending.stat().st_dev
    checked: set[Path] = set()
    folders = {pending}
    for relative, data in sorted(writes.items()):
        target = root / relative
        _check_target(root, target, device, checked)
        staged = pending / relative
        staged.parent.mkdir(parents=True, exist_ok=True)
        write_file(target, data, staged, sync=True)
        folders.update(p for p in staged.parents if p.is_relative_to(pending))
    for folder in sorted(folders):  # the files' names are on disk too
        _sync_folder(folder)
    gone = {}
    for relative in sorted(removals):
        try:
            gone[relative] = _sha256((root / relative).read_bytes())
        except (FileNotFoundError, NotADirectoryError, IsADirectoryError):
            continue
    return {"format": _FORMAT, "writes": sorted(writes), "removals": gone}


def _check_target(root: Path, target: Path, device: int, checked: set[Path]) -> None:
    """Refuse, before anything moves, a file the switch could not rename into place."""
    where = target.relative_to(root).as_posix()
    if target.is_dir() and not target.is_symlink():
        raise OutputError(f"cannot write '{where}' in '{root}': it is a folder")
    folder = target.parent
    while not os.path.lexists(folder):
        folder = folder.parent
    if folder in checked:
        return
    if not folder.is_dir():
        raise OutputError(
            f"cannot write '{where}' in '{root}': '{folder}' is not a folder"
        )
    if folder.stat().st_dev != device:
        raise OutputError(
            f"cannot update '{where}' in '{root}' atomically: '{folder}' is on "
            "another filesystem than the project"
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        raise OutputError(f"cannot write into '{folder}': permission denied")
    checked.add(folder)


def _write_journal(work_dir: Path, journal: dict[str, Any]) -> None:
    """The journal, on disk (and its folder's entry) before the first rename."""
    text = json.dumps(journal, indent=1, sort_keys=True) + "\n"
    target = work_dir / JOURNAL
    temp = work_dir / f".{JOURNAL}.panelforge-{secrets.token_hex(4)}"
    write_file(target, text.encode("utf-8"), temp, sync=True)
    temp.replace(target)
    _sync_folder(work_dir)


def _parse(data: bytes) -> dict[str, Any]:
    journal = json.loads(data)
    if journal["format"] != _FORMAT:
        raise ValueError(f"unknown format {journal['format']!r}")
    writes, removals = journal["writes"], journal["removals"]
    if not isinstance(writes, list) or not isinstance(removals, dict):
        raise TypeError("writes must be a list and removals a mapping")
    for path in [*writes, *removals]:
        parts = PurePosixPath(path).parts if isinstance(path, str) else ("..",)
        if not parts or parts[0] == "/" or ".." in parts:
            raise ValueError(f"{path!r} is not a path inside the project")
    if not all(isinstance(digest, str) for digest in removals.values()):
        raise TypeError("removals must map paths to hashes")
    return journal


def _switch(root: Path, work: str, journal: dict[str, Any]) -> None:
    """Move every pending file into place, remove what goes; the journal last."""
    pending = root / work / PENDING
    try:
        for relative in journal["writes"]:
            staged = pending / relative
            if not os.path.lexists(staged):
                continue  # moved before an interruption
            target = root / relative
            _make_parents(root, target)
            staged.replace(target)
            renamed()
        for relative, digest in sorted(journal["removals"].items()):
            target = root / relative
            try:
                data = target.read_bytes()
            except OSError:
                data = None  # removed before an interruption
            if data is not None and _sha256(data) == digest:
                target.unlink()
                renamed()
            _remove_empty_parents(root, target)
        shutil.rmtree(pending, ignore_errors=True)
        journal_path(root, work).unlink()
    except OSError as exc:
        raise OutputError(
            f"could not finish updating '{root}' ({exc}); what is left to do is "
            f"recorded in {work}/{JOURNAL}: fix the cause, then run "
            "'panelforge generate' again to finish"
        ) from exc


def _make_parents(root: Path, target: Path) -> None:
    missing = []
    for parent in target.parents:
        if parent == root or parent.is_dir():
            break
        missing.append(parent)
    for folder in reversed(missing):
        folder.mkdir(exist_ok=True)


def _remove_empty_parents(root: Path, target: Path) -> None:
    for parent in target.parents:
        if parent == root:
            return
        if not _remove_if_empty(parent):
            return


def _remove_if_empty(folder: Path) -> bool:
    try:
        folder.rmdir()
    except OSError:  # not empty, or gone
        return not folder.exists()
    return True


def _sync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:  # pragma: no cover - not every system opens folders
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover
        pass
    finally:
        os.close(fd)


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()
