"""CSV imports: what an upload may be, every row checked first, and the answers.

An import takes a file in the field ``file`` of a multipart form, or a ``text/csv``
body, in UTF-8 (a byte order mark is ignored). Rows whose key exists update that
record; the others (empty or unknown key) create one, with a key the database
allocates (or the row's own, for a string key the client gives). Every row is checked, as a form would be, before anything is written; one
bad row and nothing is. Each framework reads the upload and writes the rows its own
way (in one transaction); the rules and messages come from here.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .csv_text import CsvRow
from .errors import InvalidInput, UnsupportedMediaType, summarize

if TYPE_CHECKING:
    from .inputs import Inputs

MULTIPART = "multipart/form-data"
FILE_FIELD = "file"
_CSV_TYPES = frozenset({"text/csv", "application/csv", "text/plain"})
# (label, key or None to create, checked values): one row ready to be written.
ImportRow = tuple[str, Any, Mapping[str, Any]]


def check_media_type(content_type: str) -> str:
    """The media type of an upload's ``Content-Type``; 415 unless a form or CSV."""
    media_type = content_type.split(";")[0].strip().lower()
    if media_type != MULTIPART and media_type not in _CSV_TYPES:
        raise UnsupportedMediaType(
            "Send the file as multipart/form-data (field 'file') or as text/csv."
        )
    return media_type


def missing_file() -> InvalidInput:
    """The error of a form without the ``file`` field."""
    return InvalidInput({FILE_FIELD: ["The file field is required."]})


def decode(raw: bytes) -> str:
    """The text of an uploaded file, which must be UTF-8."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise InvalidInput({FILE_FIELD: ["The file must be UTF-8 text."]}) from None


def row_keys(rows: Sequence[CsvRow]) -> list[Any]:
    """The keys the rows name (to look up which records exist)."""
    return [row.key for row in rows if row.key is not None]


def check_rows(
    rows: Sequence[CsvRow], existing: Collection[Any], inputs: Inputs
) -> list[ImportRow]:
    """Each row validated as a create or an update; ``InvalidInput`` names the rows."""
    checked: list[ImportRow] = []
    errors: dict[str, list[str]] = {}
    for row in rows:
        update = row.key is not None and row.key in existing
        cells: Mapping[str, Any] = row.values
        if not update and row.key is not None and inputs.client_key is not None:
            cells = {inputs.client_key: row.key, **row.values}
        try:
            values = inputs.from_text(cells, create=not update)
        except InvalidInput as exc:
            errors[row.label] = [m for group in exc.errors.values() for m in group]
            continue
        checked.append((row.label, row.key if update else None, values))
    if errors:
        raise InvalidInput(errors)
    return checked


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
        return InvalidInput({self.label: ["The record conflicts with existing data."]})


def imported(created: int, updated: int) -> dict[str, Any]:
    """The answer to an import that wrote every row."""
    total = created + updated
    message = f"Imported {total} record{'' if total == 1 else 's'}: "
    message += f"{created} created, {updated} updated."
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
        "message": "Nothing was imported: " + first,
        "messageType": "error",
        "errors": dict(errors),
    }
