"""What a resource's pages show: the context of the index, form and detail templates.

Each framework loads the records, related labels and options its own way (a thread
pool hop and SQLAlchemy, or Django's ORM), then builds the context here and renders
the resource's own template if it has one (``resource_templates``), else the generic
one; so both frameworks serve the same HTML.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from . import fields as kernel
from .abilities import PAGE_ABILITIES, VIEW_ANY
from .filter_bar import chips, filter_controls, kept_filters, per_page
from .forms import Options, beside_theirs, form_values, form_widgets, with_files
from .history_pages import record_history
from .labels import record_label
from .pages import FRAGMENT
from .pagination import PageUrls, page_navigation, paginator
from .query import ListQuery
from .record_actions import offered
from .registry import PanelResource
from .resource import Resource
from .routes import url_for
from .table import columns, display, display_links, rows
from .translation import gettext
from .trash import trash_url
from .urls import page_url, record_url
from .versions import record_version

Errors = Mapping[str, Sequence[str]]
# What the page may offer its user, by ability: ``{"create": True, …}``.
Abilities = Mapping[str, bool]
EVERYTHING: Abilities = dict.fromkeys(PAGE_ABILITIES, True)
# Related records' labels by field name, then by key.
Labels = Mapping[str, Mapping[Any, str]]

# Pages load nothing from elsewhere and run no inline script.
PAGE_HEADERS = {
    "Content-Security-Policy": (
        "default-src 'self'; img-src 'self' data:; object-src 'none'; "
        "base-uri 'self'; form-action 'self'; frame-ancestors 'none'"
    ),
}


def resource_templates(uri: str, name: str) -> list[str]:
    """Where ``name`` is looked for: the resource's own, then the generic one."""
    return [f"panel/resources/{uri}/{name}", f"panel/{name}"]


def menu(resources: Iterable[Resource], current: str | None) -> list[dict[str, Any]]:
    """The panel's menu: a link to each resource's list; ``current`` is highlighted."""
    return [
        {
            "title": resource.title or resource.uri,
            "url": page_url(resource.uri, "index-page"),
            "current": resource.uri == current,
        }
        for resource in resources
    ]


def viewable(panels: Iterable[PanelResource[Any]], user: Any) -> list[Any]:
    """The resources whose list ``user`` may see, for the menu and the home page.

    A ``can`` that is ``async`` cannot be asked here: its resource is listed, and its
    pages still refuse.
    """
    shown = []
    for panel in panels:
        answer = True if panel.lifecycle.open else panel.resource.can(VIEW_ANY, user)
        if inspect.iscoroutine(answer):
            answer.close()
            answer = True
        if answer:
            shown.append(panel)
    return shown


