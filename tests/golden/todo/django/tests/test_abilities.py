"""Who may do what: every resource route asks ``can()``, which reads the user's role.

The panel serves the tests' gadgets under ``tests.customising.ROLES``: viewers may
look, editors may also create, update and restock gadgets, ``nobody`` may do
nothing, and ``admin`` everything. Refusals are 403 ``{"message": "This action is
unauthorized."}`` (401 stays for nobody logged in, 404 for unknown resources), and
pages hide what their user may not use.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from django.test import Client

from panel.roles import set_role
from panel.users import find_user
from panel_core.abilities import ADMIN
from panel_core.routes import ROUTES, placeholders
from tests.customising import RuledGadgets, serve
from tests.gadget_parts import CRUD, EXPORT, IMPORT, URI
from tests.gadgets import EMAIL, Gadget, GadgetResource, json_client
from tests.sessions import HTML, use_sessions
from tests.tokens import use_jwt

pytestmark = pytest.mark.django_db

UNAUTHORIZED = {"message": "This action is unauthorized."}
PAGE = f"/admin/resource/{URI}"
METHOD = f"/admin/method/index-page/{URI}"
ROLE_NAMES = ("viewer", "editor", "nobody", ADMIN)


@pytest.fixture
def gadgets(monkeypatch: pytest.MonkeyPatch, part_db_table: None) -> Iterator[None]:
    """The panel serving the gadgets under the tests' roles."""
    yield from serve(monkeypatch, GadgetResource)


@pytest.fixture
def key(gadgets: None) -> int:
    """A gadget's key."""
    found: int = Gadget.objects.create(name="Hammer", stock=1, kind="toy").pk
    return found


# (what, method, path, body, the roles allowed): a JSON request of each route.
JSON_REQUESTS = [
    ("index", "GET", CRUD, None, {"viewer", "editor", ADMIN}),
    ("show", "GET", CRUD + "/{key}", None, {"viewer", "editor", ADMIN}),
    ("store", "POST", CRUD, {"name": "Kite"}, {"editor", ADMIN}),
    ("update", "PUT", CRUD + "/{key}", {"name": "Mallet"}, {"editor", ADMIN}),
    ("destroy", "DELETE", CRUD + "/{key}", None, {ADMIN}),
    ("mass delete", "DELETE", CRUD, {"ids": ["{key}"]}, {ADMIN}),
    ("export", "GET", EXPORT, None, {ADMIN}),
    ("import", "POST", IMPORT, "name\nKite\n", {ADMIN}),
    ("method", "POST", METHOD + "?method=restock", None, {"editor", ADMIN}),
    (
        "component",
        "GET",
        f"/admin/component/index-page/{URI}?_component_name=table",
        None,
        {"viewer", "editor", ADMIN},
    ),
]
PAGE_REQUESTS = [
    ("index page", PAGE + "/index-page", {"viewer", "editor", ADMIN}),
    ("create form", PAGE + "/form-page", {"editor", ADMIN}),
    ("edit form", PAGE + "/form-page/{key}", {"editor", ADMIN}),
    ("detail page", PAGE + "/detail-page/{key}", {"viewer", "editor", ADMIN}),
]


def _send(client: Client, method: str, path: str, body: Any) -> Any:
    if isinstance(body, str):
        return client.generic(method, path, body, content_type="text/csv")
    if body is None:
        return client.generic(method, path)
    return client.generic(method, path, json.dumps(body), "application/json")


@pytest.mark.parametrize("role", ROLE_NAMES)
@pytest.mark.parametrize(
    ("what", "method", "path", "body", "allowed"),
    JSON_REQUESTS,
    ids=[request[0] for request in JSON_REQUESTS],
)
def test_json_routes_answer_as_the_role_allows(
    key: int, role: str, what: str, method: str, path: str, body: Any, allowed: set[str]
) -> None:
    client = json_client(role=role)
    if isinstance(body, dict):
        body = {n: [key] if v == ["{key}"] else v for n, v in body.items()}
    response = _send(client, method, path.format(key=key), body)
    if role in allowed:
        assert response.status_code in (200, 201), (what, response.content)
    else:
        assert response.status_code == 403, response.content
        assert response.json() == UNAUTHORIZED


@pytest.mark.parametrize("role", ROLE_NAMES)
@pytest.mark.parametrize(
    ("what", "path", "allowed"),
    PAGE_REQUESTS,
    ids=[request[0] for request in PAGE_REQUESTS],
)
def test_pages_answer_as_the_role_allows(
    key: int, settings: Any, role: str, what: str, path: str, allowed: set[str]
) -> None:
    use_sessions(settings)
    client = json_client(role=role)
    response = client.get(path.format(key=key), headers=HTML)
    expected = 200 if role in allowed else 403
    assert response.status_code == expected, what
    if expected == 403:
        assert "This action is unauthorized." in response.content.decode()


