"""CHECK constraints a manifest can say: a column limited to a list of values (pure).

``status IN ('draft', 'published')`` (SQLite, MySQL/MariaDB) and PostgreSQL's
spelling of it, ``(status)::text = ANY (ARRAY['draft'::character varying, …])``,
become the field's ``enum``; any other CHECK is left to a note.
"""

from __future__ import annotations

import re

_NAME = r"[`\"]?(\w+)[`\"]?"
_CAST = r"(?:::[\w\s\[\]\"]+)?"
# A list's items: quoted strings (which may hold "]" or ")"), or anything but those.
_ITEMS = r"((?:'(?:[^'\\]|''|\\.)*'|[^\])'])*)"
_IN_LIST = re.compile(
    rf"\(*\s*{_NAME}\s+IN\s*\({_ITEMS}\)\s*\)*", re.IGNORECASE | re.DOTALL
)
_ANY_ARRAY = re.compile(
    rf"\(*\s*\(?{_NAME}\)?{_CAST}\s*=\s*ANY\s*\(\s*\(?ARRAY\[{_ITEMS}\]\)?{_CAST}"
    r"\s*\)\s*\)*",
    re.IGNORECASE | re.DOTALL,
)
_VALUE = re.compile(rf"\s*(?:'((?:[^'\\]|''|\\.)*)'|(-?\d+)){_CAST}\s*(?:,|$)")


def enum_check(sql: str) -> tuple[str, list[str | int]] | None:
    """``(column, values)`` when ``sql`` only limits one column to listed values."""
    found = _IN_LIST.fullmatch(sql.strip()) or _ANY_ARRAY.fullmatch(sql.strip())
    if found is None:
        return None
    values = _values(found.group(2))
    return None if not values else (found.group(1), values)


def _values(text: str) -> list[str | int] | None:
    values: list[str | int] = []
    position = 0
    while position < len(text):
        found = _VALUE.match(text, position)
        if found is None or found.end() == position:
            return None
        if found.group(1) is not None:
            raw = found.group(1).replace("''", "'")
            values.append(re.sub(r"\\(.)", r"\1", raw))
        else:
            values.append(int(found.group(2)))
        position = found.end()
    kinds = {type(v) for v in values}
    if len(kinds) != 1 or len(set(values)) != len(values):
        return None
    return values
