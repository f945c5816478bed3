"""Who may do what: every resource route asks ``can()``, which reads the user's role.

The app serves the tests' gadgets under ``tests.customising.ROLES``: viewers may look,
editors may also create, update and restock gadgets, ``nobody`` may do nothing, and
``admin`` everything. Refusals are 403 ``{"message": "This action is unauthorized."}``
(401 stays for nobody logged in, 404 for unknown resources), and pages hide what
their user may not use. The route walk reads the app's own routes, so a route added
without the panel's guards fails it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import sqlalchemy as sa
from fastapi import FastAPI, Request
from fastapi.testclient import TestClient

from app.core.users import set_role
from panel_core.abilities import ADMIN
from tests.customising import RuledGadgets, serve
from tests.gadget_parts import CRUD, EXPORT, IMPORT, URI
from tests.gadgets import Gadget, GadgetResource
from tests.helpers import iter_route_contexts

SignIn = Callable[..., TestClient]
UNAUTHORIZED = {"message": "This action is unauthorized."}
HTML = {"Accept": "text/html"}
CSV = {"Content-Type": "text/csv"}
PAGE = f"/admin/resource/{URI}"
METHOD = f"/admin/method/index-page/{URI}"
COMPONENT = f"/admin/component/index-page/{URI}?_component_name=table"
ROLE_NAMES = ("viewer", "editor", "nobody", ADMIN)
READERS = {"viewer", "editor", ADMIN}
WRITERS = {"editor", ADMIN}

# (what, method, path, request arguments, the roles allowed): each JSON route.
JSON_REQUESTS = [
    ("index", "GET", CRUD, {}, READERS),
    ("show", "GET", CRUD + "/{key}", {}, READERS),
    ("store", "POST", CRUD, {"json": {"name": "Kite"}}, WRITERS),
    ("update", "PUT", CRUD + "/{key}", {"json": {"name": "Mallet"}}, WRITERS),
    ("patch", "PATCH", CRUD + "/{key}", {"json": {"stock": 2}}, WRITERS),
    ("destroy", "DELETE", CRUD + "/{key}", {}, {ADMIN}),
    ("mass delete", "DELETE", CRUD, {}, {ADMIN}),  # of the gadget ``key``
    ("export", "GET", EXPORT, {}, {ADMIN}),
    ("import", "POST", IMPORT, {"content": "name\nKite\n", "headers": CSV}, {ADMIN}),
    ("method", "POST", METHOD + "?method=restock", {}, WRITERS),
    ("plain method", "POST", METHOD + "?method=count", {}, {ADMIN}),
    ("component", "GET", COMPONENT, {}, READERS),
]
PAGE_REQUESTS = [
    ("index page", PAGE + "/index-page", READERS),
    ("table", PAGE + "/index-page?_fragment-load=table", READERS),
    ("create form", PAGE + "/form-page", WRITERS),
    ("edit form", PAGE + "/form-page/{key}", WRITERS),
    ("detail page", PAGE + "/detail-page/{key}", READERS),
]
# The kinds of route the walk must meet, so it is never empty.
KINDS = {"crud.index", "crud.show", "crud.store", "crud.update", "crud.destroy"}
KINDS |= {"crud.massDelete", "resource.page", "handler", "method", "component"}
_PARAMETER = re.compile(r"{(\w+)(?::\w+)?}")


@pytest.fixture
def gadgets() -> type[GadgetResource]:
    """The gadgets' resource class (a test may parametrize another)."""
    return GadgetResource


@pytest.fixture
def app(app: FastAPI, gadgets: type[GadgetResource]) -> Iterator[FastAPI]:
    """The gadgets under the tests' roles."""
    yield from serve(app, gadgets)


def _gadget(app: FastAPI, name: str, kind: str = "toy") -> int:
    insert = sa.insert(Gadget).values(name=name, stock=1, kind=kind)
    with app.state.engine.begin() as connection:
        key: int = connection.execute(insert.returning(Gadget.id)).scalar_one()
    return key


@pytest.fixture
def key(app: FastAPI) -> int:
    """A gadget's key."""
    return _gadget(app, "Hammer")


@pytest.mark.parametrize("role", ROLE_NAMES)
@pytest.mark.parametrize(
    ("what", "method", "path", "arguments", "allowed"),
    JSON_REQUESTS,
    ids=[request[0] for request in JSON_REQUESTS],
)
def test_json_routes_answer_as_the_role_allows(
    sign_in: SignIn,
    key: int,
    role: str,
    what: str,
    method: str,
    path: str,
    arguments: dict[str, Any],
    allowed: set[str],
) -> None:
    if what == "mass delete":
        arguments = {"json": {"ids": [key]}}
    response = sign_in(role).request(method, path.format(key=key), **arguments)
    if role in allowed:
        assert response.status_code in (200, 201), (what, response.text)
    else:
        assert (response.status_code, response.json()) == (403, UNAUTHORIZED), what


@pytest.mark.panel_auth("session")
@pytest.mark.parametrize("role", ROLE_NAMES)
@pytest.mark.parametrize(
    ("what", "path", "allowed"),
    PAGE_REQUESTS,
    ids=[request[0] for request in PAGE_REQUESTS],
)
def test_pages_answer_as_the_role_allows(
    sign_in: SignIn, key: int, role: str, what: str, path: str, allowed: set[str]
) -> None:
    response = sign_in(role).get(path.format(key=key), headers=HTML)
    assert response.status_code == (200 if role in allowed else 403), what
    assert response.headers["content-type"].startswith("text/html")
    if role not in allowed:
        assert "This action is unauthorized." in response.text


