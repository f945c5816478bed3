"""Many-to-many fields on both frameworks: a playlist's tracks, tags and badges.

One project per framework is generated from ``many_to_many/mix.yaml`` and served,
both at once, on SQLite and then on PostgreSQL; each test drives both over HTTP and
compares their answers. The field is the linked keys in key order, on show and on
every row of a list; create, PUT and PATCH replace the set (a key given twice counts
once); an unknown or trashed key is 422 naming the field; ``filter[tracks]=42`` keeps
the records linked to 42; deleting either side removes the links, never the other
record; the spec describes the field and the filter; CSV export and import carry the
keys.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from conftest import (
    FRAMEWORKS,
    REPO,
    SERVERS,
    Server,
    postgres_database,
    run_panelforge,
)

from generator.manifest.load import load_manifest
from generator.spec.validate import spec_problems

from .support import HTML, PASSWORD, Api, Deployment, crud, page

HERE = REPO / "tests" / "conformance" / "many_to_many"
MANIFEST = load_manifest(HERE / "mix.yaml")
PLAYLIST, TRACK, TAG, BADGE = (
    MANIFEST.resource(n) for n in ("Playlist", "Track", "Tag", "Badge")
)
ADMIN = "admin@example.com"
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')
# Each database makes its own badge keys (UUIDs): set aside when pages are compared.
_UUID = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def apis(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[dict[str, Api]]:
    """A logged-in JSON client of each framework's served project, on the
    database the test names (one database per framework)."""
    database: str = request.param
    servers, clients = [], {}
    with ExitStack() as stack:
        try:
            for framework in FRAMEWORKS:
                folder = tmp_path_factory.mktemp(f"m2m-{framework}")
                url = f"sqlite:///{folder / 'mix.db'}"
                if database == "postgres":
                    url = stack.enter_context(postgres_database())
                servers.append(_served(framework, folder / "project", url))
            for server in servers:
                deployment = Deployment(
                    server.framework, "mix", database, MANIFEST, server
                )
                api = Api(deployment)
                api.log_in(ADMIN, PASSWORD)
                clients[server.framework] = api
            yield clients
        finally:
            for api in clients.values():
                api.client.close()
            for server in servers:
                server.stop()


def _served(framework: str, project: Path, url: str) -> Server:
    result = run_panelforge(
        "generate", str(HERE / "mix.yaml"), "-o", str(project),
        "--framework", framework, "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    server = SERVERS[framework](project, url)
    server.migrate()
    server.create_user(ADMIN, PASSWORD)
    server.start()
    return server


def _both(apis: dict[str, Api], method: str, url: str, **kwargs: Any) -> Any:
    """Send the same request to both; assert the same status and JSON; answer it."""
    answers = {}
    for framework, api in apis.items():
        response = api.request(method, url, **kwargs)
        # Page URLs are absolute: each server's own origin set aside.
        text = response.text.replace(api.deployment.base_url, "")
        body = json.loads(text) if text else None
        answers[framework] = (response.status_code, body)
    assert answers["django"] == answers["fastapi"]
    return answers["fastapi"]


def _made(apis: dict[str, Api], resource: Any, **body: Any) -> Any:
    status, answer = _both(apis, "POST", crud(resource), json=body)
    assert status == 201, answer
    return answer["data"][resource.key]


def _tracks(apis: dict[str, Api], *titles: str) -> list[int]:
    return [_made(apis, TRACK, title=title) for title in titles]


def _show(apis: dict[str, Api], resource: Any, key: Any) -> dict[str, Any]:
    status, answer = _both(apis, "GET", crud(resource, key))
    assert status == 200, answer
    return answer  # type: ignore[no-any-return]


def test_create_links_in_key_order_once_each(apis: dict[str, Api]) -> None:
    first, second = _tracks(apis, "One", "Two")
    tag = _made(apis, TAG, code="jazz", label="Jazz")
    status, answer = _both(
        apis,
        "POST",
        crud(PLAYLIST),
        json={
            "name": "Mix",
            "tracks": [second, first, second],
            "tags": [tag],
        },
    )
    assert status == 201, answer
    data = answer["data"]
    assert data["tracks"] == [first, second]
    assert data["tags"] == [tag]
    assert _show(apis, PLAYLIST, data["id"])["tracks"] == [first, second]


def test_a_create_without_the_field_links_nothing(apis: dict[str, Api]) -> None:
    key = _made(apis, PLAYLIST, name="Empty")
    shown = _show(apis, PLAYLIST, key)
    assert (shown["tracks"], shown["tags"], shown["badges"]) == ([], [], [])


def test_put_and_patch_replace_the_set(apis: dict[str, Api]) -> None:
    first, second, third = _tracks(apis, "A", "B", "C")
    key = _made(apis, PLAYLIST, name="Edit", tracks=[first, second])
    url = crud(PLAYLIST, key)
    status, answer = _both(apis, "PATCH", url, json={"tracks": [third]})
    assert status == 200, answer
    assert answer["data"]["tracks"] == [third]
    status, answer = _both(apis, "PATCH", url, json={"name": "Renamed"})
    assert status == 200, answer
    assert answer["data"]["tracks"] == [third]  # not named: unchanged
    body = {"name": "Put", "tracks": [second, first]}
    status, answer = _both(apis, "PUT", url, json=body)
    assert status == 200, answer
    assert answer["data"]["tracks"] == [first, second]
    status, answer = _both(apis, "PATCH", url, json={"tracks": []})
    assert answer["data"]["tracks"] == []


def test_unknown_keys_are_422_naming_the_field(apis: dict[str, Api]) -> None:
    (track,) = _tracks(apis, "Known")
    for body, field in (
        ({"name": "X", "tracks": [track, 987654]}, "tracks"),
        ({"name": "X", "tags": ["nope"]}, "tags"),
    ):
        status, answer = _both(apis, "POST", crud(PLAYLIST), json=body)
        assert status == 422, answer
        assert list(answer["errors"]) == [field]
    status, answer = _both(
        apis, "POST", crud(PLAYLIST), json={"name": "X", "tracks": 3}
    )
    assert status == 422
    assert answer["errors"] == {"tracks": ["The Tracks field must be a list of keys."]}
    status, answer = _both(
        apis, "POST", crud(PLAYLIST), json={"name": "X", "tracks": ["a"]}
    )
    assert status == 422 and list(answer["errors"]) == ["tracks"]
    status, answer = _both(
        apis, "POST", crud(PLAYLIST), json={"name": "X", "tracks": None}
    )
    assert status == 422 and list(answer["errors"]) == ["tracks"]


def test_trashed_records_are_invisible_and_refused(apis: dict[str, Api]) -> None:
    kept, trashed = _tracks(apis, "Kept", "Trashed")
    key = _made(apis, PLAYLIST, name="Trash", tracks=[kept, trashed])
    status, _ = _both(apis, "DELETE", crud(TRACK, trashed))
    assert status == 200
    assert _show(apis, PLAYLIST, key)["tracks"] == [kept]
    status, answer = _both(
        apis, "PATCH", crud(PLAYLIST, key), json={"tracks": [kept, trashed]}
    )
    assert status == 422
    assert answer["errors"] == {"tracks": ["The selected Tracks is invalid."]}


def test_the_list_carries_the_keys_and_filters_by_one(apis: dict[str, Api]) -> None:
    first, second = _tracks(apis, "L1", "L2")
    both = _made(apis, PLAYLIST, name="Both", tracks=[first, second])
    only = _made(apis, PLAYLIST, name="Only", tracks=[second])
    _made(apis, PLAYLIST, name="None")
    status, answer = _both(apis, "GET", crud(PLAYLIST) + f"?filter[tracks]={first}")
    assert status == 200, answer
    assert [row["id"] for row in answer["data"]] == [both]
    status, answer = _both(
        apis, "GET", crud(PLAYLIST) + f"?filter[tracks]={second}&sort=id"
    )
    assert [(row["id"], row["tracks"]) for row in answer["data"]] == [
        (both, [first, second]),
        (only, [second]),
    ]
    status, answer = _both(apis, "GET", crud(PLAYLIST) + "?filter[tracks]=abc")
    assert status == 422
    assert list(answer["errors"]) == ["filter[tracks]"]
    status, answer = _both(apis, "GET", crud(PLAYLIST) + "?filter[tags]=jazz")
    assert status == 200


def test_deleting_either_side_removes_only_the_links(apis: dict[str, Api]) -> None:
    tag = _made(apis, TAG, code="gone", label="Gone")
    keep = _made(apis, TAG, code="keep", label="Keep")
    key = _made(apis, PLAYLIST, name="Tagged", tags=[tag, keep])
    status, _ = _both(apis, "DELETE", crud(TAG, tag))
    assert status == 200
    assert _show(apis, PLAYLIST, key)["tags"] == [keep]
    status, _ = _both(apis, "DELETE", crud(PLAYLIST, key))
    assert status == 200
    assert _show(apis, TAG, keep)["code"] == keep
    other = _made(apis, PLAYLIST, name="Again", tags=[keep])
    assert _show(apis, PLAYLIST, other)["tags"] == [keep]


def test_a_link_to_its_own_resource(apis: dict[str, Api]) -> None:
    first, second = _tracks(apis, "S1", "S2")
    status, answer = _both(
        apis, "PATCH", crud(TRACK, first), json={"similar": [second, first]}
    )
    assert status == 200, answer
    assert answer["data"]["similar"] == [first, second]
    assert _show(apis, TRACK, second)["similar"] == []


def test_uuid_keys_link_too(apis: dict[str, Api]) -> None:
    """Each database makes its own UUIDs: the answers are compared key aside."""
    answers = {}
    for framework, api in apis.items():
        response = api.post(crud(BADGE), json={"name": "Gold"})
        assert response.status_code == 201, response.text
        badge = response.json()["data"]["ref"]
        body = {"name": "Badged", "badges": [badge, badge.upper()]}
        response = api.post(crud(PLAYLIST), json=body)
        assert response.status_code == 201, response.text
        assert response.json()["data"]["badges"] == [badge]
        linked = api.get(crud(PLAYLIST) + f"?filter[badges]={badge}").json()["data"]
        assert [row["name"] for row in linked] == ["Badged"]
        unknown = {"name": "X", "badges": [str(uuid.UUID(int=99))]}
        response = api.post(crud(PLAYLIST), json=unknown)
        answers[framework] = (response.status_code, response.json())
    assert answers["django"] == answers["fastapi"]
    assert answers["fastapi"][0] == 422
    assert list(answers["fastapi"][1]["errors"]) == ["badges"]


def test_the_spec_describes_the_field_and_the_filter(apis: dict[str, Api]) -> None:
    specs = {f: api.get("/oag.json").json() for f, api in apis.items()}
    assert specs["django"] == specs["fastapi"]
    spec = specs["fastapi"]
    assert spec_problems(spec) == []
    schemas = spec["components"]["schemas"]
    for name in ("Playlist", "PlaylistCreate", "PlaylistUpdate"):
        tracks = schemas[name]["properties"]["tracks"]
        assert tracks["type"] == "array"
        assert tracks["items"]["type"] == "integer"
        assert schemas[name]["properties"]["badges"]["items"]["format"] == "uuid"
    assert "tracks" in schemas["Playlist"]["required"]
    assert "tracks" not in schemas["PlaylistCreate"].get("required", [])
    listing = spec["paths"]["/admin/resource/playlist-resource/crud"]["get"]
    names = {p["name"] for p in listing["parameters"]}
    assert {"filter[tracks]", "filter[tags]", "filter[badges]"} <= names


def _html(api: Api, url: str) -> str:
    response = api.get(url, headers=HTML)
    assert response.status_code == 200, response.text
    return _UUID.sub("<uuid>", _TOKEN.sub(r"\1…", response.text))


def _submit(api: Api, pairs: list[tuple[str, str]]) -> Any:
    """A create form sent with a field given several times."""
    headers = {**HTML, "Content-Type": "application/x-www-form-urlencoded"}
    return api.post(crud(PLAYLIST), content=urlencode(pairs), headers=headers)


def test_pages_pick_and_list_the_linked_records(apis: dict[str, Api]) -> None:
    first, second, third = _tracks(apis, "Page one", "Page two", "Page three")
    answers = {}
    for framework, api in apis.items():
        form = _html(api, page(PLAYLIST, "form-page"))
        pairs = [("_token", api.token or ""), ("name", "Picked"), ("tracks", "")]
        pairs += [("tracks", str(first)), ("tracks", str(third))]
        saved = _submit(api, pairs)
        found = api.get(crud(PLAYLIST) + "?filter[tracks]=" + str(third)).json()
        key = found["data"][-1]["id"]
        detail = _html(api, page(PLAYLIST, "detail-page", key))
        edit = _html(api, page(PLAYLIST, "form-page", key))
        index = _html(api, page(PLAYLIST, "index-page") + f"?filter[tracks]={third}")
        wrong = _submit(
            api, [("_token", api.token or ""), ("name", "Bad"), ("tracks", "999999")]
        )
        # Post/redirect/get: the refused form is shown by its form page.
        refused = _html(api, wrong.headers["location"]) if wrong.is_redirect else ""
        answers[framework] = (
            form,
            saved.status_code,
            key,
            detail,
            edit,
            index,
            wrong.status_code,
            refused,
        )
    assert answers["django"] == answers["fastapi"]
    form, saved, key, detail, edit, index, wrong, refused = answers["fastapi"]
    assert 'name="tracks" multiple' in form
    assert saved == 303
    for track, title in ((first, "Page one"), (third, "Page three")):
        link = page(TRACK, "detail-page", track)
        assert f'<a href="{link}">{title}</a>' in detail
    assert page(TRACK, "detail-page", second) + '"' not in detail
    assert f'<option value="{first}" selected>' in edit
    assert f'<option value="{second}">' in edit
    assert wrong == 303
    assert 'class="field has-error"' in refused and 'value="Bad"' in refused
    # The list's column names the linked records (the labels read once per page).
    table = index.split("<table")[1]
    assert "Tracks" in table.split("</thead>")[0]
    assert f'<a href="{page(TRACK, "detail-page", third)}">Page three</a>' in table


def test_csv_export_and_import_round_trip_the_keys(apis: dict[str, Api]) -> None:
    first, second = _tracks(apis, "Csv one", "Csv two")
    key = _made(apis, PLAYLIST, name="Exported", tracks=[second, first])
    handler = f"/admin/resource/{PLAYLIST.uri}/handler"
    csv_headers = {"Content-Type": "text/csv"}
    answers = {}
    for framework, api in apis.items():
        query = f"?filter[tracks]={first}"
        exported = api.get(f"{handler}/export{query}", headers={"Accept": "text/csv"})
        lines = exported.text.splitlines()
        # Imported back as it was, then with the set changed: the links follow.
        same = api.post(f"{handler}/import", content=exported.text, headers=csv_headers)
        after_same = api.get(crud(PLAYLIST, key)).json()["tracks"]
        changed = lines[1].replace(f"{first};{second}", str(second))
        text = "\r\n".join([lines[0], changed]) + "\r\n"
        moved = api.post(f"{handler}/import", content=text, headers=csv_headers)
        after_moved = api.get(crud(PLAYLIST, key)).json()["tracks"]
        # An unknown key fails its row, and the whole import (all or nothing).
        bad = f"{lines[0]}\r\n{changed}\r\n,New,{first};999999,,\r\n"
        refused = api.post(f"{handler}/import", content=bad, headers=csv_headers)
        answers[framework] = (
            exported.status_code,
            lines,
            same.status_code,
            after_same,
            moved.status_code,
            after_moved,
            refused.status_code,
            refused.json(),
        )
    assert answers["django"] == answers["fastapi"]
    status, lines, same, after_same, moved, after_moved, refused, why = answers[
        "fastapi"
    ]
    assert status == 200
    assert lines[0] == "id,name,tracks,tags,badges"
    assert lines[1] == f"{key},Exported,{first};{second},,"
    assert (same, after_same) == (200, [first, second])
    assert (moved, after_moved) == (200, [second])
    assert refused == 422
    assert why["errors"] == {"row 3": ["The selected Tracks is invalid."]}
