"""The OpenAPI document: valid, deterministic, and saying what the runtime does."""

from __future__ import annotations

import hashlib
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openapi_projects as projects
import pytest

from generator.errors import SpecError
from generator.model import ir, naming
from generator.spec.openapi import build_spec, load_kernel, render_spec
from generator.spec.validate import check_spec_pair, validate_spec

REPO = Path(__file__).resolve().parents[2]
VERSIONS = ["3.1.0", "3.0.3"]
INT64 = (-(2**63), 2**63 - 1)
HTTP_METHODS = {"get", "put", "post", "delete", "patch"}


def _examples() -> list[tuple[str, Any]]:
    """The examples as IR: from the manifest loader, else hand-built."""
    try:
        from generator.manifest.load import load_manifest
    except ImportError:  # pragma: no cover - only before the loader exists
        return [("library", projects.library), ("todo", projects.todo)]

    def loader(stem: str) -> Any:
        def load(*, jwt: bool = False, version: str = "3.1.0") -> ir.Project:
            project = load_manifest(REPO / "examples" / f"{stem}.yaml")
            auth = ir.Auth(jwt=jwt, token_ttl=project.auth.token_ttl)
            docs = ir.Docs(**{**vars(project.docs), "openapi_version": version})
            return ir.Project(**{**vars(project), "auth": auth, "docs": docs})

        return load

    return [(stem, loader(stem)) for stem in ("library", "todo")]


EXAMPLES = _examples()
BUILDERS = [*EXAMPLES, ("hand-built library", projects.library)]


