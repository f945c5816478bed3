"""The framework-free parts of the tests' gadget resource, one file in both projects.

Each project's ``tests/gadgets.py`` declares ``GadgetResource`` from
``GadgetDeclarations``, with its own model and methods taking its own requests; the
sample records and the URLs are the same in both projects' tests.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from panel_core.fields import ID, Boolean, Date, Integer, Number, Select, Text, Textarea
from panel_core.pages import IndexPage
from panel_core.resource import QueryTag, Resource

URI = "gadget-resource"
CRUD = f"/admin/resource/{URI}/crud"
EXPORT = f"/admin/resource/{URI}/handler/export"
IMPORT = f"/admin/resource/{URI}/handler/import"
# The export's header row: every field, in declaration order.
HEADER = "id,name,price,stock,active,kind,released_on,notes"


class GadgetDeclarations:
    """What ``GadgetResource`` declares in both projects; each adds a model, methods."""

    title = "Gadgets"
    fields = (
        ID(),
        Text("name", max_length=50, required=True),
        Number("price"),
        Integer("stock", minimum=0),
        Boolean("active", default=True),
        Select("kind", options=("tool", "toy")),
        Date("released_on"),
        Textarea("notes", nullable=True),
    )
    search = ("name",)
    query_tags = (QueryTag("active", "Active", {"active": True}),)


# The paging tests' records (``seven_gadgets``: keys 1 to 7, every other one active).
# Names repeat, so sorting by name needs the key to break ties.
CURSOR_NAMES = ["delta", "alpha", "charlie", "alpha", "bravo", "delta", "alpha"]

# Records to create: every type, quotes and new lines, and cells a spreadsheet would
# take for formulas.
SAMPLE_GADGETS = [
    {
        "name": "Hammer",
        "price": 9.5,
        "stock": 3,
        "active": True,
        "kind": "tool",
        "released_on": "2024-02-29",
        "notes": 'Heavy, "steel"\nhead',
    },
    {"name": "Yo-yo", "price": -1.25, "stock": 0, "active": False, "kind": "toy"},
    {"name": "=1+2", "notes": "@SUM(A1)"},
    {"name": "-3", "notes": "'quoted"},
    {"name": "+x", "notes": "\tTabbed"},
]


class GadgetListPage(IndexPage):
    """A resource's own index page class (URI key ``gadget-list-page``)."""


def page_checks(resource: Resource) -> dict[str, bool]:
    """Every current-page check of ``resource``, by name."""
    return {
        "index": resource.is_now_on_index(),
        "form": resource.is_now_on_form(),
        "create": resource.is_now_on_create_form(),
        "update": resource.is_now_on_update_form(),
        "detail": resource.is_now_on_detail(),
    }


@dataclass(frozen=True)
class ListClient:
    """A logged-in JSON client (FastAPI's ``TestClient``, Django's ``Client``)."""

    client: Any
    database: str  # the database's kind: "sqlite", "postgresql"

    def get(self, path: str, params: Mapping[str, Any]) -> tuple[int, Any]:
        """``GET path?params``: the status and the JSON body."""
        response = self.client.get(f"{path}?{urlencode(params)}")
        return response.status_code, response.json()
