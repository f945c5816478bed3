"""The history of changes: one row per record created, updated or deleted.

Each framework's store writes the rows in the transaction of the change it records
(FastAPI's ``app.core.history``, Django's ``panel.history``), so a change and its row
commit or roll back together. This module decides what a row says: who acted, on
which record, and each changed field as ``[old, new]`` in its JSON form. A secret
(a write-only field, a password) is recorded as changed with no values (``None``).
An update that changes nothing has no row.
"""

from __future__ import annotations

import datetime
import decimal
import hashlib
import json
import re
import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from .files import StoredFile
from .labels import record_label
from .resource import Resource

CREATED = "created"
UPDATED = "updated"
DELETED = "deleted"
TRASHED = "trashed"
RESTORED = "restored"
# A record's history on its detail page, and the dashboard's recent changes.
PER_RECORD = 20
RECENT = 10
# A secret's change: recorded, with no values.
HIDDEN = None
# The longest login and record name a row keeps (the columns' sizes).
LOGIN_SIZE = 254
LABEL_SIZE = 200
# The record key column's size: a longer key is kept as its start and a digest.
KEY_SIZE = 200
_DIGEST_MARK = "…#"

Changes = dict[str, list[Any] | None]
# ``prune-history --older-than``: a number and a unit.
_AGE = re.compile(r"([0-9]{1,6})([mhdw])")
_UNITS = {"m": "minutes", "h": "hours", "d": "days", "w": "weeks"}


@dataclass(frozen=True)
class Entry:
    """One row of the history, before it is written."""

    resource: str
    record_key: str
    record_label: str
    action: str
    changes: Changes
    user_id: str | None
    user_login: str
    at: datetime.datetime = field(
        default_factory=lambda: datetime.datetime.now(datetime.UTC)
    )


def stored_key(key: Any) -> str:
    """A record's key as its history rows hold it: its text (a composite key's URL
    segment), or, past ``KEY_SIZE`` characters, its start and a SHA-256 digest of
    the whole, so that every key fits the column and finds its own rows."""
    text = str(key)
    if len(text) <= KEY_SIZE:
        return text
    digest = hashlib.sha256(text.encode()).hexdigest()
    return text[: KEY_SIZE - len(digest) - len(_DIGEST_MARK)] + _DIGEST_MARK + digest


def is_whole_key(text: str) -> bool:
    """Whether a row's ``record_key`` is the key itself (not cut to fit)."""
    return not (len(text) == KEY_SIZE and text[-66:-64] == _DIGEST_MARK)


def row_values(entry: Entry) -> dict[str, Any]:
    """The columns of ``entry``'s row; the changes as JSON text."""
    changes = json.dumps(entry.changes, ensure_ascii=False, separators=(",", ":"))
    return {
        "at": entry.at,
        "user_id": entry.user_id,
        "user_login": entry.user_login,
        "resource": entry.resource,
        "record_key": entry.record_key,
        "record_label": entry.record_label,
        "action": entry.action,
        "changes": changes,
    }


def who(user: Any) -> tuple[str | None, str]:
    """The user's id and login (e-mail address) as a row keeps them."""
    if user is None:
        return None, ""
    key = getattr(user, "pk", None)
    if key is None:
        key = getattr(user, "id", None)
    login = getattr(user, "email", "") or getattr(user, "username", "") or ""
    return (None if key is None else str(key)), str(login)[:LOGIN_SIZE]


def json_value(value: Any) -> Any:
    """``value`` as JSON: dates as ISO text (date-times in UTC), decimals as text,
    a stored file as its name."""
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime.datetime):  # naive ones are stored in UTC
        if value.tzinfo is None:
            return value.replace(tzinfo=datetime.UTC).isoformat()
        return value.astimezone(datetime.UTC).isoformat()
    if isinstance(value, datetime.date | datetime.time | uuid.UUID):
        return str(value) if isinstance(value, uuid.UUID) else value.isoformat()
    if isinstance(value, decimal.Decimal):
        return format(value, "f")
    if isinstance(value, StoredFile):  # a file by its name
        return value.name
    if isinstance(value, list | tuple | set | frozenset):
        return sorted((json_value(v) for v in value), key=str)
    return str(value)


