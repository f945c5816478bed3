"""A resource and a page the skeleton's tests declare themselves, whatever the manifest.

``GadgetResource`` has its own table on the test database (created and dropped around
each test that uses ``gadget_app``), so these tests never depend on the manifest's
resources.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request, Response
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from app.main import create_app
from app.roles import ROLES
from panel_core.abilities import RoleTable
from panel_core.current import current_route
from panel_core.pages import FormPage, Page
from panel_core.resource import Resource
from tests.gadget_parts import (
    GadgetDeclarations,
    GadgetListPage,
    page_checks,
)


class _Base(DeclarativeBase):
    metadata = sa.MetaData()


class Gadget(_Base):
    """A row of the tests' own table."""

    __tablename__ = "panel_test_gadgets"

    id: Mapped[int] = mapped_column(sa.Integer, primary_key=True)
    name: Mapped[str] = mapped_column(sa.String(50))
    price: Mapped[float | None] = mapped_column(sa.Double)
    stock: Mapped[int | None] = mapped_column(sa.Integer)
    active: Mapped[bool] = mapped_column(sa.Boolean, default=True)
    kind: Mapped[str | None] = mapped_column(sa.String(4))
    released_on: Mapped[datetime.date | None] = mapped_column(sa.Date)
    notes: Mapped[str | None] = mapped_column(sa.Text)


class GadgetResource(GadgetDeclarations, Resource):
    """The tests' resource; its URI key is the default one, ``gadget-resource``."""

    model = Gadget
    methods = ("restock", "refuse", "download", "where", "count")

    async def restock(self, request: Request) -> dict[str, Any]:
        """Answers with its own message."""
        return {"message": f"Restocked {request.query_params.get('n', '0')}."}

    async def refuse(self, request: Request) -> dict[str, Any]:
        """Fails validation."""
        raise ValueError("The stock is locked.")

    async def download(self, request: Request) -> Response:
        """Answers with a response of its own."""
        return Response(b"a,b\n", media_type="text/csv")

    async def where(self, request: Request) -> dict[str, Any]:
        """Where the current-page checks say the request is."""
        state = current_route()
        return {"route": state.name if state else None, **page_checks(self)}

    def count(self, request: Request) -> None:
        """A plain method (run in the thread pool) answering nothing."""

    def not_a_method(self, request: Request) -> dict[str, Any]:
        """Public, but not in ``methods``: never callable over HTTP."""
        return {"message": "should not run"}


class ReportPage(Page):
    """A stand-alone page with an async method."""

    title = "Reports"
    methods = ("rebuild",)

    async def rebuild(self, request: Request) -> dict[str, Any]:
        """Answers with its own message type."""
        return {"message": "Rebuilt.", "messageType": "info"}


class CustomPagesResource(GadgetResource):
    """The same resource with its own pages; the first is the form."""

    uri = "custom-resource"
    pages = (FormPage, GadgetListPage)


def gadget_app(
    template: FastAPI,
    resources: Iterable[type[Resource]] = (GadgetResource,),
    roles: RoleTable = ROLES,
    **settings: Any,
) -> Iterator[FastAPI]:
    """An app with the settings of ``template`` serving only the tests' resources.

    ``resources`` are the tests' resource (or customised ones, ``tests.customising``);
    ``roles`` are the manifest's (``app/roles.py``) unless given.
    """
    changed = template.state.settings.model_copy(update=settings)
    application = create_app(
        changed, resources=resources, pages=[ReportPage], roles=roles
    )
    engine = application.state.engine
    _Base.metadata.create_all(engine)
    try:
        yield application
    finally:
        _Base.metadata.drop_all(engine)
        engine.dispose()


def add_gadgets(app: FastAPI, count: int) -> None:
    """``count`` more active tools, in one statement."""
    same = {"active": True, "kind": "tool", "released_on": datetime.date(2024, 2, 29)}
    rows = [{"name": f"Gadget {n}", "stock": n, **same} for n in range(count)]
    with app.state.engine.begin() as connection:
        connection.execute(sa.insert(Gadget), rows)


@contextmanager
def statements_run(app: FastAPI) -> Iterator[list[str]]:
    """The SQL statements ``app`` runs inside the block, as they run."""
    run: list[str] = []

    def seen(_connection: Any, _cursor: Any, statement: str, *_rest: Any) -> None:
        run.append(statement)

    sa.event.listen(app.state.engine, "before_cursor_execute", seen)
    try:
        yield run
    finally:
        sa.event.remove(app.state.engine, "before_cursor_execute", seen)
