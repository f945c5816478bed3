"""Composite keys on both frameworks: a playlist's tracks (a link table whose key is
its two relations) and labels keyed by a code and a locale (strings holding commas,
slashes and percent signs).

One project per framework is generated from ``composite/tunes.yaml`` and served, both
at once, on SQLite and then on PostgreSQL; each test drives both over HTTP and
compares their answers. The record URL holds the whole key in one path segment: the
parts percent-encoded and joined with commas (``1,2``), that segment quoted once more
like any segment value (``panel_core.composite_keys``). A key that cannot be one
(wrong count of parts, a broken escape, a part of the wrong type) is a 404.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from conftest import (
    FRAMEWORKS,
    REPO,
    SERVERS,
    Server,
    postgres_database,
)

from generator.manifest.load import parse_manifest
from generator.spec.validate import spec_problems

from .support import EMAIL, HTML, PASSWORD, Api, Deployment, crud, page

HERE = REPO / "tests" / "conformance" / "composite"
MANIFEST = parse_manifest((HERE / "tunes.yaml").read_text(), "tunes.yaml")
PLAYLIST, TRACK, LINK, LABEL = (
    MANIFEST.resource(n) for n in ("Playlist", "Track", "PlaylistTrack", "Label")
)
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')
_RECORD_LINK = re.compile(
    r'href="(/admin/resource/[a-z-]+/(?:detail|form)-page/[^"]+)"'
)


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
                folder = tmp_path_factory.mktemp(f"composite-{framework}")
                url = f"sqlite:///{folder / 'tunes.db'}"
                if database == "postgres":
                    url = stack.enter_context(postgres_database())
                servers.append(_served(framework, folder / "project", url))
            for server in servers:
                deployment = Deployment(
                    server.framework, "tunes", database, MANIFEST, server
                )
                api = Api(deployment)
                api.log_in(EMAIL, PASSWORD)
                clients[server.framework] = api
            yield clients
        finally:
            for api in clients.values():
                api.client.close()
            for server in servers:
                server.stop()


def _served(framework: str, project: Path, url: str) -> Server:
    result = subprocess.run(
        [sys.executable, "-m", "generator.cli", "generate", str(HERE / "tunes.yaml"),
         "-o", str(project), "--framework", framework, "--quiet"],
        cwd=REPO, env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    server = SERVERS[framework](project, url)
    server.migrate()
    server.create_user(EMAIL, PASSWORD)
    server.start()
    return server


def _both(
    apis: dict[str, Api], method: str, url: str, **kwargs: Any
) -> tuple[int, Any, dict[str, str]]:
    """Both frameworks' answer (status, JSON body, headers), once shown to agree."""
    answers = {}
    for framework, api in apis.items():
        response = api.request(method, url, **kwargs)
        origin = api.deployment.base_url
        text = response.text.replace(origin, "")
        body = json.loads(text) if text else None
        headers = {
            name: response.headers[name].replace(origin, "")
            for name in ("location", "etag")
            if name in response.headers
        }
        answers[framework] = (response.status_code, body, headers)
    assert answers["django"] == answers["fastapi"]
    return answers["fastapi"]


def _segment(*parts: str) -> str:
    """A record's path segment as the codec writes it, quoted once more."""
    return quote(",".join(quote(p, safe="") for p in parts), safe="")


@pytest.fixture(scope="module")
def tunes(apis: dict[str, Api]) -> dict[str, list[int]]:
    """Two playlists and three tracks, made alike on both frameworks."""
    made: dict[str, list[int]] = {"playlists": [], "tracks": []}
    for n in (1, 2):
        status, body, _ = _both(apis, "POST", crud(PLAYLIST), json={"name": f"P{n}"})
        assert status == 201
        made["playlists"].append(body["data"]["id"])
    for n in (1, 2, 3):
        status, body, _ = _both(apis, "POST", crud(TRACK), json={"title": f"T{n}"})
        assert status == 201
        made["tracks"].append(body["data"]["id"])
    return made


