"""A resource and a page the skeleton's tests declare themselves, whatever the manifest.

``Gadget`` is a test-only model: its app label (``panel_tests``) is no installed app,
so migrations never see it; ``gadget_table`` creates its table on the test database
for a module's tests and drops it afterwards. ``serve_gadgets`` makes the panel serve
``GadgetResource`` and ``ReportPage`` alone for one test, so these tests never depend
on the manifest's resources.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection, models
from django.http import HttpRequest, HttpResponse
from django.test import Client

from panel import registry, site
from panel.users import create_user
from panel_core.abilities import ADMIN
from panel_core.current import current_route
from panel_core.pages import FormPage, Page
from panel_core.resource import Resource
from tests.gadget_parts import (
    GadgetDeclarations,
    GadgetListPage,
    page_checks,
)

JSON = {"Accept": "application/json"}
EMAIL = "ada@example.com"
PASSWORD = "correct horse battery staple"


class Gadget(models.Model):
    """A row of the tests' own table."""

    name = models.CharField(max_length=50)
    price = models.FloatField(null=True)
    stock = models.IntegerField(null=True)
    active = models.BooleanField(default=True)
    kind = models.CharField(max_length=4, null=True)  # noqa: DJ001 (null is no kind)
    released_on = models.DateField(null=True)
    notes = models.TextField(null=True)  # noqa: DJ001 (null is no notes)

    class Meta:
        app_label = "panel_tests"
        db_table = "panel_test_gadgets"

    def __str__(self) -> str:
        return self.name


class GadgetResource(GadgetDeclarations, Resource):
    """The tests' resource; its URI key is the default one, ``gadget-resource``."""

    model = Gadget
    methods = ("restock", "refuse", "download", "where", "count", "later")

    def restock(self, request: HttpRequest) -> dict[str, Any]:
        """Answers with its own message."""
        return {"message": f"Restocked {request.GET.get('n', '0')}."}

    def refuse(self, request: HttpRequest) -> dict[str, Any]:
        """Fails validation."""
        raise ValueError("The stock is locked.")

    def download(self, request: HttpRequest) -> HttpResponse:
        """Answers with a response of its own."""
        return HttpResponse(b"a,b\n", content_type="text/csv")

    def where(self, request: HttpRequest) -> dict[str, Any]:
        """Where the current-page checks say the request is."""
        state = current_route()
        return {"route": state.name if state else None, **page_checks(self)}

    def count(self, request: HttpRequest) -> None:
        """A method answering nothing."""

    async def later(self, request: HttpRequest) -> dict[str, Any]:
        """An ``async def`` method: run to completion within the request."""
        return {"message": "Later."}

    def not_a_method(self, request: HttpRequest) -> dict[str, Any]:
        """Public, but not in ``methods``: never callable over HTTP."""
        return {"message": "should not run"}


class ReportPage(Page):
    """A stand-alone page with an async method."""

    title = "Reports"
    methods = ("rebuild",)

    def rebuild(self, request: HttpRequest) -> dict[str, Any]:
        """Answers with its own message type."""
        return {"message": "Rebuilt.", "messageType": "info"}


class CustomPagesResource(GadgetResource):
    """The same resource with its own pages; the first is the form."""

    uri = "custom-resource"
    pages = (FormPage, GadgetListPage)


def gadget_table(blocker: Any) -> Iterator[None]:
    """The gadgets' table, for a module's tests (``django_db_blocker`` unblocks)."""
    with blocker.unblock(), connection.schema_editor() as editor:
        editor.create_model(Gadget)
    yield
    with blocker.unblock(), connection.schema_editor() as editor:
        editor.delete_model(Gadget)


def serve_gadgets(
    monkeypatch: pytest.MonkeyPatch,
    resources: tuple[type[Resource], ...] = (GadgetResource,),
) -> Iterator[None]:
    """Serve ``GadgetResource`` (or ``resources``) and ``ReportPage`` alone, for one
    test (a fixture)."""
    monkeypatch.setattr("app.resources.RESOURCES", resources)
    monkeypatch.setattr(site, "RESOURCES", resources)
    monkeypatch.setattr(site, "PAGES", (ReportPage,))
    forget_resources()
    yield
    monkeypatch.undo()
    forget_resources()


def forget_resources() -> None:
    """Drop what the panel built from the resource lists; it is rebuilt on use."""
    registry.registry.cache_clear()
    for built in (site.resources, site.resource_classes, site.site):
        built.cache_clear()


def json_client(*, csrf: bool = True, email: str = EMAIL, role: str = ADMIN) -> Client:
    """A JSON client logged in as a new user, sending the CSRF token on each request.

    ``csrf=False`` sends no token: Django's CSRF checks apply to this client either way.
    The user has the e-mail address ``email`` and the role ``role``.
    """
    create_user(email=email, password=PASSWORD, name="Ada", role=role)
    client = Client(enforce_csrf_checks=True, headers=JSON)
    body = {"username": email, "password": PASSWORD}
    response = client.post("/admin/authenticate", body, content_type="application/json")
    assert response.status_code == 200, response.content
    answer = response.json()
    if "token" in answer:
        client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {answer['token']}"
    elif csrf:
        client.defaults["HTTP_X_CSRF_TOKEN"] = answer["csrf_token"]
    return client


def add_gadgets(count: int) -> None:
    """``count`` more active tools, in one statement."""
    same = {"active": True, "kind": "tool", "released_on": datetime.date(2024, 2, 29)}
    Gadget.objects.bulk_create(
        Gadget(name=f"Gadget {n}", stock=n, **same) for n in range(count)
    )
