"""``to_page``: the URL of any panel page, from a page, a resource, or both.

MoonShine's ``toPage`` (``MoonShineEndpoints::toPage``) without the ``redirect``
argument: each framework wraps this function to add it (FastAPI: ``app.panel.navigation``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .current import current_site
from .navigation import Navigation
from .pages import KINDS, Page, PageError, PageRef, describe, page_params

ResourceRef = str | type[Navigation] | Navigation | None


def to_page(
    page: PageRef = None,
    resource: ResourceRef = None,
    params: Mapping[str, Any] | None = None,
    fragment: str | None = None,
) -> str:
    """The URL of a page.

    ``page`` is a kind (``"index"``, ``"form"``, ``"detail"``), a URI key, a page class
    or a page; ``resource`` a resource class, a resource or its URI key. A resource
    alone means its first page. ``params`` fill the route (``resourceItem``) or the
    query; ``fragment`` asks for one fragment of the page.
    """
    return resolve_page(page, resource).route(page_params(params, fragment))


def resolve_page(page: PageRef, resource: ResourceRef) -> Page:
    """The page ``to_page`` leads to."""
    if page is None and resource is None:
        raise PageError("Page or resource must not be null")
    if resource is not None:
        return _resource(resource).find_page(page)
    if isinstance(page, Page) and page.resource is not None:
        return page
    return _stand_alone(page)


def _resource(resource: str | type[Navigation] | Navigation) -> Navigation:
    if isinstance(resource, Navigation):
        return resource
    if isinstance(resource, type) and issubclass(resource, Navigation):
        return resource()
    if isinstance(resource, str):
        site = current_site()
        if site is None:
            raise PageError(f"Resource {resource!r} is not registered")
        return site.resource(resource)
    raise TypeError(f"resource must be a resource or its URI key (got {resource!r})")


def _stand_alone(page: PageRef) -> Page:
    if isinstance(page, str) and page not in KINDS:
        site = current_site()
        if site is None:
            raise PageError(f"Page {page!r} is not registered")
        return site.page(page)
    kind = page if isinstance(page, str) else getattr(page, "kind", "")
    if kind:
        raise PageError(f"{describe(page)} is a resource's page: pass its resource")
    if isinstance(page, type) and issubclass(page, Page):
        return page()
    if isinstance(page, Page):
        return page
    raise TypeError(f"page must be a page, a page class or a URI key (got {page!r})")
