"""Delete rules: what deleting a record does to the records that refer to it.

Each belongs-to field says it (``BelongsTo(on_delete=...)``): ``restrict`` refuses the
delete while a record refers (409), ``cascade`` deletes the referring records too
(following their own referrers' rules in turn), ``set_null`` clears the reference.

Both runtimes apply the rules here, inside the delete's transaction, through the few
statements of ``Tables``: the records a cascade reaches are collected first; if a
``restrict`` reference from a record that is not deleted too points at any of them,
the delete is refused before anything changes (``Referenced``, naming the resources
and counts); else the ``set_null`` references are cleared and the collected records
deleted, the deepest first. The database's own constraints say the same where the
framework can write them (``ON DELETE`` on the FastAPI foreign keys).

Records a cascade deletes are deleted for good (also from a resource with a trash),
and without their lifecycle hooks, as Django admin's delete does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from .errors import Referenced
from .fields import BelongsTo
from .labels import record_label
from .resource import Resource
from .translation import gettext, gettext_noop, ngettext

RESTRICT, CASCADE, SET_NULL = "restrict", "cascade", "set_null"
RULES = (RESTRICT, CASCADE, SET_NULL)


@dataclass(frozen=True)
class Reference:
    """A belongs-to field of ``source`` (a URI key) and its rule."""

    source: str
    field: str
    rule: str


class Tables(Protocol):
    """The statements the rules need, in the delete's transaction, by URI key."""

    def referring(self, uri: str, field: str, keys: Sequence[Any]) -> list[Any]:
        """The keys of the records of ``uri`` whose ``field`` holds one of ``keys``."""

    def clear(self, uri: str, field: str, keys: Sequence[Any]) -> None:
        """Set ``field`` to null where it holds one of ``keys``."""

    def erase(self, uri: str, keys: Sequence[Any]) -> None:
        """Delete the records of ``uri`` with these keys, for good."""


@dataclass
class DeletePlan:
    """What deleting ``keys`` of ``root`` takes with it, and what refuses it."""

    root: str
    keys: list[Any]
    # The records a cascade deletes (not the root's): each step of the search, the
    # records of one resource referring to those of the step before.
    waves: list[tuple[str, list[Any]]] = field(default_factory=list)
    # How many records refuse the delete (restrict), by URI key.
    blocking: dict[str, int] = field(default_factory=dict)

    @property
    def cascaded(self) -> dict[str, list[Any]]:
        """The records a cascade deletes, by URI key in the order found."""
        found: dict[str, list[Any]] = {}
        for uri, keys in self.waves:
            found.setdefault(uri, []).extend(keys)
        return found

    def doomed(self, uri: str) -> list[Any]:
        """Every key of ``uri`` the delete removes."""
        own = self.keys if uri == self.root else []
        return [*own, *self.cascaded.get(uri, [])]


