"""Writes a project (nothing else does): a new one is staged beside DEST, swapped in.

A new project (or ``--force``) is written into ``.DEST.panelforge-XXXXXXXX`` beside
DEST and moved into place by a rename (with ``--force``, DEST first moves aside to
``.DEST.old-XXXXXXXX``, removed afterwards). A failure at any step leaves DEST as it was
and no staging folder behind; a killed run leaves them, and the next run into the same
DEST restores DEST from its backup if the kill fell between the two renames, then
removes them (:func:`sweep_beside`). Regeneration updates a project in place instead,
through a journal (:mod:`generator.render.journal`).

Every run writing DEST holds a lock on it (:func:`locked`, an ``flock`` of the folder,
released by the kernel when the process dies), and each staging folder holds one on
itself: what is locked belongs to a live run and is never swept. Folders are made with
the mode the umask gives (a DEST that exists keeps its own).
"""

from __future__ import annotations

import os
import re
import secrets
import shutil
import stat
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from ..errors import OutputError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no locks
    fcntl = None  # type: ignore[assignment]

# Tests append a callable here to stop a run right after a rename (a simulated kill).
RENAME_HOOKS: list[Callable[[], None]] = []
_TEMPORARY = re.compile(r"\..+\.panelforge-[a-z0-9_]{8}")


def renamed() -> None:
    """Called after each rename that switches a project from old to new."""
    for hook in RENAME_HOOKS:
        hook()


def is_temporary(name: str) -> bool:
    """Whether ``name`` is a panelforge temporary file's (``.X.panelforge-…``)."""
    return _TEMPORARY.fullmatch(name) is not None


def check_destination(dest: Path, *, force: bool) -> None:
    """Refuse a destination that is a file, or a non-empty folder without ``force``."""
    if dest.exists() and not dest.is_dir():
        raise OutputError(f"output path '{dest}' exists and is not a directory")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise OutputError(
            f"output directory '{dest}' is not empty (use --force to replace it)"
        )


def _try_lock(fd: int, shared: bool) -> bool:
    if fcntl is None:  # pragma: no cover
        return True
    try:
        fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


@contextmanager
def locked(folder: Path) -> Iterator[None]:
    """Hold ``folder``'s lock for the block; another run holding it is an error.

    Nothing to lock (``folder`` is not a folder, or cannot be opened): no lock.
    """
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        yield
        return
    try:
        if not _try_lock(fd, shared=False):
            raise OutputError(
                f"another panelforge run is writing '{folder}'; wait for it to "
                "finish, then try again"
            )
        yield
    finally:
        os.close(fd)


def in_use(folder: Path) -> bool:
    """Whether a live run holds ``folder``'s lock (a missing folder is not in use)."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return False
    try:
        return not _try_lock(fd, shared=True)
    finally:
        os.close(fd)


def new_folder(parent: Path, prefix: str) -> Path:
    """A new folder ``parent/<prefix><8 hex digits>``, with the umask's mode."""
    while True:
        folder = parent / f"{prefix}{secrets.token_hex(4)}"
        try:
            folder.mkdir(0o777)
            return folder
        except FileExistsError:  # pragma: no cover - 2**32 names
            continue


def _beside(dest: Path) -> tuple[list[Path], list[Path]]:
    """The staging folders and backups of runs into ``dest`` found beside it."""
    name = re.escape(dest.name)
    stage = re.compile(rf"\.{name}\.panelforge-[a-z0-9_]{{8}}")
    backup = re.compile(rf"\.{name}\.old-[a-z0-9_]{{8}}")
    stages, backups = [], []
    try:
        entries = sorted(os.scandir(dest.parent), key=lambda e: e.name)
    except OSError:
        return [], []
    for entry in entries:
        if stage.fullmatch(entry.name):
            stages.append(Path(entry.path))
        elif backup.fullmatch(entry.name):
            backups.append(Path(entry.path))
    return stages, backups


def left_beside(dest: Path) -> list[Path]:
    """What killed runs into ``dest`` left beside it (live runs' folders excepted)."""
    stages, backups = _beside(dest.resolve())
    return [p for p in stages + backups if not in_use(p)]


