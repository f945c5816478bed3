"""What the panel serves: the project's resources and stand-alone pages, made once.

``app.resources.RESOURCES`` and ``app.pages.PAGES`` list the classes; the kernel's
``Site`` holds one object of each, for the menu, the page routes and the
current-page checks (``resource.is_now_on_index()``…).
"""

from __future__ import annotations

from functools import cache

from app.pages import PAGES
from app.resources import RESOURCES
from panel_core.current import Site
from panel_core.resource import Resource


@cache
def resources() -> tuple[Resource, ...]:
    """One object of each resource class, in the order of ``RESOURCES``."""
    return tuple(cls() for cls in RESOURCES)


@cache
def resource_classes() -> dict[str, type[Resource]]:
    """The resource classes by URI key."""
    return {cls.uri: cls for cls in RESOURCES}


@cache
def site() -> Site:
    """The resources and stand-alone pages, by URI key."""
    return Site(resources(), PAGES)
