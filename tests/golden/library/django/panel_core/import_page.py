"""The import page: upload a CSV file, preview what it would do, then confirm.

``GET …/import-page`` shows the upload form. It posts the file to ``…/handler/import``
with ``dry_run=1``: the answer is a preview, written by nothing — how many rows would
create a record and how many would update one, and a table of every row's errors
(malformed rows, values a form would refuse, and what the database checks: unique
values, related records). A preview runs the import in a transaction it rolls back,
the ``before_*`` hooks included; the ``after_*`` hooks run on the real import only.

A preview without errors carries the file's text forward to its confirm form
(base64, in the hidden field ``content``, when small enough for a form field; else
the confirm form asks for the file again). The confirm step trusts nothing of it:
the import checks every row again and writes all of them in one transaction, or none.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .csv_text import CsvError, CsvRow, parse_rows
from .errors import InvalidInput
from .imports import (
    FILE_FIELD,
    KEYS_FIELD,
    ImportRow,
    check_each,
    decode,
    missing_file,
    row_keys,
)
from .registry import PanelResource
from .routes import url_for
from .translation import gettext
from .urls import page_url

if TYPE_CHECKING:
    from .inputs import Inputs

PREVIEW_FIELD = "dry_run"
# The confirm form's field holding the previewed file's text.
CONTENT_FIELD = "content"
# The most base64 text a confirm form carries: a form field, unlike a file, must
# fit in the body limit of a form (Django's DATA_UPLOAD_MAX_MEMORY_SIZE, the
# FastAPI panel's multipart field limit).
CARRY_LIMIT = 512 * 1024
_ROW_NUMBER = re.compile(r"row (\d+)")


@dataclass(frozen=True)
class Preview:
    """What an import would do: rows creating and updating records, and every
    row's errors by its label (in file order)."""

    create: int
    update: int
    errors: Mapping[str, list[str]] = field(default_factory=dict)


def previewing(value: str | None) -> bool:
    """Whether ``dry_run`` asks for a preview (``1``, ``true``, ``on``)."""
    return (value or "").strip().lower() in ("1", "true", "on")


def preview(
    rows: Sequence[CsvRow],
    existing: Collection[Any],
    inputs: Inputs,
    rehearse: Callable[[list[ImportRow]], None],
    *,
    keep_keys: bool = True,
    malformed: Mapping[str, list[str]] | None = None,
) -> Preview:
    """Every row checked, and the good ones written in a transaction rolled back.

    ``rehearse(rows)`` is the store's import without its commit; an ``InvalidInput``
    it raises names rows the database refuses. ``malformed``: the rows the CSV
    reader could not read (``csv_text.parse_rows``).
    """
    checked, errors = check_each(rows, existing, inputs, keep_keys=keep_keys)
    errors.update(malformed or {})
    if checked:
        try:
            rehearse(checked)
        except InvalidInput as exc:
            errors.update(exc.errors)
    update = sum(1 for row in rows if row.key is not None and row.key in existing)
    create = len(rows) - update
    return Preview(create, update, dict(sorted(errors.items(), key=_file_order)))


def _file_order(item: tuple[str, list[str]]) -> tuple[int, str]:
    found = _ROW_NUMBER.fullmatch(item[0])
    return (int(found[1]) if found else 0, item[0])