class DeleteRules:
    """The references between the registered resources, by the URI key referred to."""

    def __init__(self, classes: Mapping[str, type[Resource]]) -> None:
        self._classes = dict(classes)
        found: dict[str, list[Reference]] = {}
        for uri, cls in classes.items():
            for f in cls.fields:
                if isinstance(f, BelongsTo) and f.resource in classes:
                    reference = Reference(uri, f.name, f.on_delete)
                    found.setdefault(f.resource, []).append(reference)
        self._to = {uri: tuple(refs) for uri, refs in found.items()}

    def referred(self, uri: str) -> bool:
        """Whether any relation points at ``uri``'s records."""
        return uri in self._to

    def plan(self, uri: str, keys: Sequence[Any], tables: Tables) -> DeletePlan:
        """Collect what deleting ``keys`` of ``uri`` reaches and what refuses it."""
        plan = DeletePlan(uri, list(dict.fromkeys(keys)))
        seen: dict[str, set[Any]] = {uri: set(plan.keys)}
        pending = [(uri, plan.keys)]
        while pending:
            target, targets = pending.pop(0)
            for ref in self._to.get(target, ()):
                if ref.rule != CASCADE or not targets:
                    continue
                known = seen.setdefault(ref.source, set())
                found = [
                    k
                    for k in tables.referring(ref.source, ref.field, targets)
                    if k not in known
                ]
                known.update(found)
                if found:
                    plan.waves.append((ref.source, found))
                    pending.append((ref.source, found))
        for target, doomed in seen.items():
            for ref in self._to.get(target, ()):
                if ref.rule != RESTRICT or not doomed:
                    continue
                besides = seen.get(ref.source, set())
                found = tables.referring(ref.source, ref.field, list(doomed))
                count = sum(1 for k in found if k not in besides)
                if count:
                    plan.blocking[ref.source] = plan.blocking.get(ref.source, 0) + count
        return plan

    def enforce(
        self,
        uri: str,
        keys: Sequence[Any],
        tables: Tables,
        *,
        what: Subject,
        many: bool,
    ) -> DeletePlan:
        """Apply the rules before deleting ``keys`` of ``uri``: 409 (``Referenced``)
        if a ``restrict`` reference refuses it, else clear and cascade. The caller
        deletes the records themselves."""
        plan = self.plan(uri, keys, tables)
        if plan.blocking:
            raise self.refusal(plan, what, many=many)
        self.carry_out(plan, tables)
        return plan

    def carry_out(self, plan: DeletePlan, tables: Tables) -> None:
        """Clear the ``set_null`` references, then delete the cascaded records."""
        for target in dict.fromkeys([plan.root, *plan.cascaded]):
            doomed = plan.doomed(target)
            for ref in self._to.get(target, ()):
                if ref.rule == SET_NULL and doomed:
                    tables.clear(ref.source, ref.field, doomed)
        # The deepest first: a record goes before those it refers to.
        for source, keys in reversed(plan.waves):
            tables.erase(source, keys)

    def refusal(self, plan: DeletePlan, what: Subject, *, many: bool) -> Referenced:
        """The 409 of a plan with blocking references; ``what`` starts the message
        ("Author Herbert, Frank cannot be deleted", "Nothing was deleted"), or makes
        it when called (``undeletable``); ``many``: a mass delete."""
        what = gettext(what) if isinstance(what, str) else what()
        entries = [
            {
                "resource": uri,
                "label": self.label(uri, count),
                "count": count,
            }
            for uri, count in plan.blocking.items()
        ]
        total = sum(plan.blocking.values())
        parts = [f"{e['count']} {e['label']}" for e in entries]
        said = {"subject": what, "records": _joined(parts)}
        if many:
            sentence = ngettext(
                "%(subject)s: %(records)s refers to some of these.",
                "%(subject)s: %(records)s refer to some of these.",
                total,
            )
        else:
            sentence = ngettext(
                "%(subject)s: %(records)s refers to it.",
                "%(subject)s: %(records)s refer to it.",
                total,
            )
        return Referenced(sentence % said, entries)

    def cascade_counts(self, plan: DeletePlan) -> list[dict[str, Any]]:
        """What a cascade deletes with the records: resource, label and count each."""
        return [
            {"resource": uri, "label": self.label(uri, len(keys)), "count": len(keys)}
            for uri, keys in plan.cascaded.items()
        ]

    def label(self, uri: str, count: int) -> str:
        """How ``count`` records of ``uri`` are called: ``Book``, ``Books``."""
        cls = self._classes[uri]
        return str(cls.name) if count == 1 else (cls.title or str(cls.name))


# How a refused delete's message starts: the text (in English: translated when the
# message is made), or a function making it (called only when the delete is refused,
# so the record is read only then).
Subject = str | Callable[[], str]
# The start of a refused mass delete's message.
NOTHING_DELETED = gettext_noop("Nothing was deleted")


def undeletable(
    noun: str,
    resource: type[Resource],
    key: Any,
    read: Callable[[], Mapping[str, Any] | None],
) -> Callable[[], str]:
    """``Subject`` naming the record ``key`` by its display label ("Author Herbert,
    Frank cannot be deleted"); ``read`` gives its values (``None``: only the key)."""

    def subject() -> str:
        name = record_label(resource, key, read() or {})
        said = {"label": noun, "name": name}
        return gettext("%(label)s %(name)s cannot be deleted") % said

    return subject


def _joined(parts: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(parts) <= 1:
        return "".join(parts)
    said = {"items": ", ".join(parts[:-1]), "last": parts[-1]}
    return gettext("%(items)s and %(last)s") % said


def database_refusal(label: str, key: Any = None) -> str:
    """The message of a delete the database refused, by a reference it enforces
    itself: of the record ``key``, or (``None``) of a mass delete."""
    if key is None:
        return gettext("Nothing was deleted: other records refer to some of these.")
    message = gettext("%(label)s %(key)s cannot be deleted: other records refer to it.")
    return message % {"label": label, "key": key}
