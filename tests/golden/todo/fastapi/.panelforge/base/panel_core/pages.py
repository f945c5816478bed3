"""Pages as objects: a resource's index, form and detail pages, and stand-alone pages.

A page class has a URI key (the kebab case of its name unless ``uri`` is set) and a
kind: ``index``, ``form`` or ``detail`` for a resource's pages, ``""`` for a page of its
own (``/admin/page/<uri>``). A page object may be bound to a resource; its URL helpers
then name that resource.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import TYPE_CHECKING, Any, ClassVar

from .routes import uri_key, url_for
from .translation import gettext_noop

if TYPE_CHECKING:
    from .navigation import Navigation

FRAGMENT = "_fragment-load"
COMPONENT = "_component_name"
# The parts of a page rendered alone (``?_fragment-load=``, components): templates.
FRAGMENTS = {("index-page", "table"): "_table.html"}
# The heading of the error page, by status.
ERROR_TITLES = {
    400: gettext_noop("Bad request"),
    401: gettext_noop("Not logged in"),
    403: gettext_noop("Forbidden"),
    404: gettext_noop("Not found"),
    405: gettext_noop("Method not allowed"),
    406: gettext_noop("Not acceptable"),
    409: gettext_noop("Conflict"),
    412: gettext_noop("Changed meanwhile"),
    413: gettext_noop("Too large"),
    415: gettext_noop("Unsupported media type"),
    422: gettext_noop("Invalid input"),
    428: gettext_noop("Version required"),
    429: gettext_noop("Too many requests"),
    500: gettext_noop("Server error"),
    503: gettext_noop("Service unavailable"),
}
# Path segments below a resource that are not pages.
_NOT_PAGES = frozenset({"crud", "handler"})


def page_params(
    params: Mapping[str, Any] | None, fragment: str | None = None
) -> dict[str, Any]:
    """Route parameters of a page URL, asking for only ``fragment`` when given."""
    found = dict(params or {})
    if fragment:
        found[FRAGMENT] = fragment
    return found


def describe(page: Any) -> str:
    """A page argument as error messages name it."""
    if isinstance(page, type):
        return page.__name__
    if isinstance(page, str):
        return f"Page {page!r}"
    return repr(page)


class PageError(LookupError):
    """No page matches (or neither a page nor a resource was given)."""


class Page:
    """Base class of pages; subclass it, or one of the resource page kinds."""

    uri: ClassVar[str] = ""
    title: ClassVar[str] = ""
    kind: ClassVar[str] = ""
    # Names of this page's async methods, callable at /admin/method/<uri>.
    methods: ClassVar[tuple[str, ...]] = ()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if "uri" not in vars(cls):
            cls.uri = uri_key(cls.__name__)
        if "title" not in vars(cls):
            cls.title = cls.__name__.removesuffix("Page") or cls.__name__
        if cls.uri in _NOT_PAGES:
            raise TypeError(f"{cls.__qualname__}: the page URI {cls.uri!r} is taken")
        for name in cls.methods:
            if not name.isidentifier() or name.startswith("_") or hasattr(Page, name):
                raise TypeError(
                    f"{cls.__qualname__}.methods: {name!r} cannot be an async method"
                )

    def __init__(self, resource: Navigation | None = None) -> None:
        self.resource = resource

    def __repr__(self) -> str:
        bound = f" of {self.resource.uri}" if self.resource is not None else ""
        return f"<{type(self).__name__} {self.uri!r}{bound}>"

    def route(self, params: Mapping[str, Any] | None = None) -> str:
        """This page's URL; ``resourceItem`` goes into the path, the rest the query."""
        if self.resource is None:
            return url_for("page", {**(params or {}), "pageUri": self.uri})
        context = {"resourceUri": self.resource.uri, "pageUri": self.uri}
        return url_for("resource.page", {**(params or {}), **context})

    def url(self) -> str:
        """This page's URL."""
        return self.route()

    def async_method_url(self, name: str, message: str | None = None) -> str:
        """Where an async method named ``name`` is called from this page."""
        return url_for("method", self._context(), {"method": name, "message": message})

    def component_url(self, name: str) -> str:
        """Where the HTML of this page's component ``name`` is loaded."""
        return url_for("component", self._context(), {COMPONENT: name})

    def fragment_load_url(self, fragment: str, key: Any = None) -> str:
        """This page's URL rendering only ``fragment`` (of record ``key``)."""
        return self.route({"resourceItem": key, FRAGMENT: fragment})

    def _context(self) -> dict[str, Any]:
        resource = self.resource.uri if self.resource is not None else None
        return {"pageUri": self.uri, "resourceUri": resource}


class IndexPage(Page):
    """The list of a resource's records."""

    kind: ClassVar[str] = "index"


class FormPage(Page):
    """A resource's create form, or its edit form with a record key."""

    kind: ClassVar[str] = "form"


class DetailPage(Page):
    """One record of a resource."""

    kind: ClassVar[str] = "detail"


KINDS = ("index", "form", "detail")
PageRef = str | type[Page] | Page | None


class Pages:
    """Stand-alone pages by URI key."""

    def __init__(self, pages: Iterable[type[Page] | Page] = ()) -> None:
        self._pages: dict[str, Page] = {}
        for item in pages:
            page = item() if isinstance(item, type) else item
            if page.kind:
                raise TypeError(f"{page!r} belongs to a resource: list it in its pages")
            if page.uri in self._pages:
                raise TypeError(f"two pages use the URI key {page.uri!r}")
            self._pages[page.uri] = page

    def get(self, uri: str) -> Page:
        """The page with URI key ``uri``."""
        try:
            return self._pages[uri]
        except KeyError:
            raise PageError(f"Page {uri!r} is not registered") from None

    def __iter__(self) -> Iterator[Page]:
        return iter(self._pages.values())
