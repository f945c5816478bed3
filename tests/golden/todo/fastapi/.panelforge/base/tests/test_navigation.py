"""A resource's and a page's URL helpers: the URL each one gives, one row per case.

One file in the FastAPI and the Django project (``tests/frame.py`` says how).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from jinja2 import Environment

from panel_core.current import RouteState, reset_current_route
from panel_core.current import set_current_route as remember
from panel_core.pages import FormPage, IndexPage, Page, Pages
from panel_core.resource import Resource
from tests.frame import install_template_helpers
from tests.gadget_parts import GadgetListPage
from tests.gadgets import CustomPagesResource, GadgetResource, ReportPage

GADGETS = GadgetResource()
REPORT = ReportPage()
R = "/admin/resource/gadget-resource"


HELPERS: list[tuple[str, Callable[[], str], str]] = [
    ("url", lambda: GADGETS.url(), f"{R}/index-page"),
    ("route crud.update", lambda: GADGETS.route("crud.update", 5), f"{R}/crud/5"),
    ("route crud.store", lambda: GADGETS.route("crud.store"), f"{R}/crud"),
    ("route crud.massDelete", lambda: GADGETS.route("crud.massDelete"), f"{R}/crud"),
    (
        "route crud.index query",
        lambda: GADGETS.route("crud.index", query={"page": 2, "sort": "-id"}),
        f"{R}/crud?page=2&sort=-id",
    ),
    (
        "route handler",
        lambda: GADGETS.route("handler", query={"handlerUri": "export"}),
        f"{R}/handler/export",
    ),
    ("route index", lambda: GADGETS.route("index"), "/admin"),
    (
        "page_url",
        lambda: GADGETS.page_url("detail-page", {"resourceItem": 3}),
        f"{R}/detail-page/3",
    ),
    (
        "page_url fragment",
        lambda: GADGETS.page_url(IndexPage, fragment="table"),
        f"{R}/index-page?_fragment-load=table",
    ),
    ("index_page_url", lambda: GADGETS.index_page_url(), f"{R}/index-page"),
    (
        "index_page_url query-tag",
        lambda: GADGETS.index_page_url(query={"query-tag": "active"}),
        f"{R}/index-page?query-tag=active",
    ),
    ("form_page_url create", lambda: GADGETS.form_page_url(), f"{R}/form-page"),
    ("form_page_url key", lambda: GADGETS.form_page_url(5), f"{R}/form-page/5"),
    (
        "form_page_url record",
        lambda: GADGETS.form_page_url({"id": 6, "name": "x"}),
        f"{R}/form-page/6",
    ),
    ("detail_page_url", lambda: GADGETS.detail_page_url(5), f"{R}/detail-page/5"),
    (
        "detail_page_url record",
        lambda: GADGETS.detail_page_url({"id": 8}),
        f"{R}/detail-page/8",
    ),
    (
        "async_method_url",
        lambda: GADGETS.async_method_url("restock"),
        "/admin/method/index-page/gadget-resource?method=restock",
    ),
    (
        "async_method_url message page",
        lambda: GADGETS.async_method_url("restock", "Done!", page="form"),
        "/admin/method/form-page/gadget-resource?method=restock&message=Done%21",
    ),
    (
        "component_url",
        lambda: GADGETS.component_url("table", page="index"),
        "/admin/component/index-page/gadget-resource?_component_name=table",
    ),
    (
        "fragment_load_url",
        lambda: GADGETS.fragment_load_url("table", "index"),
        f"{R}/index-page?_fragment-load=table",
    ),
    (
        "fragment_load_url key",
        lambda: GADGETS.fragment_load_url("fields", FormPage, 5),
        f"{R}/form-page/5?_fragment-load=fields",
    ),
    (
        "custom first page",
        lambda: CustomPagesResource().url(),
        "/admin/resource/custom-resource/form-page",
    ),
    (
        "custom index kind",
        lambda: CustomPagesResource().index_page_url(),
        "/admin/resource/custom-resource/gadget-list-page",
    ),
    ("page url", lambda: REPORT.url(), "/admin/page/report-page"),
    (
        "page route",
        lambda: REPORT.route({"tab": "year"}),
        "/admin/page/report-page?tab=year",
    ),
    (
        "page async_method_url",
        lambda: REPORT.async_method_url("rebuild"),
        "/admin/method/report-page?method=rebuild",
    ),
    (
        "page component_url",
        lambda: REPORT.component_url("chart"),
        "/admin/component/report-page?_component_name=chart",
    ),
    (
        "page fragment_load_url",
        lambda: REPORT.fragment_load_url("chart"),
        "/admin/page/report-page?_fragment-load=chart",
    ),
    (
        "bound page async_method_url",
        lambda: FormPage(GADGETS).async_method_url("restock"),
        "/admin/method/form-page/gadget-resource?method=restock",
    ),
]


@pytest.mark.parametrize(
    ("helper", "expected"), [pytest.param(h, e, id=i) for i, h, e in HELPERS]
)
def test_helper(helper: Callable[[], str], expected: str) -> None:
    assert helper() == expected


def test_async_method_url_defaults_to_the_current_page() -> None:
    token = remember(
        RouteState(
            "resource.page", {"resourceUri": GADGETS.uri, "pageUri": "form-page"}
        )
    )
    try:
        assert GADGETS.async_method_url("restock") == (
            "/admin/method/form-page/gadget-resource?method=restock"
        )
    finally:
        reset_current_route(token)


def test_detail_page_url_needs_a_key() -> None:
    with pytest.raises(ValueError, match="needs a record key"):
        GADGETS.detail_page_url(None)
    with pytest.raises(ValueError, match="the record has no 'id' key"):
        GADGETS.form_page_url({"name": "x"})


def test_template_helpers() -> None:
    env = Environment(autoescape=True)
    install_template_helpers(env)
    text = "{{ route('crud.update', {'resourceUri': 'r', 'resourceItem': 5}) }}"
    assert env.from_string(text).render() == "/admin/resource/r/crud/5"
    assert env.from_string("{{ to_page(page) }}").render(page=REPORT) == (
        "/admin/page/report-page"
    )


def test_declaration_errors() -> None:
    with pytest.raises(TypeError, match="'url' cannot be an async method"):
        type("Bad", (GadgetResource,), {"methods": ("url",)})
    with pytest.raises(TypeError, match="'_secret' cannot be an async method"):
        type("Bad", (GadgetResource,), {"methods": ("_secret",)})
    with pytest.raises(TypeError, match="the page URI 'crud' is taken"):
        type("Bad", (Page,), {"uri": "crud"})
    with pytest.raises(TypeError, match="two pages use the URI key 'report-page'"):
        Pages([ReportPage, ReportPage])
    with pytest.raises(TypeError, match="belongs to a resource"):
        Pages([IndexPage])


def test_a_resource_without_uri_gets_its_kebab_class_name() -> None:
    assert GadgetResource.uri == "gadget-resource"
    assert issubclass(GadgetResource, Resource)
    assert ReportPage.uri == "report-page"
    assert GadgetListPage.uri == "gadget-list-page"