def _link(apis: dict[str, Api], playlist: int, track: int, position: int) -> Any:
    body = {"playlist": playlist, "track": track, "position": position}
    return _both(apis, "POST", crud(LINK), json=body)


def test_a_link_row_is_created_shown_updated_and_deleted(
    apis: dict[str, Api], tunes: dict[str, list[int]]
) -> None:
    p1, _ = tunes["playlists"]
    t1, _, _ = tunes["tracks"]
    status, body, headers = _link(apis, p1, t1, 1)
    assert status == 201, body
    key = f"{p1},{t1}"
    assert body["data"] == {"playlist": p1, "track": t1, "position": 1}
    assert headers["location"] == crud(LINK, quote(key, safe=""))
    status, shown, headers = _both(apis, "GET", crud(LINK, key))
    assert (status, shown) == (200, body["data"])
    etag = headers["etag"]
    # Updates change the other fields; the parts stay (they are not writable).
    status, body, _ = _both(
        apis, "PATCH", crud(LINK, key), json={"position": 4}, headers={"If-Match": etag}
    )
    assert status == 200 and body["data"]["position"] == 4
    status, _, _ = _both(
        apis, "PATCH", crud(LINK, key), json={"position": 5}, headers={"If-Match": etag}
    )
    assert status == 412  # the version changed since
    status, body, _ = _both(apis, "PUT", crud(LINK, key), json={"position": 6})
    assert status == 200
    assert body["data"] == {"playlist": p1, "track": t1, "position": 6}
    assert _both(apis, "DELETE", crud(LINK, key))[0] == 200
    assert _both(apis, "GET", crud(LINK, key))[0] == 404
    assert _both(apis, "DELETE", crud(LINK, key))[0] == 404


def test_a_pair_stored_twice_is_refused(
    apis: dict[str, Api], tunes: dict[str, list[int]]
) -> None:
    p1, p2 = tunes["playlists"]
    t1, t2, _ = tunes["tracks"]
    assert _link(apis, p2, t2, 1)[0] == 201
    status, body, _ = _link(apis, p2, t2, 2)
    assert status == 422
    assert body["errors"] == {
        "playlist": ["The Playlist and Track have already been taken."]
    }
    assert _link(apis, p2, t1, 2)[0] == 201  # another pair with the same playlist
    assert (
        _both(apis, "DELETE", crud(LINK) + f"?ids[]={p2},{t2}&ids[]={p2},{t1}")[0]
        == 200
    )


def test_the_list_orders_by_the_parts_and_pages_by_offset(
    apis: dict[str, Api], tunes: dict[str, list[int]]
) -> None:
    p1, p2 = tunes["playlists"]
    t1, t2, t3 = tunes["tracks"]
    pairs = [(p2, t3), (p1, t2), (p2, t1), (p1, t3)]
    for n, (p, t) in enumerate(pairs, 1):
        assert _link(apis, p, t, n)[0] == 201
    status, body, _ = _both(apis, "GET", crud(LINK) + "?per_page=3")
    assert status == 200
    listed = [(r["playlist"], r["track"]) for r in body["data"]]
    assert listed == sorted(pairs)[:3]
    status, body, _ = _both(apis, "GET", crud(LINK) + "?per_page=3&page=2")
    assert [(r["playlist"], r["track"]) for r in body["data"]] == sorted(pairs)[3:]
    status, body, _ = _both(apis, "GET", crud(LINK) + "?sort=-position")
    assert [r["position"] for r in body["data"]] == [4, 3, 2, 1]
    status, body, _ = _both(apis, "GET", crud(LINK) + "?cursor=")
    assert status == 422 and "composite key" in body["errors"]["cursor"][0]
    keys = [f"{p},{t}" for p, t in pairs]
    query = "&".join(f"ids[]={k}" for k in [*keys[:2], "999999,1"])
    status, body, _ = _both(apis, "DELETE", crud(LINK) + "?" + query)
    assert (status, body["deleted"]) == (200, 2)
    status, body, _ = _both(apis, "DELETE", crud(LINK), json={"ids": keys[2:]})
    assert (status, body["deleted"]) == (200, 2)
    assert _both(apis, "GET", crud(LINK))[1]["data"] == []


