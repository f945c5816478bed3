"""CSV imports: what an upload may be, every row checked first, and the answers.

An import takes a file in the field ``file`` of a multipart form, or a ``text/csv``
body, in UTF-8 (a byte order mark is ignored). Rows whose key exists update that
record; the others create one. A new record keeps the row's key, so references to it
hold (on PostgreSQL the key sequence then moves past the largest one, so the next
record the database numbers does not collide); with ``keys=assign`` (a query parameter
or a form field) the database allocates the keys of new records instead, as it does
for rows with an empty key. Every row is checked, as a form would be, before anything
is written; one bad row and nothing is. Each framework reads the upload and writes the rows its own
way (in one transaction); the rules and messages come from here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .csv_text import CsvRow
from .errors import InvalidInput, UnsupportedMediaType, summarize
from .translation import gettext

if TYPE_CHECKING:
    from .inputs import Inputs

MULTIPART = "multipart/form-data"
FILE_FIELD = "file"
# The query parameter or form field saying whose keys new records get.
KEYS_FIELD = "keys"
KEEP, ASSIGN = "keep", "assign"
_CSV_TYPES = frozenset({"text/csv", "application/csv", "text/plain"})
# (label, key or None to create, checked values): one row ready to be written.
ImportRow = tuple[str, Any, Mapping[str, Any]]


def check_media_type(content_type: str) -> str:
    """The media type of an upload's ``Content-Type``; 415 unless a form or CSV."""
    media_type = content_type.split(";")[0].strip().lower()
    if media_type != MULTIPART and media_type not in _CSV_TYPES:
        raise UnsupportedMediaType(
            gettext(
                "Send the file as multipart/form-data (field 'file') or as text/csv."
            )
        )
    return media_type


def missing_file() -> InvalidInput:
    """The error of a form without the ``file`` field."""
    return InvalidInput({FILE_FIELD: [gettext("The file field is required.")]})


def decode(raw: bytes) -> str:
    """The text of an uploaded file, which must be UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput(
            {FILE_FIELD: [gettext("The file must be UTF-8 text.")]}
        ) from None


def keeps_keys(choice: str | None) -> bool:
    """Whether new records keep their rows' keys (``keys``: ``keep``, the default)."""
    if choice in (None, "", KEEP):
        return True
    if choice == ASSIGN:
        return False
    message = gettext("The keys field must be %(keep)s or %(assign)s.")
    raise InvalidInput({KEYS_FIELD: [message % {"keep": KEEP, "assign": ASSIGN}]})


def row_keys(rows: Sequence[CsvRow]) -> list[Any]:
    """The keys the rows name (to look up which records exist)."""
    return [row.key for row in rows if row.key is not None]


def check_rows(
    rows: Sequence[CsvRow],
    existing: Collection[Any],
    inputs: Inputs,
    *,
    keep_keys: bool = True,
) -> list[ImportRow]:
    """Each row validated as a create or an update; ``InvalidInput`` names the rows.

    A create keeps its row's key in its values (a generated key only with
    ``keep_keys``).
    """
    checked, errors = check_each(rows, existing, inputs, keep_keys=keep_keys)
    if errors:
        raise InvalidInput(errors)
    return checked


def check_each(
    rows: Sequence[CsvRow],
    existing: Collection[Any],
    inputs: Inputs,
    *,
    keep_keys: bool = True,
) -> tuple[list[ImportRow], dict[str, list[str]]]:
    """``check_rows`` without stopping: the rows ready to write, and every other
    row's errors by its label."""
    checked: list[ImportRow] = []
    errors: dict[str, list[str]] = {}
    for row in rows:
        update = row.key is not None and row.key in existing
        cells: Mapping[str, Any] = row.values
        if inputs.key_parts:  # a composite key's parts: given on create, then kept
            if update:
                cells = {k: v for k, v in cells.items() if k not in inputs.key_parts}
        elif not update and row.key is not None and inputs.client_key is not None:
            cells = {inputs.client_key: row.key, **row.values}
        try:
            values = inputs.from_text(cells, create=not update)
        except InvalidInput as exc:
            errors[row.label] = [m for group in exc.errors.values() for m in group]
            continue
        if not update and row.key is not None and keep_keys and not inputs.key_parts:
            values = {inputs.key_name: row.key, **values}
        checked.append((row.label, row.key if update else None, values))
    return checked, errors


