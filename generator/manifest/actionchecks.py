"""A resource's ``actions`` and ``bulk_update`` (M045, M044).

An action's name is a snake_case identifier, the name of its function in the hooks
module and of its ability, so it may clash with nothing a resource already has: its
async methods, the names every resource class defines, the abilities roles grant,
the words of the trash's routes, or the ``set_<field>`` actions of ``bulk_update``
(M045). Its fields are checked as a resource's fields are; its ``required`` names
its own fields (M045). ``bulk_update`` lists existing fields clients may write, never
the key (M044).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from ..errors import Issue
from .fieldchecks import field_issues
from .fieldvalues import FieldContext, field_type
from .hints import shown, suggestion_hint
from .identifiers import field_problem, method_problem
from .yamlnodes import Document

ACTION_CODE = "M045"
BULK_UPDATE_CODE = "M044"
# The trash's route words: ``…/crud/<key>/restore`` would take ``…/crud/actions/…``.
_ROUTE_WORDS = frozenset({"restore", "force", "actions", "trash", "handler"})
SET_PREFIX = "set_"


def action_issues(
    document: Document,
    resource: str,
    spec: Any,
    key_types: Mapping[str, str | None],
) -> Iterator[Issue]:
    """Every problem of the resource's ``actions`` and ``bulk_update``."""
    options = spec if isinstance(spec, dict) else {}
    actions = options.get("actions")
    if isinstance(actions, dict):
        methods = options.get("methods")
        taken = set(methods) if isinstance(methods, list) else set()
        for name, action in actions.items():
            path = ("resources", resource, "actions", name)
            yield from _name_issues(document, path, str(name), taken)
            if isinstance(action, dict):
                yield from _field_issues(document, path, action, key_types)
    yield from _bulk_update_issues(document, resource, options)


def _name_issues(
    document: Document, path: tuple[Any, ...], name: str, methods: set[Any]
) -> Iterator[Issue]:
    problem = method_problem(name)
    if problem is not None:
        message, hint = problem
        yield document.issue(path, message, ACTION_CODE, hint, key=True)
        return
    reason = None
    if name in methods:
        reason = "an async method of this resource (methods) has that name"
    elif name in _ROUTE_WORDS:
        reason = "the panel's routes use that word"
    elif name.startswith(SET_PREFIX):
        reason = "names starting with 'set_' are bulk_update's actions"
    if reason is not None:
        message = f"{shown(name)} cannot name an action: {reason}"
        yield document.issue(
            path, message, ACTION_CODE, "please choose another name", key=True
        )


def _field_issues(
    document: Document,
    path: tuple[Any, ...],
    action: dict[str, Any],
    key_types: Mapping[str, str | None],
) -> Iterator[Issue]:
    fields = action.get("fields")
    fields = fields if isinstance(fields, dict) else {}
    required = action.get("required")
    required = required if isinstance(required, list) else []
    for name, spec in fields.items():
        problem = field_problem(str(name))
        if problem is not None:
            message, hint = problem
            where = (*path, "fields", name)
            yield document.issue(where, message, ACTION_CODE, hint, key=True)
        if not isinstance(spec, dict) or field_type(spec) is None:
            continue
        context = FieldContext(
            document,
            (*path, "fields", name),
            spec,
            field_type(spec) or "",
            name in required,
            key_types,
        )
        yield from field_issues(context)
    for index, name in enumerate(required):
        if isinstance(name, str) and name not in fields:
            message = f"{shown(name)} is not a field of this action"
            hint = suggestion_hint(name, list(fields), "its fields are")
            yield document.issue((*path, "required", index), message, ACTION_CODE, hint)


def _bulk_update_issues(
    document: Document, resource: str, options: dict[str, Any]
) -> Iterator[Issue]:
    listed = options.get("bulk_update")
    fields = options.get("fields")
    if not isinstance(listed, list) or not isinstance(fields, dict):
        return
    key = options.get("key", "id")
    readonly = options.get("readonly")
    readonly = set(readonly) if isinstance(readonly, list) else set()
    writable = [
        name
        for name, spec in fields.items()
        if name != key
        and name not in readonly
        and not (isinstance(spec, dict) and spec.get("readOnly") is True)
    ]
    for index, name in enumerate(listed):
        if not isinstance(name, str):
            continue
        path = ("resources", resource, "bulk_update", index)
        if name == key:
            message = f"{shown(name)} is the key: a key never changes"
            yield document.issue(path, message, BULK_UPDATE_CODE)
        elif name in readonly or (name in fields and name not in writable):
            message = f"{shown(name)} is read-only: bulk_update sets writable fields"
            yield document.issue(path, message, BULK_UPDATE_CODE, "leave it out")
        elif name not in fields:
            message = f"{shown(name)} is not a field of {resource}"
            hint = suggestion_hint(name, writable, "its writable fields are")
            yield document.issue(path, message, BULK_UPDATE_CODE, hint)