def test_a_link_table_exports_and_imports_back_by_its_parts(
    apis: dict[str, Api], tunes: dict[str, list[int]]
) -> None:
    _, p2 = tunes["playlists"]
    t1, t2, t3 = tunes["tracks"]
    base = f"/admin/resource/{LINK.uri}/handler"
    csv_body = {"headers": {"Content-Type": "text/csv"}}
    text = f"playlist,track,position\n{p2},{t1},1\n{p2},{t2},2\n"
    status, body, _ = _both(apis, "POST", f"{base}/import", content=text, **csv_body)
    assert (status, body["created"], body["updated"]) == (200, 2, 0), body
    # A row naming a pair that exists updates it; its parts stay as they are.
    text = f"playlist,track,position\n{p2},{t1},9\n{p2},{t3},3\n"
    status, body, _ = _both(apis, "POST", f"{base}/import", content=text, **csv_body)
    assert (status, body["created"], body["updated"]) == (200, 1, 1), body
    assert _both(apis, "GET", crud(LINK, f"{p2},{t1}"))[1]["position"] == 9
    # A part missing or not of its kind: the row is refused, nothing written.
    text = f"playlist,track,position\n{p2},,4\n{p2},x,5\n"
    status, body, _ = _both(apis, "POST", f"{base}/import", content=text, **csv_body)
    assert status == 422 and sorted(body["errors"]) == ["row 2", "row 3"], body
    exports = {
        framework: api.get(
            f"{base}/export",
            params={"filter[playlist]": p2},
            headers={"Accept": "text/csv"},
        )
        for framework, api in apis.items()
    }
    assert {e.status_code for e in exports.values()} == {200}
    assert exports["django"].text == exports["fastapi"].text
    assert exports["fastapi"].text.splitlines() == [
        "playlist,track,position",
        f"{p2},{t1},9",
        f"{p2},{t2},2",
        f"{p2},{t3},3",
    ]
    text = exports["fastapi"].text
    status, body, _ = _both(apis, "POST", f"{base}/import", content=text, **csv_body)
    assert (status, body["created"], body["updated"]) == (200, 0, 3), body
    keys = [f"{p2},{t}" for t in (t1, t2, t3)]
    status, body, _ = _both(apis, "DELETE", crud(LINK), json={"ids": keys})
    assert (status, body["deleted"]) == (200, 3)


@pytest.mark.parametrize(
    "segment",
    ["1", "1,2,3", "1,%25zz", "x,1", "1,", "%2C", "1%2C2%2C3"],
)
def test_a_key_that_cannot_be_one_is_404(apis: dict[str, Api], segment: str) -> None:
    for method in ("GET", "PATCH", "DELETE"):
        kwargs = {"json": {"position": 1}} if method == "PATCH" else {}
        assert _both(apis, method, crud(LINK, segment), **kwargs)[0] == 404
    status, body, _ = _both(apis, "DELETE", crud(LINK) + f"?ids[]={segment}")
    assert status == 422 and "ids" in body["errors"]


