"""``to_page``: every way to name a page and a resource, and its errors.

One file in the FastAPI and the Django project (``tests/frame.py`` says how).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from panel_core.current import RouteState, Site, reset_current_route
from panel_core.current import set_current_route as remember
from panel_core.endpoints import to_page
from panel_core.pages import FormPage, IndexPage, PageError
from tests.frame import redirect_to_page
from tests.gadgets import CustomPagesResource, GadgetResource, ReportPage

GADGETS = GadgetResource()
R = "/admin/resource/gadget-resource"
CASES: list[tuple[str, Callable[[], str], str]] = [
    (
        "to_page resource class",
        lambda: to_page(resource=GadgetResource),
        f"{R}/index-page",
    ),
    ("to_page resource", lambda: to_page(resource=GADGETS), f"{R}/index-page"),
    (
        "to_page page class",
        lambda: to_page(IndexPage, GadgetResource),
        f"{R}/index-page",
    ),
    (
        "to_page form item",
        lambda: to_page("form", GadgetResource, params={"resourceItem": 5}),
        f"{R}/form-page/5",
    ),
    (
        "to_page uri alias",
        lambda: to_page("detail-page", GADGETS, {"resourceItem": 2}),
        f"{R}/detail-page/2",
    ),
    ("to_page page object", lambda: to_page(FormPage(GADGETS)), f"{R}/form-page"),
    (
        "to_page query",
        lambda: to_page("index", GADGETS, {"query-tag": "active"}),
        f"{R}/index-page?query-tag=active",
    ),
    (
        "to_page fragment",
        lambda: to_page("index", GADGETS, fragment="table"),
        f"{R}/index-page?_fragment-load=table",
    ),
    (
        "to_page base class",
        lambda: to_page(IndexPage, CustomPagesResource),
        "/admin/resource/custom-resource/gadget-list-page",
    ),
    (
        "to_page stand-alone class",
        lambda: to_page(ReportPage),
        "/admin/page/report-page",
    ),
    (
        "to_page stand-alone fragment",
        lambda: to_page(ReportPage, fragment="chart"),
        "/admin/page/report-page?_fragment-load=chart",
    ),
]


@pytest.fixture
def site() -> Iterator[Site]:
    """A current request on a site serving the gadgets and the report page."""
    current = Site([GADGETS], [ReportPage])
    token = remember(RouteState("index", {}, current))
    yield current
    reset_current_route(token)


@pytest.mark.parametrize(
    ("helper", "expected"), [pytest.param(h, e, id=i) for i, h, e in CASES]
)
def test_to_page(helper: Callable[[], str], expected: str) -> None:
    assert helper() == expected


@pytest.mark.usefixtures("site")
def test_to_page_finds_aliases_on_the_current_site() -> None:
    assert to_page("form", "gadget-resource") == f"{R}/form-page"
    assert to_page("report-page") == "/admin/page/report-page"


@pytest.mark.parametrize(
    ("page", "resource", "message"),
    [
        (None, None, "Page or resource must not be null"),
        (
            "nope",
            GADGETS,
            "Page 'nope' is not a page of gadget-resource (its pages: index-page, form-page, detail-page)",
        ),
        (ReportPage, GADGETS, "ReportPage is not a page of gadget-resource"),
        ("index", None, "Page 'index' is a resource's page: pass its resource"),
        (IndexPage, None, "IndexPage is a resource's page: pass its resource"),
        ("report-page", None, "Page 'report-page' is not registered"),
        (None, "gadget-resource", "Resource 'gadget-resource' is not registered"),
    ],
)
def test_to_page_errors(page: Any, resource: Any, message: str) -> None:
    with pytest.raises(PageError) as error:
        to_page(page, resource)
    assert str(error.value).startswith(message)


@pytest.mark.usefixtures("site")
def test_unknown_aliases_on_the_site_are_errors() -> None:
    with pytest.raises(PageError, match="Page 'nope' is not registered"):
        to_page("nope")
    with pytest.raises(PageError, match="Resource 'nope' is not registered"):
        to_page("index", "nope")


def test_to_page_redirects_with_303() -> None:
    response = redirect_to_page(
        "form", GadgetResource, {"resourceItem": 5}, redirect=True
    )
    assert response.status_code == 303
    assert response.headers["location"] == f"{R}/form-page/5"