def carry_limit(body_limit: int) -> int:
    """The most a confirm form carries where forms' bodies may be ``body_limit``
    bytes (``MAX_BODY_SIZE``; half of it, the rest for the other fields)."""
    return min(CARRY_LIMIT, body_limit // 2)


def carry(text: str, limit: int = CARRY_LIMIT) -> str | None:
    """The file's text for the confirm form; ``None`` when over ``limit``."""
    encoded = base64.b64encode(text.encode("utf-8")).decode("ascii")
    return encoded if len(encoded) <= limit else None


def carried(value: str) -> str:
    """The text a confirm form carried back (``InvalidInput`` if it was altered
    into something else than base64 of UTF-8)."""
    try:
        return base64.b64decode(value.encode("ascii"), validate=True).decode("utf-8")
    except (UnicodeError, binascii.Error, ValueError):
        raise InvalidInput(
            {
                FILE_FIELD: [
                    gettext("The file's content could not be read; upload it again.")
                ]
            }
        ) from None


def previewed(result: Preview) -> dict[str, Any]:
    """A preview as a JSON client reads it (nothing was written)."""
    ok = not result.errors
    message = f"Nothing was imported (a preview): {result.create} to create, "
    message += f"{result.update} to update"
    message += "." if ok else f"; {len(result.errors)} rows have errors."
    return {
        "message": message,
        "messageType": "success" if ok else "error",
        "create": result.create,
        "update": result.update,
        "errors": dict(result.errors),
    }


def nouns(panel: PanelResource[Any]) -> tuple[str, str]:
    """What one record and many are called on the pages: "Book", "Books"."""
    one = panel.store.label
    return one, type(panel.resource).title or one


def import_context(
    panel: PanelResource[Any],
    *,
    result: Preview | None = None,
    text: str | None = None,
    keep_keys: bool = True,
    limit: int = CARRY_LIMIT,
) -> dict[str, Any]:
    """The import page: the upload form; with ``result``, the preview of ``text``
    (its counts, its error table, and the confirm form when nothing is wrong,
    carrying ``text`` up to ``limit``: ``carry_limit``)."""
    resource = type(panel.resource)
    one, many = nouns(panel)
    index = page_url(panel.uri, "index-page")
    total = 0 if result is None else result.create + result.update
    errors = [] if result is None else _error_rows(result.errors)
    return {
        "resource": resource,
        "heading": gettext("Import %(records)s") % {"records": many},
        "crumbs": [(resource.title, index)],
        "index_url": index,
        "action": url_for(
            "handler", {"resourceUri": panel.uri, "handlerUri": "import"}
        ),
        "preview_field": PREVIEW_FIELD,
        "content_field": CONTENT_FIELD,
        "keys_field": KEYS_FIELD,
        "assign_keys": not keep_keys,
        "preview": result,
        "error_rows": errors,
        "error_count": 0 if result is None else len(result.errors),
        "confirm": result is not None and not result.errors and total > 0,
        "carried": carry(text, limit) if text is not None else None,
        "confirm_label": gettext("Import %(count)s %(records)s")
        % {"count": total, "records": one if total == 1 else many},
    }


def _error_rows(errors: Mapping[str, list[str]]) -> list[dict[str, str]]:
    """The error table: one line per message, its row named once per row."""
    return [
        {
            "row": label.capitalize() if label != FILE_FIELD else gettext("File"),
            "message": m,
        }
        for label, messages in errors.items()
        for m in messages
    ]


def upload_text(raw: bytes | None, fields: Mapping[str, str]) -> str:
    """The CSV text of an upload form: its file, else the text a preview's confirm
    form carried (``content``)."""
    if raw is not None:
        return decode(raw)
    if fields.get(CONTENT_FIELD):
        return carried(fields[CONTENT_FIELD])
    raise missing_file()


def preview_text(
    panel: PanelResource[Any],
    text: str,
    existing: Callable[[list[Any]], Collection[Any]],
    rehearse: Callable[[list[ImportRow]], None],
    *,
    keep_keys: bool,
) -> Preview:
    """The preview of the CSV ``text``; ``existing(keys)``: which of the keys name
    records the user may reach (the store's ``existing_keys``)."""
    try:
        rows, malformed = parse_rows(type(panel.resource), text)
    except CsvError as exc:
        return Preview(0, 0, exc.errors)
    keys = row_keys(rows)
    return preview(
        rows,
        existing(keys) if keys else set(),
        panel.inputs,
        rehearse,
        keep_keys=keep_keys,
        malformed=malformed,
    )
