"""The dashboard: the panel's home page, and the same as JSON (``GET …/dashboard``).

Per resource the user may list, its count, latest records and metrics
(``panel_core.dashboard``): the abilities are asked on the event loop (``can`` may be
async), then every store is read in one threadpool hop, a fixed number of queries
per resource.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response
from sqlalchemy import Engine
from starlette.concurrency import run_in_threadpool

from app.core import history
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

from .accept import require_acceptable, wants_json
from .auth import current_user
from .authorize import actor, allowed
from .guards import PANEL_GUARDS
from .redirects import see_other
from .registry import PanelResource, Registry
from .responses import json_response

router = APIRouter(dependencies=PANEL_GUARDS)


async def _abilities(panel: PanelResource, user: Any) -> dict[str, bool]:
    if panel.lifecycle.open:
        return dict.fromkeys((VIEW_ANY, VIEW, CREATE), True)
    return {name: await allowed(panel, user, name) for name in (VIEW_ANY, VIEW, CREATE)}


async def dashboard_summaries(request: Request) -> list[dict[str, Any]]:
    """Each resource the user may list, as the dashboard shows it."""
    registry: Registry = request.app.state.registry
    engine: Engine = request.app.state.engine
    user = current_user(request)
    shown = []
    for panel in registry:
        can = await _abilities(panel, user)
        if can[VIEW_ANY]:
            shown.append((panel, can, actor(request, panel)))

    def load() -> list[dict[str, Any]]:
        summaries = []
        for panel, can, acting in shown:
            query = latest_query(type(panel.resource))
            rows, total = panel.store.list_page(engine, query, acting)
            metrics = panel.store.metric_totals(engine, acting)
            summaries.append(
                resource_summary(
                    panel,
                    rows,
                    total,
                    metrics,
                    can_view=can[VIEW],
                    can_create=can[CREATE],
                )
            )
        return summaries

    return await run_in_threadpool(load)


async def dashboard_changes(request: Request) -> list[dict[str, Any]]:
    """The latest changes of the resources whose records the user may view."""
    registry: Registry = request.app.state.registry
    engine: Engine = request.app.state.engine
    user = current_user(request)
    panels = {}
    for panel in registry:
        if shows_changes(panel) and (
            panel.lifecycle.open or await allowed(panel, user, VIEW)
        ):
            panels[panel.uri] = panel
    actors = {uri: actor(request, panel) for uri, panel in panels.items()}

    def load() -> list[Any]:
        count = changes_to_read(panels.values())
        rows = history.recent(engine, list(panels), count)
        return reachable_rows(
            panels,
            rows,
            lambda panel, keys: panel.store.existing_keys(
                engine, keys, actors[panel.uri]
            ),
        )[:RECENT]

    return recent_changes(panels, await run_in_threadpool(load))


@router.get("/dashboard", name="dashboard")
async def dashboard(request: Request) -> Response:
    """Per resource: its count, latest records and metrics, as JSON."""
    require_acceptable(request)
    if not wants_json(request):
        return see_other(url_for("index"))
    return json_response(dashboard_body(await dashboard_summaries(request)))