def _walk() -> list[tuple[str, str, str]]:
    """Every method of every path naming a resource: (route, method, path)."""
    values = {
        "resourceUri": URI,
        "resourceItem": "{key}",
        "pageUri": "index-page",
        "handlerUri": "export",
        "actionUri": "archive",
        "fieldName": "file",
        "fileId": "0" * 32 + "-a.png",
    }
    walk = []
    for route in ROUTES.values():
        for pattern in route.patterns:
            names = placeholders(pattern)
            if "resourceUri" not in names:
                continue
            path = pattern.format(**{name: values[name] for name in names})
            walk.extend((route.name, method, path) for method in route.methods)
    return walk


@pytest.mark.parametrize(("route", "method", "path"), _walk())
def test_no_route_naming_a_resource_skips_can(
    key: int, route: str, method: str, path: str
) -> None:
    client = json_client(role="nobody")
    url = f"{path.format(key=key)}?method=restock&_component_name=table"
    response = client.generic(method, url)
    assert response.status_code == 403, (route, response.content)


def test_logged_out_is_401_and_unknown_resources_404_before_403(gadgets: None) -> None:
    assert Client(headers={"Accept": "application/json"}).get(CRUD).status_code == 401
    client = json_client(role="nobody")
    unknown = client.get("/admin/resource/no-such-resource/crud")
    assert unknown.status_code == 404


def test_pages_hide_what_the_role_may_not_use(key: int, settings: Any) -> None:
    use_sessions(settings)
    viewer = json_client(email="viewer@example.com", role="viewer")
    index = viewer.get(f"{PAGE}/index-page", headers=HTML).content.decode()
    assert ">View</a>" in index
    for hidden in (">Edit</a>", "New Gadget", "Export CSV", "Delete selected"):
        assert hidden not in index
    detail = viewer.get(f"{PAGE}/detail-page/{key}", headers=HTML).content.decode()
    assert ">Edit</a>" not in detail and ">Delete</button>" not in detail
    editor = json_client(email="editor@example.com", role="editor")
    index = editor.get(f"{PAGE}/index-page", headers=HTML).content.decode()
    assert ">Edit</a>" in index and "New Gadget" in index
    assert "Delete selected" not in index and "Export CSV" not in index
    admin = json_client(role=ADMIN)
    index = admin.get(f"{PAGE}/index-page", headers=HTML).content.decode()
    for shown in (">Edit</a>", "New Gadget", "Export CSV", "Delete selected"):
        assert shown in index


@pytest.mark.parametrize("mode", ["sessions", "jwt"])
def test_a_changed_role_applies_at_the_next_request(
    gadgets: None, settings: Any, mode: str
) -> None:
    (use_sessions if mode == "sessions" else use_jwt)(settings)
    client = json_client(role="viewer")
    body = {"name": "Kite"}
    assert client.post(CRUD, body, "application/json").status_code == 403
    user = find_user(EMAIL)
    assert user is not None
    set_role(user, "editor")
    assert client.post(CRUD, body, "application/json").status_code == 201
    set_role(user, "nobody")
    assert client.get(CRUD).status_code == 403


@pytest.fixture
def ruled(monkeypatch: pytest.MonkeyPatch, part_db_table: None) -> Iterator[None]:
    """The panel serving gadgets whose (async) ``can`` looks at each record."""
    yield from serve(monkeypatch, RuledGadgets)


@pytest.mark.usefixtures("ruled")
def test_can_may_decide_per_record(settings: Any) -> None:
    use_sessions(settings)
    toy = Gadget.objects.create(name="Yo-yo", kind="toy").pk
    tool = Gadget.objects.create(name="Hammer", kind="tool").pk
    editor = json_client(email="editor@example.com", role="editor")
    refused = editor.put(f"{CRUD}/{toy}", {"name": "Kite"}, "application/json")
    assert (refused.status_code, refused.json()) == (403, UNAUTHORIZED)
    allowed = editor.put(f"{CRUD}/{tool}", {"name": "Mallet"}, "application/json")
    assert allowed.status_code == 200
    assert editor.get(f"{PAGE}/form-page/{toy}", headers=HTML).status_code == 403
    assert editor.get(f"{PAGE}/form-page/{tool}", headers=HTML).status_code == 200
    detail = editor.get(f"{PAGE}/detail-page/{toy}", headers=HTML).content.decode()
    assert ">Edit</a>" not in detail
    admin = json_client(role=ADMIN)
    assert admin.delete(f"{CRUD}/{toy}").status_code == 403
    assert admin.delete(f"{CRUD}/{tool}").status_code == 200
    assert list(Gadget.objects.values_list("name", flat=True)) == ["Yo-yo"]
