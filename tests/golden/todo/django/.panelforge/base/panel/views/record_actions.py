"""A resource's actions (``panel_core.record_actions``): their page, and running them.

``GET`` of an action's URL is its page (what it asks, on how many records); ``POST``
runs it on the records the request selects, in one transaction, and answers
``{"message": …, "count": N}`` (a page's form: a 303 back to the list, with the
message), as the FastAPI panels do. A page's ``POST`` of an action that asks
something first gets its page.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import parse_qsl

from django.http import HttpRequest, HttpResponse
from django.views.decorators.http import require_http_methods

from panel_core.action_page import Errors, action_context
from panel_core.errors import InvalidInput
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
from panel_core.urls import page_url

from ..accept import require_acceptable, wants_json
from ..acting import actor
from ..bodies import form_value, read_body
from ..redirects import back
from ..registry import PanelResource, registry
from ..responses import json_response
from ..templating import render


@require_http_methods(["GET", "POST"])
def action(
    request: HttpRequest, resourceUri: str, actionUri: str  # noqa: N803
) -> HttpResponse:
    """An action's page (``GET``), or the action run on the selected records."""
    require_acceptable(request)
    panel = registry().get(resourceUri)
    chosen_action = panel.actions.get(actionUri)
    body: Body = read_body(request) if request.method == "POST" else []
    query = parse_qsl(request.META.get("QUERY_STRING", ""), keep_blank_values=True)
    chosen = request_selection(panel, chosen_action, query, body)
    confirmed = form_value(request, CONFIRMED_FIELD) is not None
    if request.method == "GET" or asks_first(
        chosen_action, confirmed=confirmed, wants_json=wants_json(request)
    ):
        return _page(request, panel, chosen_action, chosen)
    try:
        data = panel.actions.validated(chosen_action, body)
    except InvalidInput as exc:
        if wants_json(request):
            raise
        values = dict(body) if isinstance(body, list) else {}
        return _page(
            request, panel, chosen_action, chosen, values=values, errors=exc.errors
        )
    function = None if chosen_action.sets else panel.actions.function(chosen_action)
    returned, count = panel.store.run_action(
        chosen_action, chosen, data, actor(request, panel), function
    )
    result = answer(chosen_action, returned, count)
    if not wants_json(request):
        return back(request, page_url(panel.uri, "index-page"), result["message"])
    return json_response(result)


def _page(
    request: HttpRequest,
    panel: PanelResource,
    chosen_action: Action,
    chosen: Selection,
    *,
    values: dict[str, Any] | None = None,
    errors: Errors | None = None,
) -> HttpResponse:
    """The action's page; 422 when it shows ``errors``."""
    count = panel.store.count_selected(chosen, actor(request, panel))
    context = action_context(
        panel, chosen_action, chosen, count, values=values, errors=errors
    )
    names = resource_templates(panel.uri, "action.html")
    return render(request, names, context, status=422 if errors else 200)
