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
import marshal
import re
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path

from ..errors import TemplateError
from ..paths import write_cache_file

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
_KEPT_PREFIXES = ("", "b", "r", "rb", "br")
# A keyword argument (or parameter default) that is one plain double-quoted string,
# alone on its line with its trailing comma: an item of a bracket black already
# exploded one per line. Wider than the limit, black cannot split it and leaves it.
_LONE_KEYWORD_STRING = re.compile(r'(?: {4})+[A-Za-z_][A-Za-z0-9_]*="[^"\\\n]*",')
_NARROW = re.compile("[\x00-\u10ff\u1160-\u2319]")


def looks_black_stable(source: str) -> bool:
    """Whether the render of a black-stable template can be kept as it is.

    False when a line is wider than black's limit (measured as black measures it, or
    wider: east-asian wide and unassigned characters count two columns; a lone
    ``name="text",`` line excepted, which black leaves as it is), ends in a
    space, or holds a tab, a carriage return, a form feed or a vertical tab, or when a
    string literal is one black would requote or unescape: the ways a manifest value
    could make black change a render that is otherwise black's output.
    """
    if any(c in source for c in "\t\r\f\v"):
        return False
    for line in source.split("\n"):
        if line.endswith(" "):
            return False
        if _width(line) > LINE_LENGTH and not _LONE_KEYWORD_STRING.fullmatch(line):
            return False
    if "'" not in source and "\\" not in source:
        return True
    return all(
        _keeps_its_quotes(source, m) for m in _STRINGS_AND_COMMENTS.finditer(source)
    )


def _width(line: str) -> int:
    """At least black's ``str_width`` of ``line`` (tests/unit/test_format.py).

    Latin, Greek, Cyrillic and the other scripts up to U+10FF, and U+1160-U+2319
    (Latin extended, general punctuation, currency, arrows) are one column, as black
    counts them; any other character counts two, which black never exceeds.
    """
    if line.isascii():
        return len(line)
    return sum(1 if _NARROW.match(char) else 2 for char in line)


def _keeps_its_quotes(source: str, match: re.Match[str]) -> bool:
    """Whether black leaves this comment or string literal as it is.

    A string in double quotes stays unless it escapes a quote (black would drop the
    escape or requote it). One in single quotes, plain or with a ``b``, ``r``, ``rb``
    or ``br`` prefix, stays when it holds a double quote and no backslash (black never
    adds escapes). Other prefixes and triple single quotes count as changed.
    """
    text = match.group()
    if text.startswith("#") or text.startswith('"""'):
        return True
    if text.startswith('"'):
        return "\\'" not in text and '\\"' not in text
    if text.startswith("'''"):
        return False
    start = end = match.start()
    while start and (source[start - 1].isalnum() or source[start - 1] == "_"):
        start -= 1
    if source[start:end] not in _KEPT_PREFIXES:
        return False
    body = text[1:-1]
    return '"' in body and "\\" not in body


class FormatCache:
    """black's outputs on disk, keyed by what determines them.

    With a ``name`` (one per project), every output of a run is kept in one file, the
    outputs of the last run under that name: a cold run writes one file instead of one
    per formatted file, and a regeneration reads one. Without one, each output is a
    file of its own.
    """

    def __init__(self, directory: Path | None, name: str | None = None) -> None:
        self.directory = directory
        self.ledger: Path | None = None
        if directory is not None and name is not None:
            digest = hashlib.sha256(name.encode("utf-8")).hexdigest()
            self.ledger = directory / "runs" / digest
        self._stored: dict[str, str] | None = None  # the ledger, once read
        self._used: dict[str, str] = {}

    def _path(self, key: str) -> Path | None:
        if self.directory is None:
            return None
        return self.directory / key[:2] / key

    def _ledger_entries(self) -> dict[str, str]:
        if self._stored is None:
            self._stored = _read_ledger(self.ledger) if self.ledger else {}
        return self._stored

    def get(self, key: str) -> str | None:
        """The cached output for ``key``, if any."""
        if self.ledger is not None:
            found = self._ledger_entries().get(key)
            if found is not None:
                self._used[key] = found
            return found
        path = self._path(key)
        if path is None:
            return None
        try:
            return path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return None

    def put(self, key: str, text: str) -> None:
        """Store an output; a cache that cannot be written is silently skipped."""
        if self.ledger is not None:
            self._used[key] = text
            return
        path = self._path(key)
        if path is not None:
            write_cache_file(path, text.encode("utf-8"))

    def flush(self) -> None:
        """Write the ledger: the outputs this run used, unless they were all there."""
        if self.ledger is None or self._used == self._ledger_entries():
            return
        write_cache_file(self.ledger, marshal.dumps(self._used))


def _read_ledger(path: Path) -> dict[str, str]:
    try:
        found = marshal.loads(path.read_bytes())
    except (OSError, EOFError, ValueError, TypeError):
        return {}
    if not isinstance(found, dict):
        return {}
    return {k: v for k, v in found.items() if isinstance(v, str)}


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
        formatted = {
            path: self.format(path, text) if path.endswith(".py") else text
            for path, text in sources.items()
        }
        self.cache.flush()
        return formatted


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