@pytest.mark.parametrize(
    ("code", "locale"),
    [("a,b", "en"), ("x/y", "de"), ("100%", "fr"), ("é ,%/", "pt-BR")],
)
def test_string_parts_with_commas_slashes_and_percents(
    apis: dict[str, Api], code: str, locale: str
) -> None:
    body = {"code": code, "locale": locale, "text": "hello"}
    status, created, headers = _both(apis, "POST", crud(LABEL), json=body)
    assert status == 201, created
    segment = _segment(code, locale)
    assert headers["location"] == crud(LABEL, segment)
    assert _both(apis, "GET", crud(LABEL, segment))[:2] == (200, body)
    status, changed, _ = _both(apis, "PATCH", crud(LABEL, segment), json={"text": "hi"})
    assert status == 200 and changed["data"] == {**body, "text": "hi"}
    # The same key with its comma as is: the segment's comma needs no escape.
    unquoted = ",".join(quote(quote(p, safe=""), safe="") for p in (code, locale))
    assert _both(apis, "GET", crud(LABEL, unquoted))[0] == 200
    inner = ",".join(quote(p, safe="") for p in (code, locale))
    status, deleted, _ = _both(apis, "DELETE", crud(LABEL), json={"ids": [inner]})
    assert (status, deleted["deleted"]) == (200, 1)
    assert _both(apis, "GET", crud(LABEL, segment))[0] == 404


def test_the_spec_describes_the_key_segment(apis: dict[str, Api]) -> None:
    specs = {f: api.get("/oag.json").json() for f, api in apis.items()}
    assert specs["django"] == specs["fastapi"]
    spec = specs["fastapi"]
    assert spec_problems(spec) == []
    item = spec["paths"]["/admin/resource/playlist-track-resource/crud/{resourceItem}"]
    parameters = item["get"].get("parameters", []) + item.get("parameters", [])
    parameter = next(p for p in parameters if p.get("name") == "resourceItem")
    assert parameter["schema"]["type"] == "string"
    assert "pattern" in parameter["schema"]
    assert "comma" in parameter["description"].lower()


def _page(api: Api, url: str) -> tuple[int, str]:
    response = api.get(url, headers=HTML)
    return response.status_code, _TOKEN.sub(r"\1…", response.text)


def test_the_pages_link_each_record_by_its_whole_key(
    apis: dict[str, Api], tunes: dict[str, list[int]]
) -> None:
    p1, _ = tunes["playlists"]
    t1, _, _ = tunes["tracks"]
    assert _link(apis, p1, t1, 7)[0] == 201
    label = {"code": "a,b/c%d", "locale": "en", "text": "odd"}
    assert _both(apis, "POST", crud(LABEL), json=label)[0] == 201
    link_key = quote(f"{p1},{t1}", safe="")
    label_key = _segment("a,b/c%d", "en")
    for resource, key in ((LINK, link_key), (LABEL, label_key)):
        index = {f: _page(api, page(resource, "index-page")) for f, api in apis.items()}
        assert index["django"] == index["fastapi"]
        status, html = index["fastapi"]
        assert status == 200
        own = f"/admin/resource/{resource.uri}/"
        links = {u for u in _RECORD_LINK.findall(html) if u.startswith(own)}
        assert links == {
            page(resource, "detail-page", key),
            page(resource, "form-page", key),
        }
        for name in ("detail-page", "form-page"):
            shown = {
                f: _page(api, page(resource, name, key)) for f, api in apis.items()
            }
            assert shown["django"] == shown["fastapi"]
            assert shown["fastapi"][0] == 200
    _both(apis, "DELETE", crud(LINK, link_key))
    _both(apis, "DELETE", crud(LABEL, label_key))


def test_a_part_s_record_is_not_deleted_while_link_rows_refer_to_it(
    apis: dict[str, Api], tunes: dict[str, list[int]]
) -> None:
    _, p2 = tunes["playlists"]
    _, t2, _ = tunes["tracks"]
    assert _link(apis, p2, t2, 1)[0] == 201
    status, body, _ = _both(apis, "DELETE", crud(PLAYLIST, p2))
    assert status == 409
    assert body["references"][0]["resource"] == LINK.uri
    assert _both(apis, "DELETE", crud(LINK, f"{p2},{t2}"))[0] == 200