def sweep_beside(dest: Path) -> tuple[list[Path], Path | None]:
    """Remove what killed runs into ``dest`` left beside it; ``(removed, restored)``.

    A run killed between its two renames left no DEST, and the old one as its backup:
    the backup becomes DEST again (``restored``), as if that run had not started.
    """
    dest = dest.resolve()
    stages, backups = _beside(dest)
    dead_backups = [p for p in backups if not in_use(p)]
    restored = None
    if not os.path.lexists(dest) and dead_backups:
        restored = max(dead_backups, key=lambda p: p.stat().st_mtime_ns)
        restored.replace(dest)
        dead_backups.remove(restored)
    removed = []
    for folder in [p for p in stages if not in_use(p)] + dead_backups:
        shutil.rmtree(folder, ignore_errors=True)
        removed.append(folder)
    return removed, restored


@contextmanager
def staging_area(dest: Path) -> Iterator[Path]:
    """A fresh, locked folder beside ``dest`` (same filesystem), removed at the end."""
    dest = dest.resolve()
    parent = dest.parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        stage = new_folder(parent, f".{dest.name}.panelforge-")
    except OSError as exc:
        raise OutputError(f"cannot write beside '{dest}': {exc.strerror}") from exc
    try:
        with locked(stage):
            yield stage
    finally:
        shutil.rmtree(stage, ignore_errors=True)


def write_tree(root: Path, files: Mapping[str, str | bytes]) -> None:
    """Write files under ``root`` (text: UTF-8, LF line endings), creating folders."""
    for relative, content in sorted(files.items()):
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            target.write_bytes(content)
            continue
        with target.open("w", encoding="utf-8", newline="\n") as handle:
            handle.write(content)


def replace_directory(stage: Path, dest: Path) -> None:
    """Swap ``stage`` in as ``dest``; the old ``dest``, if any, is removed after.

    The caller holds ``dest``'s lock (:func:`locked`): it follows the old folder into
    its backup, which stays a live run's until the end.
    """
    dest = dest.resolve()
    backup: Path | None = None
    try:
        if dest.exists():
            stage.chmod(stat.S_IMODE(dest.stat().st_mode))
            backup = dest.with_name(f".{dest.name}.old-{secrets.token_hex(4)}")
            dest.replace(backup)
            renamed()
        stage.replace(dest)
        renamed()
    except OSError as exc:
        if backup is not None and not dest.exists():
            backup.replace(dest)
        raise OutputError(f"cannot move the new project into '{dest}': {exc}") from exc
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)


def write_file(target: Path, data: bytes, temp: Path, *, sync: bool = False) -> None:
    """Write ``data`` to the new file ``temp``, with ``target``'s mode if it is a file
    (else a new file's under the umask); ``sync``: on disk before returning."""
    existing = target.is_file()
    mode = stat.S_IMODE(target.stat().st_mode) if existing else 0o666
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        if existing:
            temp.chmod(mode)  # the umask may have narrowed it
    except BaseException:
        temp.unlink(missing_ok=True)
        raise


def write_files_atomically(directory: Path, files: Mapping[str, bytes]) -> list[Path]:
    """Write each file through a temporary sibling and a rename; return the paths."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create '{directory}': {exc.strerror}") from exc
    if not directory.is_dir():
        raise OutputError(f"output path '{directory}' is not a directory")
    written = []
    for name, data in sorted(files.items()):
        target = directory / name
        temp = target.with_name(f".{name}.panelforge-{secrets.token_hex(4)}")
        try:
            write_file(target, data, temp)
            temp.replace(target)
        except OSError as exc:
            temp.unlink(missing_ok=True)
            raise OutputError(f"cannot write '{target}': {exc.strerror}") from exc
        written.append(target)
    return written


def write_new_file(target: Path, text: str, *, force: bool = False) -> Path:
    """Write ``text`` to ``target`` through a temporary sibling; an existing file is
    refused unless ``force`` (then replaced in one rename)."""
    if target.is_dir():
        raise OutputError(f"'{target}' is a directory")
    if target.exists() and not force:
        raise OutputError(f"'{target}' exists (use --force to replace it)")
    temp = target.with_name(f".{target.name}.panelforge-{secrets.token_hex(4)}")
    try:
        write_file(target, text.encode("utf-8"), temp, sync=True)
        if force:
            temp.replace(target)
        else:
            os.link(temp, target)  # fails if the file appeared meanwhile
    except FileExistsError as exc:
        raise OutputError(f"'{target}' exists (use --force to replace it)") from exc
    except OSError as exc:
        raise OutputError(f"cannot write '{target}': {exc.strerror}") from exc
    finally:
        temp.unlink(missing_ok=True)
    return target
