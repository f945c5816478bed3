"""A rerun with nothing to do, recognised without rendering anything.

A finished run stamps the state it left in DEST (a file in the runs cache named by
:func:`generator.regen.state.run_key`); the next regeneration with the same panelforge,
manifest bytes and arguments finds the stamp and, when DEST still is what that run
wrote (:func:`generator.regen.state.as_recorded`), stops before all the work.
"""

from __future__ import annotations

import os
from pathlib import Path

from .changes import Update
from .state import MANIFEST_COPY, STATE_FILE, as_recorded, parse_state, run_key


def run_options(manifest: Path, dest: Path, framework: str | None) -> str:
    """What of a run's arguments, besides the manifest's bytes, shapes its output."""
    copy = dest / MANIFEST_COPY
    is_copy = copy.is_file() and manifest.resolve() == copy.resolve()
    return "\0".join((os.fsdecode(manifest), str(is_copy), framework or ""))


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
    is what it wrote (:func:`generator.regen.state.as_recorded`); else ``None``: run it.
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
        state = parse_state(recorded)
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
