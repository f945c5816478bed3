"""The current request, as the kernel sees it: the named route it matched, and the site.

The framework records it once per panel request (FastAPI: a dependency every panel
router has; Django: a middleware); the current-page checks, ``to_page`` and the async
method URLs read it. A context variable keeps concurrent requests apart.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from contextvars import ContextVar, Token
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

from .pages import Page, PageError, Pages

if TYPE_CHECKING:
    from .navigation import Navigation


class Site:
    """What the panel serves: its resources and stand-alone pages, by URI key."""

    def __init__(
        self,
        resources: Iterable[Navigation],
        pages: Iterable[type[Page] | Page] = (),
    ) -> None:
        self._resources = {resource.uri: resource for resource in resources}
        self.pages = Pages(pages)

    def resource(self, uri: str) -> Navigation:
        """The resource with URI key ``uri``."""
        try:
            return self._resources[uri]
        except KeyError:
            raise PageError(f"Resource {uri!r} is not registered") from None

    def page(self, uri: str) -> Page:
        """The stand-alone page with URI key ``uri``."""
        return self.pages.get(uri)


@dataclass(frozen=True)
class RouteState:
    """The named route a request matched, its path parameters, and the site."""

    name: str
    params: Mapping[str, str] = field(default_factory=dict)
    site: Site | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))

    def param(self, name: str) -> str | None:
        """A path parameter, or ``None`` when the route has none of that name."""
        return self.params.get(name) or None


_CURRENT: ContextVar[RouteState | None] = ContextVar("panel_route", default=None)


def current_route() -> RouteState | None:
    """The current request's route, or ``None`` outside a panel request."""
    return _CURRENT.get()


def set_current_route(state: RouteState | None) -> Token[RouteState | None]:
    """Record the current request's route; ``reset_current_route`` undoes it."""
    return _CURRENT.set(state)


def reset_current_route(token: Token[RouteState | None]) -> None:
    """Restore what was current before ``set_current_route`` returned ``token``."""
    _CURRENT.reset(token)


def current_site() -> Site | None:
    """The site of the current request, if any."""
    state = _CURRENT.get()
    return state.site if state is not None else None