def changed_fields(
    resource: type[Resource],
    before: Mapping[str, Any] | None,
    after: Mapping[str, Any] | None,
    written: Mapping[str, Any] = {},  # noqa: B006 - read only
) -> Changes:
    """Each field but the key whose value differs between ``before`` and ``after``
    (``None``: no record), as ``[old, new]``; secrets in ``written`` as changed,
    with no values."""
    changes: Changes = {}
    names = [f.name for f in resource.fields if not f.key] + [
        m.name for m in resource.many_to_many
    ]
    secrets = {f.name for f in resource.fields if f.write_only}
    for name in names:
        if name in secrets:
            if written.get(name) not in (None, ""):
                changes[name] = HIDDEN
            continue
        if after is not None and name not in after:
            continue  # not written, not read back
        old = json_value((before or {}).get(name))
        new = json_value((after or {}).get(name))
        if old != new:
            changes[name] = [old, new]
    return changes


def entry(
    resource: type[Resource],
    key: Any,
    record: Mapping[str, Any],
    action: str,
    user: Any,
    changes: Changes,
) -> Entry:
    """The row of ``action`` on the record ``key`` (``record``: its values)."""
    user_id, login = who(user)
    label = record_label(resource, key, record)[:LABEL_SIZE]
    return Entry(resource.uri, stored_key(key), label, action, changes, user_id, login)


def created(
    resource: type[Resource],
    record: Mapping[str, Any],
    written: Mapping[str, Any],
    user: Any,
) -> Entry:
    """The row of a record created: every value it was given."""
    key = resource.key_of(record)
    changes = changed_fields(resource, None, record, written)
    return entry(resource, key, record, CREATED, user, changes)


def updated(
    resource: type[Resource],
    before: Mapping[str, Any],
    after: Mapping[str, Any],
    written: Mapping[str, Any],
    user: Any,
) -> Entry | None:
    """The row of an update, or ``None`` when it changed nothing."""
    changes = changed_fields(resource, before, after, written)
    if not changes:
        return None
    key = resource.key_of(after)
    return entry(resource, key, after, UPDATED, user, changes)


def removed(
    resource: type[Resource], record: Mapping[str, Any], action: str, user: Any
) -> Entry:
    """The row of a record deleted, moved to the trash or restored (no fields)."""
    return entry(resource, resource.key_of(record), record, action, user, {})


def cascaded(
    resource: type[Resource], records: Iterable[Mapping[str, Any]], user: Any
) -> list[Entry]:
    """The rows of records a delete rule deletes along with the one deleted."""
    return [removed(resource, record, DELETED, user) for record in records]


def cleared(
    resource: type[Resource],
    records: Iterable[Mapping[str, Any]],
    field_name: str,
    user: Any,
) -> list[Entry | None]:
    """The rows of records whose reference a delete rule clears (``set_null``)."""
    written = {field_name: None}
    return [
        updated(resource, record, {**record, **written}, written, user)
        for record in records
    ]


def parse_age(text: str) -> datetime.timedelta:
    """``90d`` as a duration (units ``m``, ``h``, ``d``, ``w``), else ``ValueError``."""
    found = _AGE.fullmatch(text.strip())
    if found is None:
        raise ValueError(
            f"'{text}' is not a duration: write a number and a unit "
            "(m, h, d or w), as 90d, 12h or 2w"
        )
    number, unit = found.groups()
    return datetime.timedelta(**{_UNITS[unit]: int(number)})


def prune_message(removed: int, before: datetime.datetime) -> str:
    """What ``prune-history`` prints: how many rows it removed, made before when."""
    rows = "row" if removed == 1 else "rows"
    when = before.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M")
    return f"removed {removed} history {rows} from before {when} UTC"
