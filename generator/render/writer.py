"""The only module that writes the destination: stage beside it, then move into place.

A failure at any step before the final rename leaves the destination exactly as it was,
and no staging folder behind. Regeneration updates a project in place instead
(:func:`apply_changes`): temporary files beside their targets, then renames.
"""

from __future__ import annotations

import os
import secrets
import shutil
import stat
import tempfile
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from ..errors import OutputError


def check_destination(dest: Path, *, force: bool) -> None:
    """Refuse a destination that is a file, or a non-empty folder without ``force``."""
    if dest.exists() and not dest.is_dir():
        raise OutputError(f"output path '{dest}' exists and is not a directory")
    if dest.is_dir() and any(dest.iterdir()) and not force:
        raise OutputError(
            f"output directory '{dest}' is not empty (use --force to replace it)"
        )


@contextmanager
def staging_area(dest: Path) -> Iterator[Path]:
    """A fresh folder on the destination's filesystem, removed unless committed."""
    parent = dest.resolve().parent
    try:
        parent.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=f".{dest.name}.panelforge-", dir=parent))
    except OSError as exc:
        raise OutputError(f"cannot write beside '{dest}': {exc.strerror}") from exc
    try:
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
    """Swap ``stage`` in as ``dest``; the old ``dest``, if any, is removed after."""
    dest = dest.resolve()
    backup: Path | None = None
    try:
        if dest.exists():
            backup = Path(
                tempfile.mkdtemp(prefix=f".{dest.name}.old-", dir=dest.parent)
            )
            backup.rmdir()  # only its unique name was needed
            dest.replace(backup)
        stage.replace(dest)
    except OSError as exc:
        if backup is not None and not dest.exists():
            backup.replace(dest)
        raise OutputError(f"cannot move the new project into '{dest}': {exc}") from exc
    if backup is not None:
        shutil.rmtree(backup, ignore_errors=True)


def write_files_atomically(directory: Path, files: Mapping[str, str]) -> list[Path]:
    """Write each file through a temporary sibling and a rename; return the paths."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(f"cannot create '{directory}': {exc.strerror}") from exc
    if not directory.is_dir():
        raise OutputError(f"output path '{directory}' is not a directory")
    written = []
    for name, text in sorted(files.items()):
        target = directory / name
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=f".{name}.")
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
        Path(tmp).replace(target)
        written.append(target)
    return written


def _temp_beside(target: Path, data: bytes) -> Path:
    """Write ``data`` to a new file beside ``target`` (mode as a new file, or as it)."""
    mode = stat.S_IMODE(target.stat().st_mode) if target.is_file() else 0o666
    temp = target.with_name(f".{target.name}.panelforge-{secrets.token_hex(4)}")
    fd = os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        if target.is_file():
            temp.chmod(mode)  # the umask may have narrowed it
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    return temp


def _make_parents(root: Path, target: Path, created: list[Path]) -> None:
    missing = []
    for parent in target.parents:
        if parent == root or parent.is_dir():
            break
        missing.append(parent)
    for folder in reversed(missing):
        folder.mkdir()
        created.append(folder)


def apply_changes(
    root: Path, writes: Mapping[str, bytes], removals: Iterable[str] = ()
) -> None:
    """Update files under ``root`` in place, all or (almost) nothing.

    Every new content is first written to a temporary file beside its target; only
    when all are written are they renamed over their targets (a rename on the same
    filesystem does not fail halfway), then ``removals`` are deleted. A failure while
    writing leaves ``root`` as it was. Files not named are never touched.
    """
    staged: list[tuple[Path, Path]] = []
    created: list[Path] = []
    try:
        for relative, data in sorted(writes.items()):
            target = root / relative
            _make_parents(root, target, created)
            staged.append((_temp_beside(target, data), target))
    except OSError as exc:
        for temp, _target in staged:
            temp.unlink(missing_ok=True)
        for folder in reversed(created):
            shutil.rmtree(folder, ignore_errors=True)
        raise OutputError(f"cannot write into '{root}': {exc}") from exc
    for temp, target in staged:
        temp.replace(target)
    for relative in sorted(removals):
        target = root / relative
        target.unlink(missing_ok=True)
        _remove_empty_parents(root, target)


def _remove_empty_parents(root: Path, target: Path) -> None:
    for parent in target.parents:
        if parent == root:
            return
        try:
            parent.rmdir()
        except OSError:  # not empty
            return