def _walk(app: FastAPI, key: int) -> list[tuple[str, str, str]]:
    """(route name, method, URL) of every route of ``app`` naming a resource."""
    samples = {
        "resourceUri": URI,
        "resourceItem": str(key),
        "pageUri": "index-page",
        "handlerUri": "export",
        "actionUri": "archive",
        "fieldName": "file",
        "fileId": "0" * 32 + "-a.png",
    }
    walk = []
    for route in iter_route_contexts(app.routes):
        path = getattr(route, "path", "")
        if "resourceUri" not in _PARAMETER.findall(path):
            continue
        url = _PARAMETER.sub(lambda found: samples[found.group(1)], path)
        url += "?method=restock&_component_name=table"
        methods = sorted(set(route.methods) - {"HEAD"})
        walk += [(route.name, method, url) for method in methods]
    return walk


def _unguarded(app: FastAPI, client: TestClient, key: int) -> list[tuple[Any, ...]]:
    """The requests of the walk that ``client`` gets anything but a refusal to."""
    walk = _walk(app, key)
    assert {name for name, _, _ in walk} >= KINDS
    found = []
    for name, method, url in walk:
        answer = client.request(method, url, json={})
        refused = answer.status_code == 403 and answer.json() == UNAUTHORIZED
        if not refused:
            found.append((name, method, url, answer.status_code))
    return found


def test_no_route_naming_a_resource_skips_can(
    app: FastAPI, sign_in: SignIn, key: int
) -> None:
    assert _unguarded(app, sign_in("nobody"), key) == []


def test_the_walk_finds_a_route_added_without_the_guards(
    app: FastAPI, sign_in: SignIn, key: int
) -> None:
    async def peek(request: Request) -> dict[str, str]:
        return {"peeked": request.path_params["resourceUri"]}

    app.add_api_route("/admin/peek/{resourceUri}", peek, name="peek")
    found = _unguarded(app, sign_in("nobody"), key)
    assert [(name, status) for name, _, _, status in found] == [("peek", 200)]


def test_logged_out_is_401_and_unknown_resources_404_before_403(
    anonymous: TestClient, sign_in: SignIn
) -> None:
    assert anonymous.get(CRUD).status_code == 401
    nobody = sign_in("nobody")
    assert nobody.get("/admin/resource/no-such-resource/crud").status_code == 404
    # The role is asked before the record is read: 403 even for a missing key.
    assert nobody.get(f"{CRUD}/999999").json() == UNAUTHORIZED


@pytest.mark.panel_auth("session")
def test_pages_hide_what_the_role_may_not_use(sign_in: SignIn, key: int) -> None:
    viewer = sign_in("viewer")
    index = viewer.get(f"{PAGE}/index-page", headers=HTML).text
    assert ">View</a>" in index
    for hidden in (">Edit</a>", "New Gadget", "Export CSV", "Delete selected"):
        assert hidden not in index, hidden
    detail = viewer.get(f"{PAGE}/detail-page/{key}", headers=HTML).text
    assert ">Edit</a>" not in detail and ">Delete</button>" not in detail
    editor = sign_in("editor")
    index = editor.get(f"{PAGE}/index-page", headers=HTML).text
    assert ">Edit</a>" in index and "New Gadget" in index
    assert "Delete selected" not in index and "Export CSV" not in index
    index = sign_in(ADMIN).get(f"{PAGE}/index-page", headers=HTML).text
    for shown in (">Edit</a>", "New Gadget", "Export CSV", "Delete selected"):
        assert shown in index, shown


@pytest.mark.parametrize(
    "mode",
    [
        pytest.param("session", marks=pytest.mark.panel_auth("session")),
        pytest.param("jwt", marks=pytest.mark.panel_auth("jwt")),
    ],
)
def test_a_changed_role_applies_at_the_next_request(
    app: FastAPI, sign_in: SignIn, mode: str
) -> None:
    client = sign_in("viewer", "ada@example.com")
    assert client.post(CRUD, json={"name": "Kite"}).status_code == 403
    set_role(app.state.engine, "ada@example.com", "editor")
    assert client.post(CRUD, json={"name": "Kite"}).status_code == 201
    set_role(app.state.engine, "ada@example.com", "nobody")
    assert client.get(CRUD).status_code == 403


@pytest.mark.panel_auth("session")
@pytest.mark.parametrize("gadgets", [RuledGadgets])  # an async ``can`` per record
def test_can_may_decide_per_record(app: FastAPI, sign_in: SignIn) -> None:
    toy, tool = _gadget(app, "Yo-yo"), _gadget(app, "Hammer", kind="tool")
    editor = sign_in("editor")
    refused = editor.put(f"{CRUD}/{toy}", json={"name": "Kite"})
    assert (refused.status_code, refused.json()) == (403, UNAUTHORIZED)
    assert editor.put(f"{CRUD}/{tool}", json={"name": "Mallet"}).status_code == 200
    assert editor.get(f"{PAGE}/form-page/{toy}", headers=HTML).status_code == 403
    assert editor.get(f"{PAGE}/form-page/{tool}", headers=HTML).status_code == 200
    for gadget, editable in ((toy, False), (tool, True)):
        detail = editor.get(f"{PAGE}/detail-page/{gadget}", headers=HTML).text
        assert (">Edit</a>" in detail) is editable
    # ``view``, ``update`` and ``delete`` are asked with the record: first it is read.
    assert editor.get(f"{CRUD}/999999").status_code == 404
    admin = sign_in(ADMIN)
    assert admin.delete(f"{CRUD}/{toy}").status_code == 403
    assert admin.delete(f"{CRUD}/{tool}").status_code == 200
    assert [row["name"] for row in admin.get(CRUD).json()["data"]] == ["Yo-yo"]
