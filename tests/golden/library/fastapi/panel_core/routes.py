"""Every panel route by name, and ``url_for``: the one place that builds panel URLs.

The panel's prefix (``/admin`` unless moved) is kept here too, and nowhere else: the
framework sets it once at start-up with ``mount_panel`` (FastAPI from ``PANEL_PREFIX``,
Django from where ``config/urls.py`` includes ``panel.urls``), before it registers the
routes; links, redirects, the 405's ``Allow`` and the spec's paths all read it.

Names are MoonShine's without the ``moonshine.`` prefix. A route may have several path
patterns, most specific first (``resource.page`` with and without ``{resourceItem}``);
each framework registers every pattern under the route's name, so its own URL builder
(``url_path_for``, ``reverse``) and ``url_for`` below give the same paths.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any
from urllib.parse import quote, urlencode

DEFAULT_PREFIX = "/admin"
# MoonShine's ANY: every method a browser or an API client sends.
ANY = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE")
# The methods of each resource handler (``…/handler/{handlerUri}``): the route takes
# ANY, as MoonShine's does, and the handler named answers its own methods only.
HANDLER_METHODS: dict[str, tuple[str, ...]] = {
    "export": ("GET", "HEAD"),
    "import": ("POST",),
}

_PLACEHOLDER = re.compile(r"{(\w+)}")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


class RouteError(LookupError):
    """No such route, or not enough parameters to build its URL."""


_PREFIX_SHAPE = re.compile(r"(?:/[A-Za-z0-9._~-]+)+")


def prefix_from(text: str) -> str:
    """``text`` as a panel prefix: ``backoffice/`` → ``/backoffice``.

    Raises ValueError (with a message for the user) unless ``text`` names at least
    one path segment of plain characters (letters, digits, ``.``, ``_``, ``~``, ``-``).
    """
    prefix = "/" + text.strip().strip("/")
    if not _PREFIX_SHAPE.fullmatch(prefix):
        raise ValueError(
            f"The panel's prefix must be a path such as /admin or /office/panel "
            f"(letters, digits, '.', '_', '~', '-' between slashes), not {text!r}."
        )
    return prefix


class _Mount:
    # The one piece of process state: where the panel is mounted, as a WSGI/ASGI
    # server's SCRIPT_NAME is. Set before the routes are registered, read by each URL.
    prefix = DEFAULT_PREFIX
    pending: Callable[[], str] | None = None


def mount_panel(prefix: str) -> str:
    """Serve the panel under ``prefix`` (see ``prefix_from``); returns it normalised."""
    _Mount.pending = None
    _Mount.prefix = prefix_from(prefix)
    return _Mount.prefix


def mount_panel_later(resolve: Callable[[], str]) -> None:
    """Serve the panel under ``resolve()``, asked when the first URL is built.

    Django's mount is known once its URLconf can be imported, which an app's
    ``ready()`` must not do (other apps, the admin's registry among them, are not
    ready yet).
    """
    _Mount.pending = resolve


def panel_prefix() -> str:
    """Where the panel is mounted: ``/admin`` unless ``mount_panel`` moved it."""
    resolve = _Mount.pending
    if resolve is not None:
        _Mount.pending = None
        _Mount.prefix = prefix_from(resolve())
    return _Mount.prefix


def uri_key(class_name: str) -> str:
    """The kebab-case URI key of a class: ``BookResource`` → ``book-resource``."""
    return "-".join(p.lower() for p in _CAMEL_BOUNDARY.split(class_name) if p)


@dataclass(frozen=True)
class Route:
    """A named route: its HTTP methods and its path patterns below the prefix."""

    name: str
    methods: tuple[str, ...]
    paths: tuple[str, ...]

    @property
    def patterns(self) -> tuple[str, ...]:
        """The full path patterns, the panel's prefix included."""
        prefix = panel_prefix()
        return tuple(prefix + path for path in self.paths)

    @property
    def params(self) -> frozenset[str]:
        """Every path parameter any of the patterns takes."""
        return frozenset(p for path in self.paths for p in placeholders(path))


def placeholders(pattern: str) -> tuple[str, ...]:
    """The parameter names of a path pattern, in order."""
    return tuple(_PLACEHOLDER.findall(pattern))


_RESOURCE = "/resource/{resourceUri}"
_CRUD = _RESOURCE + "/crud"
_ITEM = _CRUD + "/{resourceItem}"

