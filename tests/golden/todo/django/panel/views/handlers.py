"""The ``handler`` route: runs a resource's handler (CSV ``export`` or ``import``).

The handler is named in the path (``…/handler/export``) or, as MoonShine allows, in
the ``handlerUri`` query parameter (``…/handler?handlerUri=export``). The route takes
any method; each handler answers its own (``panel.handlers.HANDLERS``) and refuses
the others with 405 and ``Allow``.
"""

from __future__ import annotations

from django.http import HttpRequest
from django.http.response import HttpResponseBase
from django.views.decorators.http import require_http_methods

from panel_core.errors import NotFound
from panel_core.http_methods import allow_header
from panel_core.routes import ANY
from panel_core.translation import gettext

from ..handlers import HANDLERS
from ..registry import registry
from ..responses import json_response


@require_http_methods(ANY)
def handler(
    request: HttpRequest,
    resourceUri: str,  # noqa: N803 (the kernel's route parameter names)
    handlerUri: str | None = None,  # noqa: N803
) -> HttpResponseBase:
    """Run a resource handler: ``export`` or ``import``."""
    panel = registry().get(resourceUri)
    found = HANDLERS.get(handlerUri or request.GET.get("handlerUri", ""))
    if found is None:
        raise NotFound(gettext("Handler not found"))
    if request.method not in found.methods:
        allow = {"Allow": allow_header(found.methods)}
        return json_response(
            {"message": "Method Not Allowed"}, status=405, headers=allow
        )
    return found.run(request, panel)
