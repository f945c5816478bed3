"""A resource's URL helpers and current-page checks.

``Navigation`` is mixed into the kernel ``Resource``: every resource gets ``url()``,
``route()``, ``page_url()``… (MoonShine's ``getUrl()``, ``getRoute()``,
``getPageUrl()``…) and ``is_now_on_index()``… answering for the current request.
Nothing here knows a web framework: URLs come from ``routes.url_for``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

from .current import current_route
from .pages import (
    DetailPage,
    FormPage,
    IndexPage,
    Page,
    PageError,
    PageRef,
    describe,
    page_params,
)
from .routes import route as find_route
from .routes import uri_key, url_for

_PACKAGE = __name__.rpartition(".")[0]
# The page a crud route counts as (MoonShine's CrudController sets these), and
# whether it acts on one record.
_CRUD_PAGES = {
    "crud.index": ("index", False),
    "crud.show": ("detail", True),
    "crud.store": ("form", False),
    "crud.update": ("form", True),
    "crud.destroy": ("index", False),
    "crud.massDelete": ("index", False),
}


class Navigation:
    """Where a resource's pages and routes are, and which one the request is on."""

    uri: ClassVar[str]
    methods: ClassVar[tuple[str, ...]]
    # The resource's pages; the first is where ``url()`` leads.
    pages: ClassVar[tuple[type[Page], ...]] = (IndexPage, FormPage, DetailPage)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if not cls.uri and getattr(cls, "fields", None):
            cls.uri = uri_key(cls.__name__)
        if not cls.pages:
            raise TypeError(f"{cls.__qualname__}.pages: declare at least one page")
        _check_methods(cls)

    @classmethod
    def key_name(cls) -> str:
        """Name of the key field (``Resource`` defines it)."""
        raise NotImplementedError

    # --- pages -----------------------------------------------------------------------

    def get_pages(self) -> tuple[Page, ...]:
        """The resource's pages, bound to it."""
        return tuple(page(self) for page in type(self).pages)

    def first_page(self) -> Page:
        """The page ``url()`` leads to."""
        return type(self).pages[0](self)

    def find_page(self, page: PageRef = None) -> Page:
        """One of this resource's pages: by kind, URI key, class or object."""
        if page is None:
            return self.first_page()
        for candidate in self.get_pages():
            if _matches(candidate, page):
                return candidate
        if isinstance(page, type):
            for candidate in self.get_pages():
                if isinstance(candidate, page):
                    return candidate
        known = ", ".join(p.uri for p in self.get_pages())
        raise PageError(
            f"{describe(page)} is not a page of {self.uri} (its pages: {known})"
        )

    # --- URLs ------------------------------------------------------------------------

    def url(self) -> str:
        """The resource's first page."""
        return self.first_page().url()

    def route(
        self,
        name: str,
        key: Any = None,
        params: Mapping[str, Any] | None = None,
        *,
        query: Mapping[str, Any] | None = None,
    ) -> str:
        """Route ``name`` of this resource (of record ``key``): ``crud.update``, 5."""
        takes_resource = "resourceUri" in find_route(name).params
        context = {"resourceUri": self.uri} if takes_resource else {}
        merged = {**context, "resourceItem": key, **(params or {}), **(query or {})}
        return url_for(name, merged)

    def page_url(
        self,
        page: PageRef,
        params: Mapping[str, Any] | None = None,
        fragment: str | None = None,
    ) -> str:
        """The URL of one of the resource's pages."""
        return self.find_page(page).route(page_params(params, fragment))

    def index_page_url(
        self, query: Mapping[str, Any] | None = None, fragment: str | None = None
    ) -> str:
        """The index page, with list parameters such as ``query-tag``."""
        return self.find_page("index").route(page_params(query, fragment))

    def form_page_url(self, key_or_record: Any = None) -> str:
        """The create form, or the edit form of a record (its key or the record)."""
        return self.find_page("form").route({"resourceItem": self._key(key_or_record)})

    def detail_page_url(self, key_or_record: Any) -> str:
        """The detail page of a record (its key or the record)."""
        key = self._key(key_or_record)
        if key is None:
            raise ValueError("detail_page_url() needs a record key")
        return self.find_page("detail").route({"resourceItem": key})

    def async_method_url(
        self, name: str, message: str | None = None, page: PageRef = None
    ) -> str:
        """Where async method ``name`` is called; from the current page by default."""
        return self._page_or_current(page).async_method_url(name, message)

    def component_url(self, name: str, page: PageRef = None) -> str:
        """Where component ``name`` of a page (the current one) is loaded."""
        return self._page_or_current(page).component_url(name)

    def fragment_load_url(self, fragment: str, page: PageRef, key: Any = None) -> str:
        """A page's URL rendering only ``fragment`` (of record ``key``)."""
        return self.find_page(page).fragment_load_url(fragment, self._key(key))

    # --- where the current request is ------------------------------------------------

    def is_now_on_index(self) -> bool:
        """Whether the current request is on this resource's index page."""
        return self._now_on()[0] == "index"

    def is_now_on_detail(self) -> bool:
        """Whether the current request is on this resource's detail page."""
        return self._now_on()[0] == "detail"

    def is_now_on_form(self) -> bool:
        """Whether the current request is on this resource's create or edit form."""
        return self.is_now_on_create_form() or self.is_now_on_update_form()

    def is_now_on_create_form(self) -> bool:
        """The form without a record, or ``crud.store``."""
        return self._now_on() == ("form", False)

    def is_now_on_update_form(self) -> bool:
        """The form of a record, or ``crud.update``."""
        return self._now_on() == ("form", True)

    def current_page(self) -> Page | None:
        """The page of this resource the current request is on, if any."""
        state = current_route()
        page_uri = state.param("pageUri") if state is not None else None
        if state is None or page_uri is None:
            return None
        if state.param("resourceUri") != self.uri:
            return None
        return next((p for p in self.get_pages() if p.uri == page_uri), None)

    def _now_on(self) -> tuple[str, bool]:
        """The current page's kind here, and whether it shows one record."""
        state = current_route()
        if state is None or state.param("resourceUri") != self.uri:
            return "", False
        if state.name in _CRUD_PAGES:
            return _CRUD_PAGES[state.name]
        page = self.current_page()
        if page is None:
            return "", False
        return page.kind, state.param("resourceItem") is not None

    def _page_or_current(self, page: PageRef) -> Page:
        if page is not None:
            return self.find_page(page)
        return self.current_page() or self.first_page()

    def _key(self, key_or_record: Any) -> Any:
        if not isinstance(key_or_record, Mapping):
            return key_or_record
        names = self.key_parts or (self.key_name(),)
        missing = [name for name in names if name not in key_or_record]
        if missing:
            raise ValueError(f"the record has no {missing[0]!r} key")
        return self.key_of(key_or_record)


def _matches(candidate: Page, page: PageRef) -> bool:
    if isinstance(page, str):
        return candidate.uri == page or candidate.kind == page
    if isinstance(page, type | Page):
        return candidate.uri == page.uri
    return False


def _check_methods(cls: type[Navigation]) -> None:
    kernel = {
        name
        for base in cls.__mro__
        if base.__module__.rpartition(".")[0] == _PACKAGE
        for name in vars(base)
    }
    for name in getattr(cls, "methods", ()):
        if not name.isidentifier() or name.startswith("_") or name in kernel:
            raise TypeError(
                f"{cls.__qualname__}.methods: {name!r} cannot be an async method "
                "(a private name or one the panel defines)"
            )
