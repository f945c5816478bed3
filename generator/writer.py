"""The only module that writes the destination: stage beside it, then move into place.

A failure at any step before the final rename leaves the destination exactly as it was,
and no staging folder behind.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from .errors import OutputError


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


def write_tree(root: Path, files: Mapping[str, str]) -> None:
    """Write text files under ``root`` (LF line endings, UTF-8), creating folders."""
    for relative, text in sorted(files.items()):
        target = root / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        with target.open("w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)


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
