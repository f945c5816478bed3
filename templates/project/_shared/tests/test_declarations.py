"""What a resource class declares for issue 13, read by the kernel alone.

Fields per context (``index_fields``, ``form_fields``, ``detail_fields``,
``readonly_fields``), which hooks a class overrides, the roles' grants and the ability
each route needs. One file in the FastAPI and the Django project.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from panel_core.abilities import Roles, UnguardedRoute, required_ability
from panel_core.fields import ID, Integer, Text
from panel_core.labels import record_label
from panel_core.lifecycle import HookError, Lifecycle
from panel_core.resource import DeclarationError, Resource


class Book(Resource):
    """A resource declared without a model: the kernel never looks inside it."""

    uri = "book"
    fields = (ID(), Text("title", required=True), Integer("pages"), Text("editor"))


class ChosenBook(Book):
    """Each page shows its own fields; ``editor`` is written by hooks only."""

    index_fields = ("title",)
    form_fields = ("pages", "title")
    detail_fields = ("title", "editor")
    readonly_fields = ("editor",)


def _names(fields: tuple[Any, ...]) -> list[str]:
    return [f.name for f in fields]


def test_without_choices_every_field_that_can_be_shows() -> None:
    assert _names(Book.index_field_list) == ["id", "title", "pages", "editor"]
    assert _names(Book.form_field_list) == ["title", "pages", "editor"]
    assert Book.name == "Book"


def test_choices_pick_and_order_the_fields_of_each_page() -> None:
    assert _names(ChosenBook.index_field_list) == ["title"]
    assert _names(ChosenBook.form_field_list) == ["pages", "title"]
    assert _names(ChosenBook.detail_field_list) == ["title", "editor"]
    assert ChosenBook.field_map["editor"].read_only
    assert "editor" not in _names(ChosenBook.writable_fields)


@pytest.mark.parametrize(
    ("attribute", "value", "message"),
    [
        ("index_fields", ("nope",), "index_fields names fields it cannot show: nope"),
        ("form_fields", ("id",), "form_fields names fields it cannot show: id"),
        ("readonly_fields", ("nope",), "readonly_fields names unknown 'nope'"),
    ],
)
def test_a_choice_naming_what_cannot_show_fails_at_import(
    attribute: str, value: tuple[str, ...], message: str
) -> None:
    with pytest.raises(DeclarationError, match=message):
        type("Broken", (Book,), {attribute: value})


def test_a_record_is_named_by_its_display() -> None:
    named = type("Named", (Book,), {"display": "{title} ({pages} pages)"})
    assert named.display_fields == ("title", "pages")
    assert record_label(named, 7, {"title": "Dune", "pages": 412}) == "Dune (412 pages)"
    assert record_label(named, 7, {"title": "Dune", "pages": None}) == "Dune ( pages)"
    # Without a display: the first text field, and the key when it is blank.
    assert Book.display_fields == ("title",)
    assert record_label(Book, 7, {"title": ""}) == "#7"


@pytest.mark.parametrize(
    ("display", "message"),
    [
        ("{title!r}", "display has '{title!r}': only a plain field name"),
        ("{title", "display has an unbalanced '{'"),
        ("{isbn}", "display names fields it cannot show: isbn"),
    ],
)
def test_a_display_that_cannot_name_a_record_fails_at_import(
    display: str, message: str
) -> None:
    with pytest.raises(DeclarationError, match=re.escape(message)):
        type("Broken", (Book,), {"display": display})


class Hooked(Book):
    def before_creating(self, data: dict[str, Any], user: Any) -> Any:
        return 42

    def scope(self, query: Any, user: Any) -> Any:
        return query


def test_the_lifecycle_knows_what_a_class_overrides() -> None:
    plain, hooked = Lifecycle(Book()), Lifecycle(Hooked())
    assert (plain.hooks, plain.scoped, plain.record_rules) == (
        frozenset(),
        False,
        False,
    )
    assert plain.open  # no roles declared, no can of its own: nothing to ask
    assert hooked.hooks == {"before_creating"} and hooked.scoped
    with pytest.raises(HookError, match="returned int, not the data to write"):
        hooked.checked_data("before_creating", {}, 42)
    with pytest.raises(HookError, match="returned unknown fields: id, nope"):
        hooked.checked_data("before_creating", {}, {"id": 1, "nope": 2})


def test_roles_add_their_grants_up() -> None:
    roles = Roles({"editor": {"*": ("view",), "Book": ("update",)}})
    assert roles.names == ("admin", "editor")
    assert roles.allows("admin", "Book", "delete")
    assert roles.allows("editor", "Book", "view") and roles.allows(
        "editor", "Book", "update"
    )
    assert not roles.allows("editor", "Other", "update")
    assert not roles.allows("gone", "Book", "view")  # a role no longer declared
    assert Roles().allows(None, "Book", "delete")  # no roles: everyone is admin


@pytest.mark.parametrize(
    ("route", "params", "query", "ability"),
    [
        ("crud.index", {"resourceUri": "b"}, {}, "view_any"),
        ("crud.massDelete", {"resourceUri": "b"}, {}, "mass_delete"),
        ("resource.page", {"resourceUri": "b", "pageUri": "form-page"}, {}, "create"),
        (
            "resource.page",
            {"resourceUri": "b", "pageUri": "form-page", "resourceItem": "1"},
            {},
            "update",
        ),
        ("handler", {"resourceUri": "b"}, {"handlerUri": "import"}, "import"),
        ("method", {"resourceUri": "b", "pageUri": "index-page"}, {"method": "x"}, "x"),
        ("page", {"pageUri": "about"}, {}, None),
    ],
)
def test_each_route_needs_its_ability(
    route: str, params: dict[str, str], query: dict[str, str], ability: str | None
) -> None:
    assert required_ability(route, params, query) == ability


def test_a_route_naming_a_resource_without_an_ability_is_refused() -> None:
    with pytest.raises(UnguardedRoute):
        required_ability("new.route", {"resourceUri": "b"}, {})
