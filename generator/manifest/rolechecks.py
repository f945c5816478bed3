"""Semantic checks of ``roles``: role names, the resources they name, the abilities.

A role maps ``"*"`` (every resource) or a declared resource to the abilities it grants:
the CRUD abilities every resource has, plus the names of that resource's async methods
(for ``"*"``, of any resource's) and, on a resource with ``soft_delete``, the trash's
``restore`` and ``force_delete`` (``"*"`` may always grant them: they apply where there
is a trash). ``admin`` is built in and may not be declared. Every problem here is
M034; the schema has already checked the shape (mappings of lists of strings, entries
unique).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

from ..errors import Issue
from ..model.ir import ABILITIES, ADMIN_ROLE, ALL_RESOURCES, TRASH_ABILITIES
from .hints import shown, suggestion_hint
from .yamlnodes import Document

CODE = "M034"
ROLE_NAME = re.compile(r"[a-z][a-z0-9_]*")


def role_issues(document: Document, roles: Any, resources: Any) -> Iterator[Issue]:
    """Every problem of the manifest's ``roles`` (``resources``: as declared)."""
    if not isinstance(roles, dict):
        return
    # Without valid resources the grants cannot be checked: their problem says enough.
    methods = _methods(resources) if isinstance(resources, dict) else None
    for name, grants in roles.items():
        yield from _name_issues(document, name)
        if isinstance(grants, dict) and methods is not None:
            for where, abilities in grants.items():
                path = ("roles", name, where)
                yield from _grant_issues(document, path, abilities, methods)


def _methods(resources: dict[str, Any]) -> dict[str, tuple[str, ...]]:
    """Each resource's own abilities (valid async method names, the trash's), and
    every one under ``*``."""
    found: dict[str, tuple[str, ...]] = {}
    for name, spec in resources.items():
        options = spec if isinstance(spec, dict) else {}
        listed = options.get("methods")
        items = listed if isinstance(listed, list) else []
        trash = TRASH_ABILITIES if options.get("soft_delete") is True else ()
        declared = options.get("actions")
        actions = tuple(declared) if isinstance(declared, dict) else ()
        found[name] = (*(m for m in items if isinstance(m, str)), *trash, *actions)
    every = dict.fromkeys(m for names in found.values() for m in names)
    every.update(dict.fromkeys(TRASH_ABILITIES))
    return {ALL_RESOURCES: tuple(every), **found}


def _name_issues(document: Document, name: str) -> Iterator[Issue]:
    path = ("roles", name)
    if name == ADMIN_ROLE:
        message = "'admin' is built in (it may do everything), so it cannot be declared"
        yield document.issue(path, message, CODE, "remove it", key=True)
    elif not ROLE_NAME.fullmatch(name):
        message = f"{shown(name)} is not a role name, like 'editor'"
        hint = "a role name is lower case: letters, digits and '_', a letter first"
        yield document.issue(path, message, CODE, hint, key=True)


def _grant_issues(
    document: Document,
    path: tuple[str, str, str],
    abilities: Any,
    methods: dict[str, tuple[str, ...]],
) -> Iterator[Issue]:
    where = path[-1]
    if where not in methods:
        declared = [n for n in methods if n != ALL_RESOURCES]
        hint = suggestion_hint(where, declared, "use '*' or one of")
        message = f"refers to {shown(where)}, which is not a resource"
        yield document.issue(path, message, CODE, hint, key=True)
        return
    known = (*ABILITIES, *methods[where])
    scope = "any resource" if where == ALL_RESOURCES else f"'{where}'"
    items = abilities if isinstance(abilities, list) else []
    for index, ability in enumerate(items):
        if isinstance(ability, str) and ability not in known:
            message = f"{shown(ability)} is not an ability of {scope}"
            hint = suggestion_hint(ability, list(known), "abilities are")
            if ability in TRASH_ABILITIES:
                hint = (
                    f"only a resource with a trash has it: soft_delete: true on {scope}"
                )
            yield document.issue((*path, index), message, CODE, hint)
