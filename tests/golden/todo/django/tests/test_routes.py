"""Every route of the kernel's table resolves by name with Django's ``reverse``.

``reverse("panel:<name>")`` and the kernel's ``url_for`` give the same paths, so pages,
scripts and the spec agree on every URL; Django serves every URL the resources' and
pages' helpers give (``test_navigation.py``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import pytest
from django.urls import resolve, reverse

from panel_core.routes import ROUTES, placeholders, url_for
from tests.gadgets import GadgetResource
from tests.test_navigation import HELPERS

GADGETS = GadgetResource()

SAMPLE_VALUES = {
    "resourceUri": "book-resource",
    "resourceItem": "5",
    "pageUri": "index-page",
    "handlerUri": "export",
    "actionUri": "archive",
    "fieldName": "file",
    "fileId": "0" * 32 + "-a.png",
}
PATTERNS = [
    (name, pattern) for name, route in ROUTES.items() for pattern in route.patterns
]


@pytest.mark.parametrize(("name", "pattern"), PATTERNS, ids=lambda v: str(v))
def test_reverse_gives_the_kernel_url(name: str, pattern: str) -> None:
    params = {p: SAMPLE_VALUES[p] for p in placeholders(pattern)}
    path = reverse(f"panel:{name}", kwargs=params)
    assert path == url_for(name, params)
    # Routes sharing a path share its view: the path resolves to one of them.
    resolved = resolve(path).url_name
    assert resolved is not None
    assert pattern in ROUTES[resolved].patterns


def test_crud_routes_are_named_as_in_moonshine() -> None:
    params = {"resourceUri": "book-resource", "resourceItem": "5"}
    assert reverse("panel:crud.update", kwargs=params) == (
        "/admin/resource/book-resource/crud/5"
    )
    assert reverse("panel:crud.massDelete", kwargs={"resourceUri": "x"}) == (
        "/admin/resource/x/crud"
    )


@pytest.mark.parametrize("helper", [pytest.param(h, id=i) for i, h, _ in HELPERS])
def test_django_serves_every_helper_url(helper: Callable[[], str]) -> None:
    assert resolve(urlsplit(helper()).path).namespace == "panel"


@pytest.mark.parametrize(
    ("name", "kwargs", "helper"),
    [
        ("crud.update", {"resourceItem": 5}, lambda: GADGETS.route("crud.update", 5)),
        ("crud.index", {}, lambda: GADGETS.route("crud.index")),
        (
            "handler",
            {"handlerUri": "export"},
            lambda: GADGETS.route("handler", None, {"handlerUri": "export"}),
        ),
        (
            "resource.page",
            {"pageUri": "form-page", "resourceItem": 5},
            lambda: GADGETS.form_page_url(5),
        ),
    ],
)
def test_reverse_agrees_with_the_helpers(
    name: str, kwargs: dict[str, Any], helper: Callable[[], str]
) -> None:
    path = reverse(f"panel:{name}", kwargs={"resourceUri": GADGETS.uri, **kwargs})
    assert path == helper()
