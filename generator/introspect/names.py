"""Manifest names for database names: resources from tables, fields from columns (pure).

A name that cannot be used as it is (PascalCase, spaces, a reserved word) becomes a
usable one; the caller then maps it to the real table or column.
"""

from __future__ import annotations

import re

from ..manifest.identifiers import (
    SNAKE,
    field_problem,
    project_problem,
    resource_problem,
)
from ..model import naming

_NOT_WORD = re.compile(r"[^A-Za-z0-9_\-\s]+")
# Plural endings that drop "es", not just "s": boxes, classes, batches, wishes.
_ES_PLURAL = re.compile(r"(xes|zes|ches|shes|sses|uses)$")


def singular(word: str) -> str:
    """Naive English singular, the inverse of ``naming.plural`` for table names."""
    if re.search(r"[^aeiou]ies$", word):
        return word[:-3] + "y"
    if _ES_PLURAL.search(word):
        return word[:-2]
    if word.endswith("s") and not re.search(r"(ss|us|is)$", word):
        return word[:-1]
    return word


def _snake_words(name: str) -> list[str]:
    return naming.words(_NOT_WORD.sub(" ", name))


def resource_name(table: str, taken: set[str]) -> str:
    """A PascalCase resource name for ``table``, unique without regard to case."""
    parts = _snake_words(table) or ["table"]
    parts[-1] = singular(parts[-1])
    name = "".join(p.capitalize() for p in parts)
    if not name[:1].isalpha():
        name = "Table" + name
    if resource_problem(name):
        name += "Record"
    return _unique(name, taken, lower=True)


def field_name(column: str, taken: set[str]) -> str:
    """A snake_case field name for ``column``, not reserved, unique in ``taken``."""
    name = "_".join(_snake_words(column)) or "column"
    name = re.sub("_+", "_", name).strip("_")
    if not name[:1].isalpha():
        name = "field_" + name
    if name == "id" or field_problem(name):
        name += "_value"
    if field_problem(name):
        name = "field_" + name
    return _unique(name, taken, lower=False)


def _unique(name: str, taken: set[str], *, lower: bool) -> str:
    def seen(candidate: str) -> bool:
        return (candidate.lower() if lower else candidate) in taken

    candidate, number = name, 2
    while seen(candidate):
        candidate, number = f"{name}{'' if lower else '_'}{number}", number + 1
    taken.add(candidate.lower() if lower else candidate)
    return candidate


def project_name(database: str) -> str:
    """``<database>_admin`` as a project name, or ``inspected_admin``."""
    base = "_".join(_snake_words(database))
    name = f"{base}_admin" if base else "inspected_admin"
    if not SNAKE.fullmatch(name) or project_problem(name):
        return "inspected_admin"
    return name


def is_table_name(name: str) -> bool:
    """Whether ``name`` can be written as ``table:`` or ``column:`` as it is: a
    letter, then letters, digits and underscores (PascalCase included)."""
    return bool(re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name))
