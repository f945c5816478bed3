"""``to_page`` that can also redirect, and the URL helpers as template globals.

MoonShine's ``toPage`` takes ``redirect: true`` to answer a redirect instead of a URL.
A redirect is a framework's response, so each framework builds its ``to_page`` here
from its own 303 (``RedirectingToPage(see_other)``); the URL is always the kernel's
``endpoints.to_page``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, MutableMapping
from typing import Any, Generic, Literal, Protocol, TypeVar, overload

from .current import current_route
from .endpoints import ResourceRef, to_page
from .pages import PageRef
from .routes import url_for

RedirectT = TypeVar("RedirectT")


class RedirectingToPage(Generic[RedirectT]):
    """``to_page(…)``: a page's URL, or with ``redirect=True`` a redirect to it."""

    def __init__(self, redirect: Callable[[str], RedirectT]) -> None:
        self._redirect = redirect

    @overload
    def __call__(
        self,
        page: PageRef = ...,
        resource: ResourceRef = ...,
        params: Mapping[str, Any] | None = ...,
        redirect: Literal[False] = ...,
        fragment: str | None = ...,
    ) -> str: ...

    @overload
    def __call__(
        self,
        page: PageRef = ...,
        resource: ResourceRef = ...,
        params: Mapping[str, Any] | None = ...,
        *,
        redirect: Literal[True],
        fragment: str | None = ...,
    ) -> RedirectT: ...

    def __call__(
        self,
        page: PageRef = None,
        resource: ResourceRef = None,
        params: Mapping[str, Any] | None = None,
        redirect: bool = False,
        fragment: str | None = None,
    ) -> str | RedirectT:
        """The URL of a page (see ``endpoints.to_page``), or a redirect to it."""
        url = to_page(page, resource, params, fragment)
        return self._redirect(url) if redirect else url


class TemplateEnvironment(Protocol):
    """A Jinja environment, as far as the helpers need one."""

    @property
    def globals(self) -> MutableMapping[str, Any]: ...


def install_template_helpers(
    env: TemplateEnvironment, page_link: RedirectingToPage[Any]
) -> None:
    """Make ``to_page`` (``page_link``), ``route`` and ``current_route`` globals."""
    env.globals.update(to_page=page_link, route=url_for, current_route=current_route)