def operations(doc: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(path, method, operation) for every operation of ``doc``."""
    for path, item in doc["paths"].items():
        for method, op in item.items():
            if method in HTTP_METHODS:
                yield path, method, op


def resolve(doc: dict[str, Any], node: Any) -> Any:
    """``node`` with a top-level ``$ref`` followed."""
    while isinstance(node, dict) and "$ref" in node:
        target: Any = doc
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part]
        node = target
    return node


def schemas(doc: dict[str, Any]) -> dict[str, Any]:
    """The component schemas of ``doc``."""
    return doc["components"]["schemas"]


@pytest.fixture(scope="module")
def library() -> dict[str, Any]:
    """The library example's spec, OpenAPI 3.1, JWT on."""
    return build_spec(projects.library(jwt=True))


# Validity and the two files


@pytest.mark.parametrize("jwt", [False, True], ids=["session", "jwt"])
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize(("name", "make"), BUILDERS, ids=[n for n, _ in BUILDERS])
def test_spec_validates_and_both_files_hold_the_same_data(
    name: str, make: Any, version: str, jwt: bool
) -> None:
    project = make(jwt=jwt, version=version)
    doc = build_spec(project)
    validate_spec(doc, source=name)
    assert doc["openapi"] == version
    yaml_text, json_text = render_spec(project)
    check_spec_pair(yaml_text, json_text)
    assert json.loads(json_text) == doc
    assert yaml_text.endswith("\n") and json_text.endswith("\n")


@pytest.mark.parametrize("version", VERSIONS)
def test_unusual_resources_validate(version: str) -> None:
    uuid_key = ir.Field("code", "string", "Code", format="uuid", is_key=True)
    keyed = projects.resource("Voucher", key=uuid_key)
    bare = projects.resource("Marker", title="Markers")
    labels = projects.resource(
        "Label",
        projects.field("name", label='Nom « étiquette » 🚀 "x"', default="n/a"),
        projects.field("shade", enum=("a", "b"), nullable=True, default=None),
        projects.field("weight", "number", default=1.5, minimum=-1e300),
        projects.field("count", "integer", minimum=-(2**70), maximum=2**70),
        title="Étiquettes: d'été",
    )
    doc = build_spec(projects.project(keyed, bare, labels, version=version))
    validate_spec(doc, source="unusual")
    check_spec_pair(*render_spec(projects.project(keyed, bare, labels)))
    item = doc["paths"]["/admin/resource/voucher-resource/crud/{resourceItem}"]
    assert item["parameters"][0]["schema"] == {"type": "string", "format": "uuid"}
    assert schemas(doc)["MarkerCreate"]["properties"] == {}
    assert "required" not in schemas(doc)["MarkerCreate"]
    count = schemas(doc)["Label"]["properties"]["count"]
    assert (count["minimum"], count["maximum"]) == INT64


# Determinism


def _digest(project: ir.Project) -> str:
    yaml_text, json_text = render_spec(project)
    return hashlib.sha256((yaml_text + json_text).encode()).hexdigest()


def test_spec_is_identical_when_built_twice() -> None:
    assert _digest(projects.library(jwt=True)) == _digest(projects.library(jwt=True))


@pytest.mark.parametrize("seed", ["0", "4242"])
def test_spec_is_identical_under_other_hash_seeds(seed: str) -> None:
    script = (
        "import openapi_projects, test_openapi;"
        "print(test_openapi._digest(openapi_projects.library(jwt=True)))"
    )
    paths = os.pathsep.join([str(REPO), str(Path(__file__).parent)])
    env = {**os.environ, "PYTHONHASHSEED": seed, "PYTHONPATH": paths}
    result = subprocess.run(
        [sys.executable, "-c", script],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert result.stdout.strip() == _digest(projects.library(jwt=True))


def test_loading_the_kernel_leaves_the_template_tree_clean() -> None:
    script = (
        "import sys; from generator.spec.openapi import build_spec;"
        "import openapi_projects;"
        "build_spec(openapi_projects.todo());"
        "bad = {'fastapi', 'starlette', 'sqlalchemy', 'django', 'pydantic'};"
        "print(sorted(bad & {m.split('.')[0] for m in sys.modules}))"
    )
    kernel = REPO / "templates/project/_shared/panel_core"
    before = sorted(p.name for p in kernel.rglob("*"))
    paths = os.pathsep.join([str(REPO), str(Path(__file__).parent)])
    result = subprocess.run(
        [sys.executable, "-c", script],
        env={**os.environ, "PYTHONPATH": paths, "PYTHONDONTWRITEBYTECODE": ""},
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    assert result.stdout.strip() == "[]"
    assert sorted(p.name for p in kernel.rglob("*")) == before


# Naming


def test_operation_ids_are_unique_and_follow_the_naming_scheme() -> None:
    doc = build_spec(projects.todo(jwt=True))
    found = {(m, p): op["operationId"] for p, m, op in operations(doc)}
    base = "/admin/resource/task-resource/crud"
    assert found == {
        ("post", "/admin/authenticate"): "authenticate",
        ("delete", "/admin/logout"): "logout",
        ("get", "/admin/dashboard"): "dashboard",
        ("get", base): "taskResourceCrudIndex",
        ("post", base): "taskResourceCrudStore",
        ("delete", base): "taskResourceCrudMassDelete",
        ("get", base + "/{resourceItem}"): "taskResourceCrudShow",
        ("put", base + "/{resourceItem}"): "taskResourceCrudUpdate",
        ("patch", base + "/{resourceItem}"): "taskResourceCrudPatch",
        ("delete", base + "/{resourceItem}"): "taskResourceCrudDestroy",
    }
    library = build_spec(projects.library())
    ids = [op["operationId"] for _, _, op in operations(library)]
    assert len(ids) == len(set(ids)) == 24  # with the login, logout and dashboard


@pytest.mark.parametrize(
    "uri", ["book-resource", "book", "book-author-resource", "isbn13-code", "a-b-c"]
)
@pytest.mark.parametrize("route", [*naming.CRUD_ROUTES, "crud.patch"])
def test_kernel_operation_ids_match_generator_naming(uri: str, route: str) -> None:
    kernel_id = load_kernel().openapi.operation_id(uri, route)
    assert kernel_id == naming.operation_id(uri, route)


def test_component_names_follow_the_model(library: dict[str, Any]) -> None:
    names = list(schemas(library))
    reserved = load_kernel().openapi.schemas.RESERVED_NAMES
    assert reserved == (
        "Message",
        "ValidationError",
        "ConflictError",
        "PaginationLink",
        "DeleteResponse",
        "MassDeleteResponse",
        "AuthenticateRequest",
        "AuthenticateResponse",
        "SessionAuthenticateResponse",
    )
    assert tuple(names[:7]) == reserved[:7]  # JWT: no session login answer
    suffixes = ["", "Create", "Update", "Paginator", "SaveResponse"]
    for model in ("Author", "Book", "Member"):
        assert all(model + suffix in names for suffix in suffixes)


def test_each_resource_has_one_tag(library: dict[str, Any]) -> None:
    assert [t["name"] for t in library["tags"]] == [
        "Authentication",
        "Dashboard",
        "Authors",
        "Books",
        "Members",
    ]
    for path, _, op in operations(library):
        auth = path.endswith(("/authenticate", "/logout"))
        expected = "Authentication" if auth else None
        expected = "Dashboard" if path.endswith("/dashboard") else expected
        assert len(op["tags"]) == 1
        assert expected is None or op["tags"] == [expected]
    books = [op for p, _, op in operations(library) if "/book-resource/" in p]
    assert len(books) == 7 and all(op["tags"] == ["Books"] for op in books)


@pytest.mark.parametrize(
    ("second", "message"),
    [
        (projects.resource("Message"), "schema names used twice: Message"),
        (projects.resource("Other", title="Tasks"), "tag names"),
        (projects.resource("Other", uri="task-resource"), "paths"),
    ],
    ids=["reserved-model", "same-title", "same-uri"],
)
def test_clashing_names_are_a_spec_error(second: ir.Resource, message: str) -> None:
    first = projects.resource("Task", title="Tasks")
    with pytest.raises(SpecError, match=message):
        build_spec(projects.project(first, second))


# Security


def test_bearer_scheme_declared_under_the_name_operations_use(
    library: dict[str, Any],
) -> None:
    declared = library["components"]["securitySchemes"]
    assert declared == {
        "bearerAuth": {"type": "http", "scheme": "bearer", "bearerFormat": "JWT"}
    }
    for path, _, op in operations(library):
        if path == "/admin/authenticate":
            assert op["security"] == []
            continue
        assert op["security"] == [{"bearerAuth": []}]
        assert set(op["security"][0]) <= set(declared)
        assert op["responses"]["401"] == {"$ref": "#/components/responses/Unauthorized"}
    unauthorized = library["components"]["responses"]["Unauthorized"]
    assert unauthorized["headers"]["WWW-Authenticate"]["required"] is True


def test_session_specs_document_the_cookie_login_and_csrf_header() -> None:
    doc = build_spec(projects.library(jwt=False))
    assert doc["components"]["securitySchemes"] == {
        "sessionCookie": {
            "type": "apiKey",
            "in": "cookie",
            "name": "panel_session",
            "description": (
                "The session cookie `POST /admin/authenticate` sets (or the login "
                "page)."
            ),
        }
    }
    assert "Authentication" in [t["name"] for t in doc["tags"]]
    login = doc["paths"]["/admin/authenticate"]["post"]
    assert login["security"] == []
    assert login["requestBody"]["content"] == {
        "application/json": {
            "schema": {"$ref": "#/components/schemas/AuthenticateRequest"}
        }
    }
    answer = login["responses"]["200"]
    assert resolve(doc, answer["content"]["application/json"]["schema"]) == {
        "type": "object",
        "required": ["message", "csrf_token"],
        "properties": {"message": {"type": "string"}, "csrf_token": {"type": "string"}},
    }
    assert "panel_session" in answer["headers"]["Set-Cookie"]["description"]
    assert "AuthenticateResponse" not in schemas(doc)
    logout = doc["paths"]["/admin/logout"]["delete"]
    assert logout["operationId"] == "logout"
    assert sorted(logout["responses"]) == ["200", "401", "403"]
    for path, method, op in operations(doc):
        if path == "/admin/authenticate":
            continue
        assert op["security"] == [{"sessionCookie": []}]
        assert "401" in op["responses"]
        csrf = [p for p in op.get("parameters", ()) if p["name"] == "X-CSRF-Token"]
        if method == "get":
            assert csrf == []
        else:  # every request that changes data sends the session's token
            assert len(csrf) == 1 and csrf[0]["in"] == "header"
            assert csrf[0]["required"] is True


def test_login_operation(library: dict[str, Any]) -> None:
    login = library["paths"]["/admin/authenticate"]["post"]
    assert login["operationId"] == "authenticate"
    assert sorted(login["responses"]) == ["200", "406", "413", "415", "422", "429"]
    limited = library["components"]["responses"]["TooManyRequests"]
    assert limited["headers"]["Retry-After"]["schema"] == {"type": "integer"}
    token = schemas(library)["AuthenticateResponse"]
    assert token["required"] == ["token", "token_type", "expires_in"]
    assert login["responses"]["200"]["headers"]["Cache-Control"]["required"] is True


def test_logout_operation_revokes_the_bearer_token(library: dict[str, Any]) -> None:
    logout = library["paths"]["/admin/logout"]["delete"]
    assert logout["operationId"] == "logout"
    assert logout["security"] == [{"bearerAuth": []}]
    assert sorted(logout["responses"]) == ["200", "401"]


# Request bodies


def test_create_body_carries_the_declared_constraints(library: dict[str, Any]) -> None:
    create = schemas(library)["BookCreate"]
    props = create["properties"]
    assert create["required"] == ["title"]
    assert create["additionalProperties"] is False
    assert props["title"]["maxLength"] == 200
    assert props["isbn"]["pattern"] == "^[0-9]{13}$"
    assert (props["pages"]["minimum"], props["pages"]["maximum"]) == (1, 10000)
    assert props["pages"]["format"] == "int64"
    assert props["price"] == {
        "type": ["number", "null"],
        "format": "double",
        "minimum": 0,
        "title": "Price",
    }
    assert props["available"]["default"] is True
    assert props["genre"]["enum"] == ["fiction", "science", "history", None]
    assert (props["author"]["minimum"], props["author"]["maximum"]) == INT64
    member = schemas(library)["MemberCreate"]
    assert member["required"] == ["email", "password"]
    assert member["properties"]["password"]["minLength"] == 8
    assert member["properties"]["email"]["format"] == "email"
    assert schemas(library)["AuthorCreate"]["properties"]["name"]["minLength"] == 1


def test_required_text_is_never_empty_in_bodies(library: dict[str, Any]) -> None:
    # Blank (empty, or spaces only) is refused as "required": minLength 1 says so.
    for model, required in (("Book", "title"), ("Member", "email")):
        for kind in ("Create", "Update"):
            props = schemas(library)[model + kind]["properties"]
            assert props[required]["minLength"] == 1, (model, kind)
    book = schemas(library)["BookCreate"]["properties"]
    assert "minLength" not in book["isbn"] and "minLength" not in book["summary"]
    member = schemas(library)["MemberCreate"]["properties"]
    assert member["password"]["minLength"] == 8  # a longer minimum is kept
    assert "minLength" not in schemas(library)["Book"]["properties"]["title"]


def test_update_body_requires_nothing_and_has_no_defaults(
    library: dict[str, Any],
) -> None:
    create, update = schemas(library)["BookCreate"], schemas(library)["BookUpdate"]
    assert "required" not in update
    assert update["additionalProperties"] is False
    assert list(update["properties"]) == list(create["properties"])
    assert not any("default" in p for p in update["properties"].values())


def test_read_only_and_key_fields_are_not_in_bodies(library: dict[str, Any]) -> None:
    for model in ("Author", "Book", "Member"):
        for kind in ("Create", "Update"):
            assert "id" not in schemas(library)[model + kind]["properties"]
    assert "token" not in schemas(library)["MemberCreate"]["properties"]
    assert "token" in schemas(library)["Member"]["properties"]


@pytest.mark.parametrize("jwt", [False, True], ids=["session", "jwt"])
def test_bodies_are_documented_as_json_only(jwt: bool) -> None:
    # The server still reads its pages' urlencoded forms; API clients send JSON.
    doc = build_spec(projects.library(jwt=jwt))
    bodies = 0
    for _, method, op in operations(doc):
        if "requestBody" in op:
            bodies += 1
            assert list(op["requestBody"]["content"]) == ["application/json"]
            # A mass delete's keys may come in the query instead.
            assert op["requestBody"]["required"] is (method != "delete")
    assert bodies == 1 + 3 * 4  # the login; create, put, patch, mass delete of each
    assert "x-www-form-urlencoded" not in json.dumps(doc)


# Responses


def _reachable(doc: dict[str, Any], node: Any, seen: set[str]) -> Iterator[Any]:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if ref and ref not in seen:
            seen.add(ref)
            yield from _reachable(doc, resolve(doc, node), seen)
        yield node
        for value in node.values():
            yield from _reachable(doc, value, seen)
    elif isinstance(node, list):
        for value in node:
            yield from _reachable(doc, value, seen)


def test_password_fields_never_appear_in_responses(library: dict[str, Any]) -> None:
    for _, _, op in operations(library):
        for node in _reachable(library, op["responses"], set()):
            if isinstance(node, dict):
                assert "password" not in node.get("properties", {})
                assert node.get("format") != "password"


def test_record_lists_every_readable_field_as_required(library: dict[str, Any]) -> None:
    book = schemas(library)["Book"]
    assert book["required"] == list(book["properties"])
    assert book["properties"]["id"] == {
        "type": "integer",
        "format": "int64",
        "minimum": INT64[0],
        "maximum": INT64[1],
        "title": "ID",
        "readOnly": True,
    }
    assert "readOnly" not in book["properties"]["title"]
    assert book["properties"]["title"]["type"] == "string"  # required: never null
    assert book["properties"]["summary"]["type"] == ["string", "null"]
    assert "additionalProperties" not in book
    assert "password" not in schemas(library)["Member"]["properties"]


def test_list_answer_is_the_full_paginator(library: dict[str, Any]) -> None:
    page = schemas(library)["BookPaginator"]
    keys = [
        "current_page",
        "data",
        "first_page_url",
        "from",
        "last_page",
        "last_page_url",
        "links",
        "next_page_url",
        "path",
        "per_page",
        "prev_page_url",
        "to",
        "total",
    ]
    assert list(page["properties"]) == keys == page["required"]
    assert page["properties"]["data"]["items"] == {"$ref": "#/components/schemas/Book"}
    assert page["properties"]["from"]["type"] == ["integer", "null"]
    link = schemas(library)["PaginationLink"]
    assert link["required"] == ["url", "label", "active"]


def test_store_answers_201_with_location_and_the_record(
    library: dict[str, Any],
) -> None:
    store = library["paths"]["/admin/resource/book-resource/crud"]["post"]
    created = store["responses"]["201"]
    assert created["headers"]["Location"]["required"] is True
    saved = resolve(library, created["content"]["application/json"]["schema"])
    assert saved["required"] == ["message", "messageType", "redirect", "data"]
    assert saved["properties"]["data"] == {"$ref": "#/components/schemas/Book"}


@pytest.mark.parametrize("load", [load for _, load in EXAMPLES])
def test_create_links_to_the_new_records_operations(load: Any) -> None:
    """Clients (and schemathesis's stateful phase) chain a create to its record."""
    project = load()
    doc = build_spec(project)
    ids = {op["operationId"]: (path, method) for path, method, op in operations(doc)}
    for resource in project.resources:
        path = f"/admin/resource/{resource.uri}/crud"
        links = doc["paths"][path]["post"]["responses"]["201"]["links"]
        targets = {ids[link["operationId"]] for link in links.values()}
        item = f"{path}/{{resourceItem}}"
        assert targets == {(item, m) for m in ("get", "put", "patch", "delete")}
        key = f"$response.body#/data/{resource.key}"
        assert all(
            link["parameters"] == {"resourceItem": key} for link in links.values()
        )


@pytest.mark.parametrize(
    ("method", "suffix", "codes"),
    [
        ("get", "", ["200", "401", "403", "406", "422"]),
        ("post", "", ["201", "401", "403", "406", "413", "415", "422"]),
        ("delete", "", ["200", "401", "403", "406", "409", "413", "415", "422"]),
        ("get", "/{resourceItem}", ["200", "401", "403", "404", "406"]),
        (
            "put",
            "/{resourceItem}",
            ["200", "401", "403", "404", "406", "412", "413", "415", "422", "428"],
        ),
        (
            "patch",
            "/{resourceItem}",
            ["200", "401", "403", "404", "406", "412", "413", "415", "422", "428"],
        ),
        (
            "delete",
            "/{resourceItem}",
            ["200", "401", "403", "404", "406", "409", "412", "428"],
        ),
    ],
)
def test_documented_statuses(
    library: dict[str, Any], method: str, suffix: str, codes: list[str]
) -> None:
    op = library["paths"]["/admin/resource/book-resource/crud" + suffix][method]
    assert list(op["responses"]) == codes
    assert "Accept: application/json" in op["description"]
    for code in codes:
        response = resolve(library, op["responses"][code])
        assert list(response["content"]) == ["application/json"]


# Parameters


def test_record_versions_are_documented(library: dict[str, Any]) -> None:
    """``ETag`` on every answer carrying one record; ``If-Match`` on its changes."""
    base = "/admin/resource/book-resource/crud"
    item = library["paths"][base + "/{resourceItem}"]
    answers = (
        library["paths"][base]["post"]["responses"]["201"],
        item["get"]["responses"]["200"],
        item["put"]["responses"]["200"],
        item["patch"]["responses"]["200"],
    )
    for answer in answers:
        assert answer["headers"]["ETag"]["required"] is True
    for method in ("put", "patch", "delete"):
        if_match = _parameters(library, method, base + "/{resourceItem}")["If-Match"]
        assert if_match["in"] == "header" and if_match["required"] is False
        assert "412" in if_match["description"] and "428" in if_match["description"]
    stale = resolve(library, item["put"]["responses"]["412"])
    assert "`If-Match`" in stale["description"]


def _parameters(doc: dict[str, Any], method: str, path: str) -> dict[str, Any]:
    return {p["name"]: p for p in doc["paths"][path][method].get("parameters", [])}


def test_list_parameters(library: dict[str, Any]) -> None:
    params = _parameters(library, "get", "/admin/resource/book-resource/crud")
    # Each field's filter, then its operators: ranges for numbers and dates,
    # text matches for text.
    ranged = ("[from]", "[to]")
    text = ("[contains]", "[starts_with]")
    operators = {
        "id": ranged,
        "title": text,
        "isbn": text,
        "pages": ranged,
        "price": ranged,
        "published_on": ranged,
        "summary": text,
    }
    filters = [
        f"filter[{n}]{op}"
        for n in (
            "id", "title", "isbn", "pages", "price", "available", "genre",
            "published_on", "summary", "author",
        )
        for op in ("", *operators.get(n, ()))
    ]  # fmt: skip
    assert list(params) == [
        "page",
        "per_page",
        "sort",
        *filters,
        "search",
        "query-tag",
        "total",
        "cursor",
    ]
    # No default a client would send that conflicts with a cursor.
    assert params["page"]["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 2**31 - 1,
    }
    assert "default" not in params["total"]["schema"]
    assert params["per_page"]["schema"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 100,
        "default": 25,
    }
    assert params["query-tag"]["schema"]["enum"] == ["available", "science"]
    # One plain parameter per filterable field: no deepObject, which clients send as
    # ``?available=true``.
    assert params["filter[available]"]["schema"] == {"type": "boolean"}
    assert params["filter[genre]"]["schema"]["enum"] == [
        "fiction",
        "science",
        "history",
    ]
    assert all("style" not in p for p in params.values())
    # A range takes the field's own values; a text match, text to look for.
    assert params["filter[pages][from]"]["schema"] == params["filter[pages]"]["schema"]
    assert params["filter[published_on][to]"]["schema"] == {
        "type": "string",
        "format": "date",
    }
    assert params["filter[title][contains]"]["schema"] == {
        "type": "string",
        "minLength": 1,
    }
    members = _parameters(library, "get", "/admin/resource/member-resource/crud")
    assert "filter[password]" not in members and "filter[email]" in members


def test_search_and_tags_only_when_declared() -> None:
    plain = projects.resource("Plain", projects.field("name"), title="Plains")
    doc = build_spec(projects.project(plain))
    params = _parameters(doc, "get", "/admin/resource/plain-resource/crud")
    assert list(params) == [
        "page",
        "per_page",
        "sort",
        "filter[id]",
        "filter[id][from]",
        "filter[id][to]",
        "filter[name]",
        "filter[name][contains]",
        "filter[name][starts_with]",
        "total",
        "cursor",
    ]


@pytest.mark.parametrize(
    ("value", "allowed"),
    [
        ("title", True),
        ("-id", True),
        ("-published_on,title,-price", True),
        ("summary", False),  # a textarea: not sortable
        ("title,", False),
        ("--id", False),
        ("titles", False),
        ("ti", False),
        ("", False),
    ],
)
def test_sort_pattern_admits_only_sortable_fields(
    library: dict[str, Any], value: str, allowed: bool
) -> None:
    sort = _parameters(library, "get", "/admin/resource/book-resource/crud")["sort"]
    assert sort["schema"]["default"] == "-id"
    assert bool(re.search(sort["schema"]["pattern"], value)) is allowed


def test_mass_delete_takes_a_bounded_ids_array(library: dict[str, Any]) -> None:
    ids = _parameters(library, "delete", "/admin/resource/book-resource/crud")["ids[]"]
    assert (ids["in"], ids["style"], ids["explode"]) == ("query", "form", True)
    assert "required" not in ids  # or in the body
    schema = ids["schema"]
    assert (schema["type"], schema["minItems"], schema["maxItems"]) == ("array", 1, 500)
    assert schema["items"]["type"] == "integer"
    assert (schema["items"]["minimum"], schema["items"]["maximum"]) == INT64
    op = library["paths"]["/admin/resource/book-resource/crud"]["delete"]
    body = op["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["ids"] and body["properties"]["ids"] == schema


def test_app_limits_narrow_the_documented_ones() -> None:
    kernel = load_kernel()
    from generator.spec.openapi import resource_class

    project = projects.todo()
    task = resource_class(project.resources[0], project)
    doc = kernel.openapi.build_openapi([task], title="T", max_per_page=50, max_ids=20)
    params = _parameters(doc, "get", "/admin/resource/task-resource/crud")
    assert params["per_page"]["schema"]["maximum"] == 50
    ids = _parameters(doc, "delete", "/admin/resource/task-resource/crud")["ids[]"]
    assert ids["schema"]["maxItems"] == 20


# OpenAPI 3.0


def _nodes(node: Any) -> Iterator[Any]:
    yield node
    children = node.values() if isinstance(node, dict) else node
    if isinstance(node, dict | list):
        for child in children:
            yield from _nodes(child)


def test_nullability_is_spelled_per_version() -> None:
    v31 = build_spec(projects.library(version="3.1.0"))
    v30 = build_spec(projects.library(version="3.0.3"))
    assert not any(isinstance(n, dict) and "nullable" in n for n in _nodes(v31))
    assert not any(
        isinstance(n, dict) and isinstance(n.get("type"), list) for n in _nodes(v30)
    )
    summary = schemas(v30)["Book"]["properties"]["summary"]
    assert (summary["type"], summary["nullable"]) == ("string", True)


# Kernel output files


def test_write_spec_writes_both_files_atomically(tmp_path: Path) -> None:
    openapi = load_kernel().openapi
    doc = build_spec(projects.todo())
    yaml_path, json_path = tmp_path / "resources" / "oag.yaml", tmp_path / "oag.json"
    openapi.write_spec(doc, yaml_path, json_path)
    assert yaml_path.read_text(encoding="utf-8") == openapi.dump_yaml(doc)
    assert json_path.read_text(encoding="utf-8") == openapi.dump_json(doc)
    before = {p: p.read_bytes() for p in (yaml_path, json_path)}
    with pytest.raises(ValueError):
        openapi.write_spec({**doc, "x": float("nan")}, yaml_path, json_path)
    assert {p: p.read_bytes() for p in before} == before
    assert sorted(p.name for p in tmp_path.rglob("*")) == [
        "oag.json",
        "oag.yaml",
        "resources",
    ]


UNAUTHORIZED = {"message": "This action is unauthorized."}


@pytest.mark.parametrize("jwt", [False, True])
def test_every_resource_operation_documents_the_role_refusal(jwt: bool) -> None:
    doc = build_spec(projects.library(jwt=jwt))
    forbidden = doc["components"]["responses"]["Forbidden"]
    media = forbidden["content"]["application/json"]
    assert resolve(doc, media["schema"]) == schemas(doc)["Message"]
    assert forbidden["description"].startswith("This action is unauthorized")
    resource_operations = 0
    for path, _, op in operations(doc):
        refused = op["responses"].get("403")
        if "/resource/" in path:
            resource_operations += 1
            assert refused == {"$ref": "#/components/responses/Forbidden"}
        elif jwt or path.endswith(("/authenticate", "/dashboard")):
            # logging in and out is never a role's decision; the dashboard leaves
            # out the resources the role may not list
            assert refused is None
        else:  # a session's logout without its CSRF token is refused
            assert refused == {"$ref": "#/components/responses/Forbidden"}
    assert resource_operations == 7 * 3
    if jwt:
        assert media["example"] == UNAUTHORIZED
        assert "CSRF" not in forbidden["description"]
    else:  # the same status refuses a session write without its CSRF token
        examples = media["examples"]
        assert examples["unauthorized"]["value"] == UNAUTHORIZED
        assert examples["csrfTokenMismatch"]["value"] == {
            "message": "CSRF token mismatch."
        }
        assert "X-CSRF-Token" in forbidden["description"]
        assert "X-CSRF-Token" in doc["info"]["description"]
    assert "CsrfTokenMismatch" not in doc["components"]["responses"]


def test_readonly_fields_are_read_only_in_the_spec() -> None:
    patient = projects.resource(
        "Patient",
        projects.field("name", required=True),
        projects.field("edited_by", max_length=254),
        projects.field("stamp", read_only=True),
        readonly_fields=("edited_by",),
    )
    doc = build_spec(projects.project(patient))
    record = schemas(doc)["Patient"]["properties"]
    assert [n for n, p in record.items() if p.get("readOnly")] == [
        "id",
        "edited_by",
        "stamp",
    ]
    for kind in ("Create", "Update"):
        body = schemas(doc)["Patient" + kind]
        assert list(body["properties"]) == ["name"]
    assert schemas(doc)["PatientCreate"]["required"] == ["name"]
    validate_spec(doc, source="patient")