ROUTES: Mapping[str, Route] = {
    route.name: route
    for route in (
        Route("index", ("GET",), ("",)),
        # The home page's dashboard as JSON (``panel_core.dashboard``).
        Route("dashboard", ("GET",), ("/dashboard",)),
        Route("login", ("GET",), ("/login",)),
        Route("authenticate", ("POST",), ("/authenticate",)),
        Route("logout", ("POST", "DELETE"), ("/logout",)),
        Route("crud.index", ("GET",), (_CRUD,)),
        Route("crud.show", ("GET",), (_ITEM,)),
        Route("crud.store", ("POST",), (_CRUD,)),
        Route("crud.update", ("PUT", "PATCH"), (_ITEM,)),
        Route("crud.destroy", ("DELETE",), (_ITEM,)),
        Route("crud.massDelete", ("DELETE",), (_CRUD,)),
        # A resource's action: its form page (GET), and running it (POST) on the
        # records ``ids[]`` names, or with ``all=1`` on all matching the filters.
        Route("crud.action", ("GET", "POST"), (_CRUD + "/actions/{actionUri}",)),
        # The trash of a resource with ``soft_delete``; before ``resource.page``,
        # whose ``{pageUri}`` would take "trash" too.
        Route("crud.trash", ("GET",), (_RESOURCE + "/trash",)),
        Route("crud.restore", ("POST",), (_ITEM + "/restore",)),
        Route("crud.forceDelete", ("DELETE",), (_ITEM + "/force",)),
        # A file or image field's stored file (``panel_core.downloads``).
        Route("crud.file", ("GET",), (_RESOURCE + "/files/{fieldName}/{fileId}",)),
        Route(
            "handler",
            ANY,
            (_RESOURCE + "/handler/{handlerUri}", _RESOURCE + "/handler"),
        ),
        Route(
            "resource.page",
            ("GET",),
            (_RESOURCE + "/{pageUri}/{resourceItem}", _RESOURCE + "/{pageUri}"),
        ),
        Route("page", ("GET",), ("/page/{pageUri}",)),
        # Any method, as in MoonShine; since a method may change data, session mode
        # demands the CSRF token on every method of this route, GET included.
        Route("method", ANY, ("/method/{pageUri}/{resourceUri}", "/method/{pageUri}")),
        Route(
            "component",
            ("GET",),
            ("/component/{pageUri}/{resourceUri}", "/component/{pageUri}"),
        ),
    )
}


def route(name: str) -> Route:
    """The route called ``name``."""
    try:
        return ROUTES[name]
    except KeyError:
        known = ", ".join(ROUTES)
        raise RouteError(f"No route named {name!r}; the routes are: {known}") from None


def url_for(
    name: str,
    params: Mapping[str, Any] | None = None,
    query: Mapping[str, Any] | Iterable[tuple[str, Any]] | None = None,
) -> str:
    """The path of route ``name``; parameters it does not take go to the query.

    Empty values (``None``, ``""``, empty lists) are dropped, as MoonShine drops them;
    ``0`` and ``False`` are values. The first pattern whose parameters are all given
    wins, so ``resourceItem`` lands in the path when the route has room for it.
    """
    target = route(name)
    given = {k: v for k, v in (params or {}).items() if not _empty(v)}
    for pattern in target.patterns:
        names = placeholders(pattern)
        if all(n in given for n in names):
            path = _PLACEHOLDER.sub(lambda m: _segment(given[m.group(1)]), pattern)
            rest = [(k, v) for k, v in given.items() if k not in names]
            return path + query_string([*rest, *_pairs(query)])
    needed = placeholders(target.patterns[-1])
    missing = ", ".join(n for n in needed if n not in given)
    raise RouteError(f"No URL for route {name!r}: missing {missing}")


def query_string(pairs: Iterable[tuple[str, Any]]) -> str:
    """``?a=1&b=2`` from pairs, without empty values; ``""`` when nothing is left."""
    items: list[tuple[str, str]] = []
    for key, value in pairs:
        values = value if isinstance(value, list | tuple) else [value]
        items += [(key, _text(v)) for v in values if not _empty(v)]
    return "?" + urlencode(items) if items else ""


def _pairs(
    query: Mapping[str, Any] | Iterable[tuple[str, Any]] | None,
) -> list[tuple[str, Any]]:
    if query is None:
        return []
    if isinstance(query, Mapping):
        return list(query.items())
    return list(query)


def _empty(value: Any) -> bool:
    return value is None or value == "" or value == [] or value == ()


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _segment(value: Any) -> str:
    return quote(_text(value), safe="")


def _matcher(pattern: str) -> re.Pattern[str]:
    parts = _PLACEHOLDER.split(pattern)
    # split() alternates literal text and parameter names: every odd item is a name.
    regex = "".join("[^/]+" if i % 2 else re.escape(p) for i, p in enumerate(parts))
    return re.compile(regex)


@lru_cache(maxsize=2)
def _matchers(prefix: str) -> tuple[tuple[re.Pattern[str], tuple[str, ...]], ...]:
    return tuple(
        (_matcher(prefix + path), route.methods)
        for route in ROUTES.values()
        for path in route.paths
    )


def allowed_methods(path: str) -> list[str]:
    """Every method the routes at ``path`` take, sorted: the ``Allow`` of a 405."""
    named = handler_methods(path)
    if named is not None:
        return sorted(named)
    matchers = _matchers(panel_prefix())
    found = {m for regex, methods in matchers if regex.fullmatch(path) for m in methods}
    return sorted(found)


def handler_methods(path: str) -> tuple[str, ...] | None:
    """The methods of the handler ``path`` names (none for an unknown handler);
    ``None`` when ``path`` names no handler."""
    found = _handler_path(panel_prefix()).fullmatch(path)
    if found is None:
        return None
    return HANDLER_METHODS.get(found.group(1), ())


@lru_cache(maxsize=2)
def _handler_path(prefix: str) -> re.Pattern[str]:
    pattern = _matcher(prefix + ROUTES["handler"].paths[0]).pattern
    # The last placeholder, ``{handlerUri}``, is the one captured.
    head, _, tail = pattern.rpartition("[^/]+")
    return re.compile(f"{head}([^/]+){tail}")
