"""Stored files around a record's write: stored first, removed once obsolete.

:class:`FileWrites` checks and stores a request's uploads under fresh keys before the
record is written; if the write fails (refused, rolled back), ``discard`` removes them
again, so nothing is left in storage. Once the transaction has committed, the files
the record held before and holds no more (replaced or cleared) are removed, and so are
those of deleted records; never before the commit, so a rolled-back change keeps its
files. A delete for good runs in ``files_removed_after``: the files of the records it
deletes, its own and those its delete rules erase with them (a cascade, through
``erased``), are removed once it has returned, its transaction committed.

A form clears a file with ``<field>_clear`` (the edit form's checkbox); JSON clients
send ``null``. A file part without a file (a browser's empty file input) changes
nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

from . import fields as kernel
from .files import StoredFile, from_column, new_key, original_name
from .storage import Storage
from .uploads import Spooled, check_file

CLEAR_SUFFIX = "_clear"
Written = TypeVar("Written")
# The column values of the files the delete running in this context erases.
_ERASED: ContextVar[list[Any] | None] = ContextVar("panel_erased_files", default=None)


class FileWrites:
    """The files one request stores, and those its write makes obsolete."""

    def __init__(
        self, storage: Storage, resource_uri: str, specs: Sequence[kernel.File]
    ) -> None:
        self.storage = storage
        self.resource_uri = resource_uri
        self.specs = tuple(specs)
        self.stored: list[str] = []

    def store(self, uploads: Mapping[str, Spooled]) -> dict[str, StoredFile]:
        """Check and store each upload; the stored files by field (422 if one is
        refused: nothing stays in storage)."""
        found: dict[str, StoredFile] = {}
        try:
            for spec in self.specs:
                upload = uploads.get(spec.name)
                if upload is None:
                    continue
                media_type = check_file(upload, spec)
                key = new_key(self.resource_uri, spec.name, upload.filename)
                self.storage.save(key, upload.content)
                self.stored.append(key)
                name = original_name(upload.filename)
                found[spec.name] = StoredFile(key, name, upload.size, media_type)
        except BaseException:
            self.discard()
            raise
        return found

    def discard(self) -> None:
        """Remove what this request stored: its write was refused or rolled back."""
        for key in self.stored:
            self.storage.delete(key)
        self.stored.clear()

    def run(
        self,
        write: Callable[[], Written],
        before: Mapping[str, Any] | None = None,
    ) -> Written:
        """``write()`` (a create or an update, committed when it returns); the files
        stored for it removed if it fails, and those of ``before`` it made obsolete
        removed once it succeeded."""
        try:
            written = write()
        except BaseException:
            self.discard()
            raise
        self.stored.clear()
        if before is not None and isinstance(written, Mapping):
            self.committed(before, written)
        return written

    def committed(self, before: Mapping[str, Any], after: Mapping[str, Any]) -> None:
        """After the commit: remove the files ``before`` held that ``after`` does not."""
        for name in (spec.name for spec in self.specs):
            old, new = from_column(before.get(name)), from_column(after.get(name))
            if old is not None and (new is None or new.key != old.key):
                self.storage.delete(old.key)


def form_pairs_with_files(
    pairs: list[tuple[str, str]],
    stored: Mapping[str, StoredFile],
    specs: Sequence[kernel.File],
) -> list[tuple[str, Any]]:
    """A form's fields with its files: a file field's own text left out (an empty
    file input), ``<field>_clear`` as null, an uploaded file as its stored file."""
    names = {f.name for f in specs}
    clears = {name + CLEAR_SUFFIX: name for name in names}
    kept: list[tuple[str, Any]] = []
    for name, value in pairs:
        if name in names or name.startswith("_"):  # the form's own: _token, _method
            continue
        if name in clears:
            if value not in ("", "0", "false", "off"):
                kept.append((clears[name], None))
            continue
        kept.append((name, value))
    kept += list(stored.items())
    return kept


@contextmanager
def files_removed_after(storage: Storage) -> Iterator[list[Any]]:
    """Run a delete for good: the files of the list it gives (column values) and those
    ``erased`` meanwhile are removed once the block has returned (its transaction
    committed); none if it raised."""
    found: list[Any] = []
    token = _ERASED.set(found)
    try:
        yield found
    finally:
        _ERASED.reset(token)
    for value in found:
        stored = from_column(value)
        if stored is not None:
            storage.delete(stored.key)


def erased(values: Iterable[Any]) -> None:
    """The file column values of records a delete erases: removed once it committed
    (in ``files_removed_after``; elsewhere, kept)."""
    found = _ERASED.get()
    if found is not None:
        found.extend(values)
