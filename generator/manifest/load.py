"""Load a YAML manifest into a checked :class:`generator.model.ir.Project`.

::

    bytes ── size, UTF-8 ──► text ── yamlnodes ──► Document (values + positions)
      ── schema ──► shape issues ── checks ──► semantic issues ── build ──► Project

Problems of the first two steps raise :class:`ManifestSyntaxError`; the schema and
semantic checks run together and raise every problem at once as
:class:`ManifestInvalidError`. Nothing else escapes, whatever the input.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path

from ..errors import Issue, ManifestInvalidError, ManifestSyntaxError
from ..model import ir
from .build import build_project
from .checks import semantic_issues
from .composer import compose
from .decimals import exact_values
from .schema import CleanResources, schema_issues
from .yamlnodes import line_column

MAX_BYTES = 1024 * 1024

__all__ = ["MAX_BYTES", "load_manifest", "parse_manifest"]


def load_manifest(
    path: str | os.PathLike[str],
    *,
    display_name: str | None = None,
    cache_dir: Path | None = None,
) -> ir.Project:
    """Read, check and resolve the manifest file at ``path``.

    With ``cache_dir``, resources that passed the schema before are not checked
    again (:class:`generator.manifest.schema.CleanResources`); the outcome is the same.
    """
    file = display_name if display_name is not None else os.fsdecode(path)
    try:
        data = _read(path)
    except NotAFileError as exc:
        message = f"cannot read the file: it is not a regular file but {exc.kind}"
        hint = "pass the manifest's file itself (a FIFO or device could block)"
        raise ManifestSyntaxError(file, [_issue(file, message, "M000", hint)]) from None
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise ManifestSyntaxError(
            file, [_issue(file, f"cannot read the file: {reason}", "M000")]
        ) from None
    if len(data) > MAX_BYTES:
        raise ManifestSyntaxError(file, [_too_large(file)])
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ManifestSyntaxError(file, [_not_utf8(file, data, exc)]) from None
    return parse_manifest(text, file, cache_dir=cache_dir)


def parse_manifest(
    text: str, file_name: str, *, cache_dir: Path | None = None
) -> ir.Project:
    """Check and resolve manifest ``text``; ``file_name`` names it in messages."""
    if len(text) > MAX_BYTES or len(text.encode("utf-8", "surrogatepass")) > MAX_BYTES:
        raise ManifestSyntaxError(file_name, [_too_large(file_name)])
    document = compose(text, file_name)
    if document.issues:
        raise ManifestSyntaxError(file_name, _distinct(document.issues))
    if document.value is None:
        hint = "a manifest needs at least 'project' and 'resources'"
        raise ManifestInvalidError(
            file_name, [_issue(file_name, "the manifest is empty", "M015", hint)]
        )
    issues = schema_issues(document, CleanResources(cache_dir))
    issues += semantic_issues(document)
    if issues:
        raise ManifestInvalidError(file_name, _distinct(issues))
    return build_project(exact_values(document), re.split(r"[\\/]", file_name)[-1])


class NotAFileError(OSError):
    """The manifest path names a FIFO, a device or a socket."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


def _read(path: str | os.PathLike[str]) -> bytes:
    """The file's first ``MAX_BYTES + 1`` bytes; only a regular file is read.

    Opened without blocking, so a FIFO without a writer cannot hang the command;
    a FIFO, a device or a socket is refused (:class:`NotAFileError`).
    """
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(descriptor, "rb") as stream:
        mode = os.fstat(stream.fileno()).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR))
        if not stat.S_ISREG(mode):
            raise NotAFileError(_kind(mode))
        return stream.read(MAX_BYTES + 1)


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a device"


def _issue(file: str, message: str, code: str, hint: str | None = None) -> Issue:
    return Issue(1, 1, "", message, code, hint, file)


def _too_large(file: str) -> Issue:
    hint = "a manifest this large is a mistake; check you passed the right file"
    return _issue(file, "the file is larger than 1 MiB", "M006", hint)


def _not_utf8(file: str, data: bytes, exc: UnicodeDecodeError) -> Issue:
    before = data[: exc.start].decode("utf-8-sig", errors="replace")
    line, column = line_column(before, len(before))
    message = f"byte 0x{data[exc.start]:02x} is not UTF-8"
    return Issue(line, column, "", message, "M007", "save the file as UTF-8", file)


def _distinct(issues: Iterable[Issue]) -> list[Issue]:
    """Drop repeats, so no two issues differ only in their hint (they sort safely)."""
    seen: dict[tuple[int, int, str, str, str], Issue] = {}
    for issue in issues:
        seen.setdefault(
            (issue.line, issue.column, issue.path, issue.message, issue.code), issue
        )
    return list(seen.values())
