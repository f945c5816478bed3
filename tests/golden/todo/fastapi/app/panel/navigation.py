"""``to_page`` with ``redirect=True``, and the URL helpers as template globals.

Use these in hooks and templates; the kernel (``app.panel.core``) has the same helpers
without any FastAPI in them::

    from app.panel.navigation import to_page

    return to_page("form", BookResource, params={"resourceItem": 5}, redirect=True)
"""

from __future__ import annotations

from collections.abc import Mapping, MutableMapping
from typing import Any, Literal, Protocol, overload

from fastapi.responses import RedirectResponse

from .core.current import current_route
from .core.endpoints import ResourceRef
from .core.endpoints import to_page as kernel_to_page
from .core.pages import PageRef
from .core.routes import url_for

# See Other: whatever the method of the request, the browser follows with a GET.
REDIRECT_STATUS = 303


@overload
def to_page(
    page: PageRef = ...,
    resource: ResourceRef = ...,
    params: Mapping[str, Any] | None = ...,
    redirect: Literal[False] = ...,
    fragment: str | None = ...,
) -> str: ...


@overload
def to_page(
    page: PageRef = ...,
    resource: ResourceRef = ...,
    params: Mapping[str, Any] | None = ...,
    *,
    redirect: Literal[True],
    fragment: str | None = ...,
) -> RedirectResponse: ...


def to_page(
    page: PageRef = None,
    resource: ResourceRef = None,
    params: Mapping[str, Any] | None = None,
    redirect: bool = False,
    fragment: str | None = None,
) -> str | RedirectResponse:
    """The URL of a page (see ``app.panel.core.endpoints.to_page``), or a redirect."""
    url = kernel_to_page(page, resource, params, fragment)
    return RedirectResponse(url, status_code=REDIRECT_STATUS) if redirect else url


class _Environment(Protocol):
    @property
    def globals(self) -> MutableMapping[str, Any]: ...


def install_template_helpers(env: _Environment) -> None:
    """Make ``to_page``, ``route`` and ``current_route`` template globals."""
    env.globals.update(to_page=to_page, route=url_for, current_route=current_route)
