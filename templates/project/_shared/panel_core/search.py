"""Search that folds case in every script, on SQLite too.

PostgreSQL and MySQL fold case in every script (``ILIKE``, ``LOWER()``); SQLite's
``LIKE`` and ``lower()`` fold ASCII only, so ``ünïcode`` would miss "Ünïcode". Each
store registers ``fold`` as the SQLite function ``FOLD_FUNCTION`` and, for a search
term that is not all ASCII, compares both sides folded (``FOLD_FUNCTION`` on SQLite,
``LOWER`` elsewhere). ASCII terms keep the database's own case-insensitive ``LIKE``:
no Python call per row.
"""

from __future__ import annotations

FOLD_FUNCTION = "panel_fold"


def fold(value: object) -> object:
    """``value`` in lower case when it is text (SQLite calls this per row).

    ``str.lower``, not ``casefold``: the same folding as the database servers'
    ``LOWER()`` (``ß`` stays ``ß``), so a search finds the same rows on every database.
    """
    return value.lower() if isinstance(value, str) else value


def needs_folding(term: str) -> bool:
    """Whether ``term`` needs both sides folded (the database's LIKE would miss)."""
    return not term.isascii()
