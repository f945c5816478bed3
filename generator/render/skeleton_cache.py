"""The rendered project skeleton, remembered by everything that determines it.

copier costs ~0.4 s to import and ~0.3-1 s to render the skeleton (it runs git once per
file), though the skeleton depends only on the template's files, the answers and
copier's version. A regeneration that changes none of them reads the skeleton from
here. Like the black cache, it may only change speed, never bytes.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import tempfile
from collections.abc import Mapping
from importlib import metadata
from pathlib import Path
from typing import Any

from ..paths import is_template_noise

_FORMAT = "2"  # 2: the skeleton includes templates/project/_shared/


def skeleton_key(template: Path, data: Mapping[str, Any]) -> str:
    """SHA-256 of copier's version, the answers and every template file."""
    digest = hashlib.sha256()
    digest.update(f"{_FORMAT}\0copier {metadata.version('copier')}\0".encode())
    digest.update(json.dumps(data, sort_keys=True, default=str).encode())
    for path in sorted(template.rglob("*")):
        if path.is_file() and not is_template_noise(path.relative_to(template)):
            relative = path.relative_to(template).as_posix()
            mode = path.stat().st_mode & 0o777
            digest.update(f"\0{relative}\0{mode:o}\0".encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()


class SkeletonCache:
    """Rendered skeletons on disk; ``None`` turns the cache off."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path | None:
        return None if self.directory is None else self.directory / f"{key}.json"

    def get(self, key: str) -> dict[str, bytes] | None:
        """The files stored under ``key``, if any (a damaged entry is a miss)."""
        path = self._path(key)
        if path is None:
            return None
        try:
            stored = json.loads(path.read_text(encoding="utf-8"))
            return {p: base64.b64decode(d) for p, d in stored["files"].items()}
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, files: Mapping[str, bytes]) -> None:
        """Store a skeleton; a cache that cannot be written is silently skipped."""
        path = self._path(key)
        if path is None:
            return
        encoded = {p: base64.b64encode(d).decode("ascii") for p, d in files.items()}
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump({"files": encoded}, handle, sort_keys=True)
            Path(tmp).replace(path)
        except OSError:
            return
