"""Pure name functions: URI keys, modules, tables, classes, routes, operationIds.

Every name the emitted projects use is composed here, once, so both targets, the URL
helpers and the spec agree.
"""

from __future__ import annotations

import hashlib
import keyword
import re
from functools import cache

_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")

# Route names, MoonShine's without the "moonshine." prefix.
CRUD_ROUTES = (
    "crud.index",
    "crud.show",
    "crud.store",
    "crud.update",
    "crud.destroy",
    "crud.massDelete",
)


def words(name: str) -> list[str]:
    """Split ``BookAuthor``, ``book_author`` or ``book-author`` into words."""
    return list(_words(name))


@cache
def _words(name: str) -> tuple[str, ...]:
    # Names recur across a project's files: split each once.
    parts: list[str] = []
    for chunk in re.split(r"[_\-\s]+", name):
        parts += [p.lower() for p in _CAMEL_BOUNDARY.split(chunk) if p]
    return tuple(parts)


def kebab(name: str) -> str:
    """``BookResource`` → ``book-resource``; ``IndexPage`` → ``index-page``."""
    return "-".join(words(name))


def snake(name: str) -> str:
    """``BookAuthor`` → ``book_author``."""
    return "_".join(words(name))


def module_name(name: str) -> str:
    """A resource's Python module: ``BookAuthor`` → ``book_author``; a keyword gets a
    trailing underscore, ``Class`` → ``class_`` (PEP 8's way)."""
    module = snake(name)
    return module + "_" if keyword.iskeyword(module) else module


def pascal(name: str) -> str:
    """``book_author`` → ``BookAuthor``."""
    return "".join(w.capitalize() for w in words(name))


def camel(name: str) -> str:
    """``book-resource`` → ``bookResource``."""
    pascal_name = pascal(name)
    return pascal_name[:1].lower() + pascal_name[1:]


def resource_uri(name: str) -> str:
    """Default URI key of a resource: kebab case of the name plus ``-resource``."""
    return kebab(name) + "-resource"


def plural(word: str) -> str:
    """Naive English plural, enough for table names: ``category`` → ``categories``."""
    if re.search(r"[^aeiou]y$", word):
        return word[:-1] + "ies"
    if re.search(r"(s|x|z|ch|sh)$", word):
        return word + "es"
    return word + "s"


def table_name(name: str) -> str:
    """Default table: snake-case plural, ``BookAuthor`` → ``book_authors``."""
    parts = words(name)
    if not parts:  # not a name at all: the manifest checks report it
        return name
    parts[-1] = plural(parts[-1])
    return "_".join(parts)


@cache
def humanize(name: str) -> str:
    """``published_on`` → ``Published on`` (default field label)."""
    text = " ".join(words(name))
    return text[:1].upper() + text[1:]


def operation_id(resource_uri_key: str, route: str) -> str:
    """Stable, unique operationId: ``bookResourceCrudUpdate``."""
    return camel(resource_uri_key) + pascal(route.replace(".", "_"))


def unique_name(table: str, fields: tuple[str, ...]) -> str:
    """``uq_books_author_title``: a unique group's constraint, at most 63 characters
    (PostgreSQL's limit), shortened with a digest of the full name when longer."""
    name = "_".join(("uq", table, *fields))
    if len(name) <= 63:
        return name
    digest = hashlib.sha1(name.encode(), usedforsecurity=False).hexdigest()[:8]
    return f"{name[:54]}_{digest}"