class ImportTally:
    """Writes checked rows one by one and counts them: ``created``, ``updated``.

    Each framework runs ``write`` inside its transaction; a row its database refuses
    (a unique or foreign key constraint, also at commit) is the last row written,
    which ``conflict`` names.
    """

    def __init__(self) -> None:
        self.created = self.updated = 0
        self.label = ""

    def write(
        self,
        rows: Iterable[ImportRow],
        write_row: Callable[[Any, Mapping[str, Any]], list[str]],
    ) -> None:
        """``write_row(key, values)`` for each row; its problems name the row (422)."""
        errors: dict[str, list[str]] = {}
        for label, key, values in rows:
            self.label = label
            problems = write_row(key, values)
            if problems:
                errors[label] = problems
            elif key is None:
                self.created += 1
            else:
                self.updated += 1
        if errors:
            raise InvalidInput(errors)

    def conflict(self) -> InvalidInput:
        """The error of a row the database refused."""
        message = gettext("The record conflicts with existing data.")
        return InvalidInput({self.label: [message]})


class RolledBack(Exception):
    """Raised in an import's transaction to roll it back: a preview's rehearsal."""


def largest_kept_key(rows: Iterable[ImportRow], key_name: str) -> int | None:
    """The largest integer key new records keep (where a sequence must catch up)."""
    kept = [
        values[key_name]
        for _, key, values in rows
        if key is None and isinstance(values.get(key_name), int)
    ]
    return max(kept, default=None)


def sequence_catch_up(table: str, column: str, largest: int) -> str:
    """PostgreSQL: move the key sequence of ``table`` past ``largest``, never back.

    Names are the panel's own (identifiers checked by panelforge) and ``largest`` an
    integer, so the statement needs no parameters (both drivers run it as is). The
    table is quoted: PostgreSQL reads that argument as SQL, folding ``Artist`` to
    ``artist``; the column is taken as it is.
    """
    sequence = f"pg_get_serial_sequence('\"{table}\"', '{column}')"
    return (
        f"SELECT setval({sequence}, {int(largest)}) WHERE {int(largest)} > "
        f"COALESCE(pg_sequence_last_value({sequence}::regclass), 0)"
    )


def imported(
    created: int, updated: int, nouns: tuple[str, str] = ("record", "records")
) -> dict[str, Any]:
    """The answer to an import that wrote every row; ``nouns``: what a record is
    called, one and many (the pages name the resource's)."""
    total = created + updated
    counts = {"created": created, "updated": updated, "total": total}
    message = gettext(
        "Imported %(total)s %(noun)s: %(created)s created, %(updated)s updated."
    ) % {**counts, "noun": nouns[0] if total == 1 else nouns[1]}
    return {
        "message": message,
        "messageType": "success",
        "created": created,
        "updated": updated,
    }


def error_lines(errors: Mapping[str, list[str]]) -> list[str]:
    """Every message of a refused import, each naming its row ("Row 3: …")."""
    return [
        message if label == FILE_FIELD else f"{label.capitalize()}: {message}"
        for label, messages in errors.items()
        for message in messages
    ]


def refused(errors: Mapping[str, list[str]]) -> dict[str, Any]:
    """The answer to an import that wrote nothing: the first error names its row."""
    first = summarize({"rows": error_lines(errors)})
    return {
        "message": gettext("Nothing was imported: %(first)s") % {"first": first},
        "messageType": "error",
        "errors": dict(errors),
    }


def record_gone(label: str, key: Any) -> str:
    """The problem of an import row updating a record that is not there (any more)."""
    return gettext("%(label)s %(key)s not found.") % {"label": label, "key": key}
