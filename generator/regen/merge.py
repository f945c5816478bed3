"""Three-way merge of one file with ``git merge-file``: the user's edits are kept.

``base`` is what panelforge generated last time, ``ours`` the file as the user has it,
``theirs`` what panelforge generates now. Where both changed the same lines the result
holds conflict markers::

    <<<<<<< yours
    ...the user's lines...
    =======
    ...the new generated lines...
    >>>>>>> generated

git is on every machine that develops or builds the project; it is needed only when a
file was edited on both sides.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from ..errors import OutputError

LABELS = ("yours", "previous generation", "generated")
CONFLICT_START = b"<<<<<<< "
# Larger files and minified ones (swagger-ui's bundles) are replaced, never merged.
MAX_MERGE_BYTES = 256 * 1024
MAX_MERGE_LINE = 2000


@dataclass(frozen=True)
class MergeResult:
    """The merged bytes and how many conflicting regions they contain."""

    data: bytes
    conflicts: int


def is_text(data: bytes) -> bool:
    """Whether ``data`` is UTF-8 text a line merge can handle."""
    if b"\0" in data:
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def is_mergeable(data: bytes) -> bool:
    """Whether a line merge of ``data`` makes sense: text, and not a bundled asset."""
    if len(data) > MAX_MERGE_BYTES or not is_text(data):
        return False
    return max(map(len, data.split(b"\n"))) <= MAX_MERGE_LINE


def has_conflict_markers(data: bytes) -> bool:
    """Whether ``data`` holds an unresolved conflict (a line opening one)."""
    return data.startswith(CONFLICT_START) or b"\n" + CONFLICT_START in data


def _git() -> str:
    git = shutil.which("git")
    if git is None:
        raise OutputError(
            "merging your edits with the new output needs git, which was not found "
            "on PATH; install git, or regenerate with --force (your edits are then "
            "replaced)"
        )
    return git


def merge_three_way(base: bytes, ours: bytes, theirs: bytes) -> MergeResult:
    """Merge the changes from ``base`` to ``theirs`` into ``ours``."""
    if ours == theirs or theirs == base:
        return MergeResult(ours, 0)
    if ours == base:
        return MergeResult(theirs, 0)
    git = _git()
    with tempfile.TemporaryDirectory(prefix="panelforge-merge-") as tmp:
        paths = []
        for name, data in (("ours", ours), ("base", base), ("theirs", theirs)):
            path = Path(tmp) / name
            path.write_bytes(data)
            paths.append(str(path))
        labels = [arg for label in LABELS for arg in ("-L", label)]
        result = subprocess.run(
            # The conflict style is fixed so output does not depend on git config.
            [git, "-c", "merge.conflictStyle=merge", "merge-file", "-p"]
            + labels
            + paths,
            capture_output=True,
            check=False,
        )
    if result.returncode < 0 or result.returncode > 127:
        message = result.stderr.decode("utf-8", "replace").strip()
        raise OutputError(f"git merge-file failed: {message}")
    return MergeResult(result.stdout, result.returncode)