def list_params(pairs: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    """The list parameters of a page request; blank filters and search are unset."""
    return [
        (name, value)
        for name, value in pairs
        if name != FRAGMENT and not (value == "" and name != "query-tag")
    ]


def _resource_context(panel: PanelResource[Any], can: Abilities) -> dict[str, Any]:
    soft_delete = type(panel.resource).soft_delete
    return {
        "can": can,
        "resource": panel.resource,
        "label": panel.store.label,
        "index_url": page_url(panel.uri, "index-page"),
        "create_url": page_url(panel.uri, "form-page"),
        "crud_url": panel.crud_url,
        "trash_url": trash_url(panel.uri) if soft_delete else None,
    }


def index_context(
    panel: PanelResource[Any],
    params: Sequence[tuple[str, str]],
    query: ListQuery,
    *,
    items: Sequence[dict[str, Any]],
    total: int | None,
    labels: Labels,
    options: Options,
    can: Abilities = EVERYTHING,
) -> dict[str, Any]:
    """The index page: table, pages, search, tags, the filter bar and its chips,
    the per-page choice.

    ``items`` are the records of this page, ``total`` how many match in all (or
    ``None`` when not counted).
    """
    resource = type(panel.resource)
    controls = filter_controls(resource, params, options)
    page = paginator(
        items,
        total=total,
        page=query.page,
        per_page=query.per_page,
        urls=PageUrls(page_url(panel.uri, "index-page"), params),
    )
    shown = rows(resource, items, labels)
    actions = resource.all_actions
    return {
        **_resource_context(panel, can),
        "columns": columns(resource, params),
        "rows": shown,
        "bulk_actions": offered(panel.uri, actions, can, bulk=True),
        "row_actions": {
            row.key: offered(panel.uri, actions, can, bulk=False, key=row.key)
            for row in shown
        },
        # The list's own parameters: "all matching" runs an action on what they find.
        "list_params": [(n, v) for n, v in params if n not in ("page", "per_page")],
        "page": page,
        "page_navigation": page_navigation(page),
        "search": query.search or "",
        "searchable": bool(resource.search),
        "query_tag": query.query_tag,
        "query_tags": [
            (tag, page_url(panel.uri, "index-page", query={"query-tag": tag.uri}))
            for tag in resource.query_tags
        ],
        "filters": controls,
        "kept_filters": kept_filters(controls, params),
        "chips": chips(resource, params, options),
        "per_page": per_page(params, query.per_page, panel.max_per_page),
        "sort": dict(params).get("sort", ""),
        "here": page_url(panel.uri, "index-page", query=params),
        "table_templates": resource_templates(panel.uri, "_table.html"),
        "export_url": url_for(
            "handler", {"resourceUri": panel.uri, "handlerUri": "export"}, params
        ),
        "import_url": page_url(panel.uri, "import-page"),
    }


def form_context(
    panel: PanelResource[Any],
    record: Mapping[str, Any] | None,
    options: Options,
    *,
    key: Any = None,
    values: Mapping[str, str] | None = None,
    errors: Errors | None = None,
    can: Abilities = EVERYTHING,
    version: str | None = None,
    changed: bool = False,
) -> dict[str, Any]:
    """The create form (no ``key``) or the edit form of ``record``.

    ``values`` are what the user sent, kept when the form comes back with ``errors``;
    without them the form shows the record, or a new record's defaults. The edit form
    carries the ``version`` of the record its user started from (default: the
    record's). ``changed``: a save was refused because someone else changed the
    record meanwhile; ``record`` is what they saved, shown beside the user's input,
    and saving again replaces it.
    """
    resource = type(panel.resource)
    values = form_values(resource, record, values)
    creating = key is None
    errors = errors or {}
    widgets = form_widgets(resource, values, errors, options, creating=creating)
    if changed and record is not None:
        widgets = beside_theirs(widgets, resource, record)
    if record is not None:
        widgets = with_files(widgets, resource, record)
    multipart = bool(kernel.file_fields(resource.writable_fields))
    shown = {widget.name for widget in widgets}
    label = panel.store.label
    crumbs = [(resource.title, page_url(panel.uri, "index-page"))]
    name = key
    if not creating:
        name = record_label(resource, key, record or {})
        crumbs.append((name, page_url(panel.uri, "detail-page", key)))
    if version is None and record is not None:
        version = record_version(record)
    return {
        **_resource_context(panel, can),
        "key": key,
        "heading": (
            gettext("New %(label)s") % {"label": label}
            if creating
            else gettext("Edit %(label)s %(name)s") % {"label": label, "name": name}
        ),
        "crumbs": crumbs,
        "widgets": widgets,
        "action": _form_action(panel, key, multipart=multipart),
        "multipart": multipart,
        "errors": errors,
        "other_errors": [m for k, ms in errors.items() if k not in shown for m in ms],
        "version": None if creating else version,
        "changed": changed,
    }


def _form_action(panel: PanelResource[Any], key: Any, *, multipart: bool) -> str:
    """Where the form posts: the list (create) or the record (update; a multipart
    form names its method in the query, ``panel_core.file_writes``)."""
    if key is None:
        return panel.crud_url
    url = record_url(panel.crud_url, key)
    return url + "?_method=PUT" if multipart else url


def detail_context(
    panel: PanelResource[Any],
    key: Any,
    record: Mapping[str, Any],
    labels: Labels,
    can: Abilities = EVERYTHING,
    children: Sequence[Mapping[str, Any]] = (),
    history: Sequence[Mapping[str, Any]] = (),
) -> dict[str, Any]:
    """One record: its detail fields, the actions its user may take, its children
    (``panel_core.children.children_section``, one per has-many field) and its
    latest changes (rows of the history, newest first)."""
    resource = type(panel.resource)
    name = record_label(resource, key, record)
    return {
        **_resource_context(panel, can),
        "key": key,
        "heading": f"{panel.store.label} {name}",
        "crumbs": [(resource.title, page_url(panel.uri, "index-page"))],
        "items": [
            (f.label, display(f, record[f.name], labels.get(f.name)))
            for f in resource.detail_field_list
        ]
        + [
            (link.label, display_links(link, record[link.name], labels.get(link.name)))
            for link in resource.many_to_many
        ],
        "edit_url": page_url(panel.uri, "form-page", key),
        "record_url": record_url(panel.crud_url, key),
        "row_actions": offered(
            panel.uri, resource.all_actions, can, bulk=False, key=key
        ),
        "version": record_version(record),
        "children": list(children),
        "history": record_history(resource, history),
    }
