"""black, the formatter of record: in-process, behind a syntax gate, cached by content.

The cache maps (black version, mode, SHA-256 of the input) to black's output, so a warm
regeneration formats nothing. It may only change speed, never bytes.
"""

from __future__ import annotations

import ast
import hashlib
import os
import tempfile
from collections.abc import Mapping
from functools import cache
from pathlib import Path

from .errors import TemplateError

LINE_LENGTH = 88


class FormatCache:
    """black's outputs on disk, keyed by what determines them."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory

    def _path(self, key: str) -> Path | None:
        if self.directory is None:
            return None
        return self.directory / key[:2] / key

    def get(self, key: str) -> str | None:
        """The cached output for ``key``, if any."""
        path = self._path(key)
        if path is None:
            return None
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def put(self, key: str, text: str) -> None:
        """Store an output; a cache that cannot be written is silently skipped."""
        path = self._path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
            with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
                handle.write(text)
            Path(tmp).replace(path)
        except OSError:
            return


class Formatter:
    """Formats Python sources with black, consulting a cache first."""

    def __init__(self, cache: FormatCache) -> None:
        self.cache = cache

    @staticmethod
    def _key(source: str) -> str:
        # The installed version is read from package metadata, so a warm run never
        # pays for importing black.
        digest = hashlib.sha256()
        digest.update(_black_fingerprint().encode())
        digest.update(b"\0")
        digest.update(source.encode("utf-8"))
        return digest.hexdigest()

    def format(self, path: str, source: str) -> str:
        """black's rendering of ``source``; syntax errors name the file."""
        key = self._key(source)
        cached = self.cache.get(key)
        if cached is not None:
            return cached
        try:
            ast.parse(source, filename=path)
        except SyntaxError as exc:
            raise TemplateError(
                f"{path}:{exc.lineno}: generated code is not Python ({exc.msg}).\n"
                "This is a bug in panelforge; please report it with your manifest."
            ) from exc
        formatted = _format_str(source)
        self.cache.put(key, formatted)
        return formatted

    def format_all(self, sources: Mapping[str, str]) -> dict[str, str]:
        """Format every ``.py`` entry; other files pass through unchanged."""
        return {
            path: self.format(path, text) if path.endswith(".py") else text
            for path, text in sources.items()
        }


@cache
def _black_fingerprint() -> str:
    from importlib.metadata import version

    return f"black {version('black')} py311 {LINE_LENGTH}"


def _format_str(source: str) -> str:
    import black  # imported only on a cache miss: it costs ~0.2 s

    mode = black.Mode(
        target_versions={black.TargetVersion.PY311}, line_length=LINE_LENGTH
    )
    return black.format_str(source, mode=mode)
