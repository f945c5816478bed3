"""The dashboard: the panel's home page's content, and the same as JSON
(``GET …/dashboard``).

Per resource the user may list, its count, latest records and metrics
(``panel_core.dashboard``), read with the user's scope: a fixed number of queries per
resource.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse

from panel_core.abilities import CREATE, VIEW, VIEW_ANY
from panel_core.dashboard import (
    changes_to_read,
    dashboard_body,
    latest_query,
    resource_summary,
    shows_changes,
)
from panel_core.history import RECENT
from panel_core.history_pages import reachable_rows, recent_changes
from panel_core.routes import url_for

from .. import history
from ..accept import require_acceptable, wants_json
from ..acting import actor
from ..redirects import see_other
from ..registry import registry
from ..responses import json_response


def dashboard_summaries(request: HttpRequest) -> list[dict[str, Any]]:
    """Each resource the user may list, as the dashboard shows it."""
    summaries = []
    for panel in registry():
        acting = actor(request, panel)
        open_ = panel.lifecycle.open
        if not (open_ or acting.allowed(VIEW_ANY)):
            continue
        rows, total = panel.store.list_page(latest_query(type(panel.resource)), acting)
        summaries.append(
            resource_summary(
                panel,
                rows,
                total,
                panel.store.metric_totals(acting),
                can_view=open_ or acting.allowed(VIEW),
                can_create=open_ or acting.allowed(CREATE),
            )
        )
    return summaries


def dashboard_changes(request: HttpRequest) -> list[dict[str, Any]]:
    """The latest changes of the resources whose records the user may view."""
    panels = {
        panel.uri: panel
        for panel in registry()
        if shows_changes(panel)
        and (panel.lifecycle.open or actor(request, panel).allowed(VIEW))
    }
    rows = history.recent(list(panels), changes_to_read(panels.values()))
    shown = reachable_rows(
        panels,
        rows,
        lambda panel, keys: panel.store.existing_keys(keys, actor(request, panel)),
    )
    return recent_changes(panels, shown[:RECENT])


def dashboard(request: HttpRequest) -> HttpResponse:
    """Per resource: its count, latest records and metrics, as JSON."""
    require_acceptable(request)
    if not wants_json(request):
        return see_other(url_for("index"))
    return json_response(dashboard_body(dashboard_summaries(request)))
