"""Authorization of panel requests: what the logged-in user may do on a resource.

``PanelAuthenticationMiddleware`` calls ``authorize_route`` for every panel route once
the user is known: the ability the route needs (``panel_core.abilities``
``required_ability``, which refuses a route it does not know) is asked of the
resource's ``can()``, and a refusal is 403 ``{"message": "This action is
unauthorized."}`` (a 403 page for browsers). The abilities a user-written ``can`` may
answer per record (view, update, delete) are asked with the record once it is read:
by the views (``Actor.authorize_record``), or by the store, in the transaction of the
write.
``page_abilities`` tells a page which of its buttons and links to show.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.http import HttpRequest

from panel_core.abilities import required_ability
from panel_core.lifecycle import RECORD_ABILITIES, Actor
from panel_core.record_actions import page_ability_names

from .acting import actor
from .registry import registry


def authorize_route(
    request: HttpRequest, route: str, params: Mapping[str, Any]
) -> None:
    """Refuse (``Forbidden``) a request of ``route`` its user may not make.

    An unknown resource is ``NotFound`` first, as if nobody had asked.
    """
    ability = required_ability(route, params, request.GET)
    if ability is None:
        return
    panel = registry().get(params["resourceUri"])
    if panel.lifecycle.open:
        return  # no roles declared and no rule of the resource's: nothing refuses
    record_rule = panel.lifecycle.record_rules and ability in RECORD_ABILITIES
    if record_rule and "resourceItem" in params:
        return  # asked with the record, once it is read
    actor(request, panel).authorize(ability)


def page_abilities(acting: Actor, record: Any = None) -> dict[str, bool]:
    """What a page may offer its user, by ability: the other buttons are hidden."""
    names = page_ability_names(type(acting.lifecycle.resource))
    return {name: acting.allowed(name, record) for name in names}
