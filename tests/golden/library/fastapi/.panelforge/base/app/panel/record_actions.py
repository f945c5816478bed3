"""A resource's actions (``panel_core.record_actions``): their page, and running them.

``GET`` of an action's URL is its page (what it asks, on how many records); ``POST``
runs it on the records the request selects, in one transaction, and answers
``{"message": …, "count": N}`` (a page's form: a 303 back to the list, with the
message). A page's ``POST`` of an action that asks something first gets its page.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from panel_core.action_page import Errors, action_context
from panel_core.inputs import Body
from panel_core.record_actions import (
    CONFIRMED_FIELD,
    Action,
    Selection,
    answer,
    asks_first,
    request_selection,
)
from panel_core.resource_pages import resource_templates
from panel_core.routes import ROUTES

from .accept import require_acceptable, wants_json
from .authorize import actor
from .bodies import read_body
from .errors import InvalidInput
from .formdata import form_value
from .guards import PANEL_GUARDS
from .redirects import back
from .registry import PanelResource, Registry
from .responses import json_response
from .templating import render
from .urls import page_url

router = APIRouter(dependencies=PANEL_GUARDS, include_in_schema=False)
_ROUTE = ROUTES["crud.action"]


def _engine(request: Request) -> Engine:
    engine: Engine = request.app.state.engine
    return engine


async def action(request: Request) -> Response:
    """An action's page (``GET``), or the action run on the selected records."""
    require_acceptable(request)
    registry: Registry = request.app.state.registry
    panel = registry.get(request.path_params["resourceUri"])
    chosen_action = panel.actions.get(request.path_params["actionUri"])
    body: Body = []
    if request.method == "POST":
        body = await read_body(request, request.app.state.settings.max_body_size)
    query = request.query_params.multi_items()
    chosen = request_selection(panel, chosen_action, query, body)
    confirmed = form_value(request, CONFIRMED_FIELD) is not None
    if request.method == "GET" or asks_first(
        chosen_action, confirmed=confirmed, wants_json=wants_json(request)
    ):
        return await _page(request, panel, chosen_action, chosen)
    try:
        data = panel.actions.validated(chosen_action, body)
    except InvalidInput as exc:
        if wants_json(request):
            raise
        values = dict(body) if isinstance(body, list) else {}
        return await _page(
            request, panel, chosen_action, chosen, values=values, errors=exc.errors
        )
    function = None if chosen_action.sets else panel.actions.function(chosen_action)
    returned, count = await run_in_threadpool(
        panel.store.run_action,
        _engine(request),
        chosen_action,
        chosen,
        data,
        actor(request, panel),
        function,
    )
    result = answer(chosen_action, returned, count)
    if not wants_json(request):
        return back(request, page_url(panel.uri, "index-page"), result["message"])
    return json_response(result)


for _path in _ROUTE.paths:
    router.add_api_route(_path, action, methods=list(_ROUTE.methods), name=_ROUTE.name)


async def _page(
    request: Request,
    panel: PanelResource,
    chosen_action: Action,
    chosen: Selection,
    *,
    values: dict[str, Any] | None = None,
    errors: Errors | None = None,
) -> Response:
    """The action's page; 422 when it shows ``errors``."""
    count = await run_in_threadpool(
        panel.store.count_selected, _engine(request), chosen, actor(request, panel)
    )
    context = action_context(
        panel, chosen_action, chosen, count, values=values, errors=errors
    )
    names: Sequence[str] = resource_templates(panel.uri, "action.html")
    return render(request, names, context, status_code=422 if errors else 200)
