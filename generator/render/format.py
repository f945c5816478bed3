"""black, the formatter of record: in-process, behind a syntax gate, cached by content.

The cache maps (black version, mode, SHA-256 of the input) to black's output, so a warm
regeneration formats nothing. It may only change speed, never bytes.

Files rendered from templates the target declares black-stable (their render is
black's output: ``tests/unit/test_templates_black.py`` and ``tests/unit/test_format.py``
prove it) skip black unless :func:`looks_black_stable` finds one of the few things a
manifest value could bring that black would change (a line too long or too wide,
trailing whitespace, a tab, a single-quoted string); those go through black. Either way
the bytes are black's.
"""

from __future__ import annotations

import ast
import hashlib
import os
import re
import tempfile
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path

from ..errors import TemplateError

LINE_LENGTH = 88
# Comments and string literals, met left to right as the tokenizer meets them (string
# prefixes aside): a match that opens with a single quote is a string black may
# requote. Triple quotes come first, so that three quotes are not read as two and one.
_STRINGS_AND_COMMENTS = re.compile(
    r"#[^\n]*"
    r'|"""(?:\\.|[^\\])*?"""'
    r"|'''(?:\\.|[^\\])*?'''"
    r'|"(?:\\.|[^"\\\n])*"'
    r"|'(?:\\.|[^'\\\n])*'",
    re.DOTALL,
)
_ASCII_LINE = re.compile(r"[\x00-\x7f]*\Z")


def looks_black_stable(source: str) -> bool:
    """Whether the render of a black-stable template can be kept as it is.

    False when a line is longer than black's limit (non-ASCII characters count
    double, as wide ones do for black), ends in a space, or holds a tab, a carriage
    return, a form feed or a vertical tab, or when a string literal is single-quoted:
    the ways a manifest value could make black change a render that is otherwise
    black's output.
    """
    if any(c in source for c in "\t\r\f\v"):
        return False
    for line in source.split("\n"):
        width = len(line) if _ASCII_LINE.match(line) else 2 * len(line)
        if width > LINE_LENGTH or line.endswith(" "):
            return False
    if "'" not in source:
        return True
    return not any(
        m.group().startswith("'") for m in _STRINGS_AND_COMMENTS.finditer(source)
    )


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
    """Formats Python sources with black, consulting a cache first.

    ``trusted`` holds the paths rendered from black-stable templates, which skip black
    when :func:`looks_black_stable` agrees.
    """

    def __init__(self, cache: FormatCache, trusted: Collection[str] = ()) -> None:
        self.cache = cache
        self.trusted = trusted

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
        _check_syntax(path, source)
        if path in self.trusted and looks_black_stable(source):
            formatted = source
        else:
            formatted = _format_str(source)
        self.cache.put(key, formatted)
        return formatted

    def format_all(self, sources: Mapping[str, str]) -> dict[str, str]:
        """Format every ``.py`` entry; other files pass through unchanged."""
        return {
            path: self.format(path, text) if path.endswith(".py") else text
            for path, text in sources.items()
        }


def _check_syntax(path: str, source: str) -> None:
    """Parse first: a syntax error names the file instead of surfacing from black."""
    try:
        ast.parse(source, filename=path)
    except SyntaxError as exc:
        raise TemplateError(
            f"{path}:{exc.lineno}: generated code is not Python ({exc.msg}).\n"
            "This is a bug in panelforge; please report it with your manifest."
        ) from exc


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
