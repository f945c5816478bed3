"""A resource's actions: what each one takes, which records it runs on, what it answers.

The manifest's ``actions`` become ``Action`` declarations on the resource class; each
is run by the function of the same name in the resource's hooks module
(``app/hooks/<name>.py``): a method of the resource class, or a function of the
module, called with the selected records, the validated input and the user::

    def archive(self, records, data, user):
        ...
        return f"{len(records)} archived."

``bulk_update: [status]`` adds a built-in action per field, ``set_status``, which sets
the field on the selected records as an update of that one field would (the
``update`` ability), with no code of yours.

An action runs on the records named by ``ids[]``, or with ``all=1`` on every record
matching the list's current filters, search and query tag; all of them in one
transaction, undone when the function raises. ``ValidationError`` or ``ValueError``
answers 422 with its message, ``Forbidden`` 403.
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .abilities import PAGE_ABILITIES, SET_PREFIX, action_ability
from .errors import Conflict, InvalidInput, NotFound, PanelError
from .fields import ID, Field
from .routes import url_for
from .translation import gettext, ngettext

if TYPE_CHECKING:
    from .inputs import Body, Inputs
    from .query import ListQuery
    from .registry import PanelResource

# The parameters naming the records an action runs on (the rest: the list's own).
ALL = "all"
_SELECTION = frozenset({"ids", "ids[]", ALL})
# Sent by the action's page: what it asked is answered, run the action.
CONFIRMED_FIELD = "_confirmed"
_YES = frozenset({"1", "true", "on", "yes"})


class ActionNotImplemented(PanelError):
    """An action whose function the hooks module does not define: 501."""

    status_code = 501


@dataclass(frozen=True)
class Action:
    """A declared action: ``label`` (default: from the name), ``bulk`` (offered on the
    list's selection too, else on each record only), ``confirm`` (asked first) and
    the ``fields`` of its input; ``sets``: the field a ``bulk_update`` action sets."""

    name: str
    label: str = ""
    bulk: bool = True
    confirm: str = ""
    fields: tuple[Field, ...] = ()
    sets: str = ""

    def __post_init__(self) -> None:
        if not self.label:
            label = self.name.replace("_", " ").strip().capitalize()
            object.__setattr__(self, "label", label)

    @property
    def ability(self) -> str:
        """What a role must grant to run it: its name; a ``bulk_update``'s: update."""
        return action_ability(self.name)

    @property
    def has_form(self) -> bool:
        """Whether it asks anything before it runs (a confirmation, or input)."""
        return bool(self.fields or self.confirm)


def action_label(action: Action) -> str:
    """An action's label as pages and messages show it: the manifest's, as written;
    a ``bulk_update``'s "Set <field>", in the page's language."""
    if not action.sets or not action.fields:
        return action.label
    return gettext("Set %(field)s") % {"field": action.fields[0].label.lower()}


def bulk_update_action(field: Field) -> Action:
    """The built-in ``set_<field>`` action of a field listed in ``bulk_update``."""
    given = dataclasses.replace(field, required=not field.accepts_null)
    return Action(
        SET_PREFIX + field.name,
        label=f"Set {field.label.lower()}",
        fields=(given,),
        sets=field.name,
    )


def page_ability_names(resource: type[Any]) -> tuple[str, ...]:
    """The abilities a resource's pages ask about: the buttons', and its actions'."""
    own = (a.ability for a in getattr(resource, "all_actions", ()))
    return tuple(dict.fromkeys((*PAGE_ABILITIES, *own)))


def offered(
    resource_uri: str,
    actions: Iterable[Action],
    can: Mapping[str, bool],
    *,
    bulk: bool,
    key: Any = None,
) -> list[dict[str, Any]]:
    """The action buttons a user may press: each one's label and URL (``bulk``: the
    list's bulk bar; else those of the record ``key``)."""
    query = [] if key is None else row_query(key)
    return [
        {
            "name": action.name,
            "label": action_label(action),
            "url": action_url(resource_uri, action.name, query),
        }
        for action in actions
        if can.get(action.ability) and (action.bulk or not bulk)
    ]


def action_url(
    resource_uri: str, name: str, query: Iterable[tuple[str, Any]] = ()
) -> str:
    """Where the action runs (``POST``) and its form page is (``GET``)."""
    params = {"resourceUri": resource_uri, "actionUri": name}
    return url_for("crud.action", params, list(query))


def row_query(key: Any) -> list[tuple[str, Any]]:
    """The selection of one record, as the action's query string names it."""
    return [("ids[]", key)]


@dataclass(frozen=True)
class Selection:
    """The records an action runs on: ``keys``, else every record matching ``query``."""

    keys: tuple[Any, ...] | None
    query: ListQuery | None
    params: tuple[tuple[str, str], ...]  # as given: the form page posts them back

    @property
    def everything(self) -> bool:
        """Whether it is every record matching the list's filters."""
        return self.keys is None


def selection(
    panel: PanelResource[Any], params: Sequence[tuple[str, str]]
) -> Selection:
    """The records ``params`` name: ``ids[]``, or ``all=1`` with the list's filters."""
    # ``_token``, ``_redirect``, ``_method``, ``_confirmed``: the form's, not the list's.
    given = tuple((name, value) for name, value in params if not name.startswith("_"))
    if any(name == ALL and value.lower() in _YES for name, value in given):
        listed = [(n, v) for n, v in given if n not in _SELECTION]
        return Selection(None, panel.list_query(listed), given)
    keys = panel.inputs.ids(b"", list(given))
    return Selection(tuple(keys), None, given)


def request_selection(
    panel: PanelResource[Any],
    action: Action,
    query: Sequence[tuple[str, str]],
    body: Body,
) -> Selection:
    """The selection of a request: in its query string, or in the list's form (the
    bulk bar posts the checked ``ids[]``, or ``all`` and the list's parameters)."""
    pairs = list(query)
    if isinstance(body, list):
        names = {f.name for f in action.fields}
        pairs += [(name, value) for name, value in body if name not in names]
    return selection(panel, pairs)


def asks_first(action: Action, *, confirmed: bool, wants_json: bool) -> bool:
    """Whether a page's request is answered with the action's page rather than run:
    the action asks something, and its page (which sends ``CONFIRMED_FIELD``) has
    not been sent yet."""
    return not wants_json and action.has_form and not confirmed


class ActionSet:
    """The actions of one resource, their input checks and their functions."""

    def __init__(self, resource: Any, *, trim_strings: bool = True) -> None:
        from .inputs import Inputs  # the inputs module imports the resource's

        cls = type(resource)
        self._resource = resource
        self._where = f"{cls.__module__}.{cls.__qualname__}"
        self.actions: dict[str, Action] = {a.name: a for a in cls.all_actions}
        self._classes = {a.name: input_class(cls, a) for a in self.actions.values()}
        self._inputs: dict[str, Inputs] = {
            name: Inputs(form, max_ids=1, trim_strings=trim_strings)
            for name, form in self._classes.items()
        }

    def __iter__(self) -> Any:
        return iter(self.actions.values())

    def get(self, name: str) -> Action:
        """The action ``name``; ``NotFound`` unless the resource declares it."""
        try:
            return self.actions[name]
        except KeyError:
            raise NotFound(
                gettext("Action %(name)r not found") % {"name": name}
            ) from None

    def form_class(self, action: Action) -> type[Any]:
        """A resource-shaped class of the action's fields: what its form shows."""
        return self._classes[action.name]

    def validated(self, action: Action, body: Body) -> dict[str, Any]:
        """The action's input from a JSON or form body, checked as a create is."""
        if not action.fields:
            return {}
        inputs = self._inputs[action.name]
        if isinstance(body, list):
            names = {f.name for f in action.fields}
            body = [(n, v) for n, v in body if n in names]
        values = inputs.for_create(body)
        if action.sets and action.sets not in values:
            label = action.fields[0].label
            required = gettext("The {label} field is required.").format(label=label)
            raise InvalidInput({action.sets: [required]})
        return values

    def function(self, action: Action) -> Callable[..., Any]:
        """The hooks' function running ``action``: a method of the resource class,
        else a function of its module; 501 when neither is defined."""
        method = getattr(self._resource, action.name, None)
        if callable(method):
            return method
        module = sys.modules.get(type(self._resource).__module__)
        found = getattr(module, action.name, None)
        if callable(found):
            return found
        raise ActionNotImplemented(
            f"The action {action.name!r} has no function: define "
            f"{action.name}(records, data, user) in {self._where}'s module."
        )


def input_class(cls: type[Any], action: Action) -> type[Any]:
    """A resource-shaped class of the action's fields, for ``Inputs``."""
    from .resource import Resource

    body = {
        "uri": f"{cls.uri}--{action.name}",
        "name": action.label,
        "fields": (ID(), *action.fields),
    }
    return type(f"{cls.__name__}_{action.name}", (Resource,), body)


def run_on(
    action: Action,
    records: list[dict[str, Any]],
    data: Mapping[str, Any],
    actor: Any,
    function: Callable[..., Any] | None,
    update_one: Callable[[dict[str, Any], dict[str, Any]], object],
) -> tuple[Any, int]:
    """Run ``action`` on ``records``, read and locked by the store in its write
    transaction: each is authorized first (a user-written ``can`` may refuse one),
    then the user's function gets them all, or, for a ``bulk_update`` action, each
    is updated with ``data`` through the store's ``update_one``. What the function
    returned (a message, or ``None``) and how many records it ran on."""
    for record in records:
        actor.authorize_record(action.ability, record)
    if function is None:
        for record in records:
            update_one(record, dict(data))
        return None, len(records)
    return actor.run_action(function, records, dict(data)), len(records)


def conflict(action: Action) -> Conflict:
    """The 409 of an action the database refused (a unique value, a reference)."""
    message = gettext(
        "Nothing was changed: the %(action)s conflicts with existing data."
    )
    return Conflict(message % {"action": action_label(action).lower()})


def answer(action: Action, returned: Any, count: int) -> dict[str, Any]:
    """The JSON answer: the function's message (or a default) and the count."""
    if returned is not None and not isinstance(returned, str):
        raise TypeError(
            f"action {action.name!r} must return a message (str) or None "
            f"(got {type(returned).__name__})"
        )
    done = ngettext(
        "%(action)s: %(count)s record.", "%(action)s: %(count)s records.", count
    )
    message = done % {"action": action_label(action), "count": count}
    return {"message": returned or message, "count": count}
