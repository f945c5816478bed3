"""Has-many fields on both frameworks: an album's tracks, an employee's reports.

One project per framework is generated from ``children/music.yaml`` (with a scope on
tracks: ``children/<framework>/track.py``) and served, both at once, on SQLite and
then on PostgreSQL; each test drives both over HTTP and compares their answers. The
JSON show includes the children's keys only with ``?with=``, in key order, without
trashed children or those outside the scope; the spec describes the field and the
parameter; the parent's detail page lists the children by their display, linked, with
"Show all N" past one page and an "Add one" link whose form comes prefilled with the
parent and saves with it; CSV export and import leave the field out.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from html import escape
from pathlib import Path
from typing import Any

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

HERE = REPO / "tests" / "conformance" / "children"
MANIFEST = load_manifest(HERE / "music.yaml")
ALBUM, TRACK, EMPLOYEE = (MANIFEST.resource(n) for n in ("Album", "Track", "Employee"))
ADMIN = "admin@example.com"
GUEST = "guest@guest.test"
ROLES = {"listener@example.com": "listener", "browser@example.com": "browser"}
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')


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
                folder = tmp_path_factory.mktemp(f"children-{framework}")
                url = f"sqlite:///{folder / 'music.db'}"
                if database == "postgres":
                    url = stack.enter_context(postgres_database())
                servers.append(_served(framework, folder / "project", url))
            for server in servers:
                deployment = Deployment(
                    server.framework, "music", database, MANIFEST, server
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
    """The music project of ``framework``, migrated, with its users, started."""
    result = run_panelforge(
        "generate", str(HERE / "music.yaml"), "-o", str(project),
        "--framework", framework, "--quiet",
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    # A scope: guests do not see the tracks called "Hidden…".
    hook = HERE / framework / "track.py"
    shutil.copyfile(hook, project / "app" / "hooks" / "track.py")
    server = SERVERS[framework](project, url)
    server.migrate()
    server.create_user(ADMIN, PASSWORD)
    for email, role in ((GUEST, "admin"), *ROLES.items()):
        server.run_app(
            "create-user", email, "--role", role, "--password-stdin", input=PASSWORD
        )
    server.start()
    return server


def _made(api: Api, resource: Any, **body: Any) -> Any:
    response = api.post(crud(resource), json=body)
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


def _same(answers: dict[str, Any]) -> Any:
    """What both frameworks answered, once they are shown to agree."""
    assert answers["django"] == answers["fastapi"]
    return answers["fastapi"]


def _json(api: Api, url: str) -> tuple[int, Any]:
    response = api.get(url)
    return response.status_code, response.json()


def _html(api: Api, url: str) -> str:
    response = api.get(url, headers=HTML)
    assert response.status_code == 200, response.text
    return _TOKEN.sub(r"\1…", response.text)


def _album_with_tracks(api: Api, title: str, count: int) -> tuple[Any, list[Any]]:
    album = _made(api, ALBUM, title=title)
    # Made out of order: the answer lists them by key all the same.
    tracks = [
        _made(api, TRACK, title=f"Song {n}", position=n, album=album)
        for n in range(count, 0, -1)
    ]
    return album, tracks


def test_show_includes_the_children_only_when_asked(apis: dict[str, Api]) -> None:
    answers = {}
    for framework, api in apis.items():
        album, tracks = _album_with_tracks(api, "Asked", 3)
        other = _made(api, ALBUM, title="Empty")
        _made(api, TRACK, title="Elsewhere", position=1, album=other)
        trashed = _made(api, TRACK, title="Trashed", position=9, album=album)
        assert api.request("DELETE", crud(TRACK, trashed)).status_code == 200
        plain = _json(api, crud(ALBUM, album))
        asked = _json(api, crud(ALBUM, album) + "?with=tracks")
        listed = _json(api, crud(ALBUM))[1]["data"]  # links name each origin
        empty = _json(
            api, crud(ALBUM, _made(api, ALBUM, title="None")) + "?with=tracks"
        )
        etags = [
            api.get(crud(ALBUM, album) + query).headers["etag"]
            for query in ("", "?with=tracks")
        ]
        answers[framework] = (
            album,
            tracks,
            trashed,
            plain,
            asked,
            listed,
            empty,
            etags,
        )
    album, tracks, trashed, plain, asked, listed, empty, etags = _same(answers)
    assert plain[0] == 200 and "tracks" not in plain[1]
    assert asked[0] == 200
    assert asked[1] == {**plain[1], "tracks": sorted(tracks)}
    assert trashed not in asked[1]["tracks"]
    assert listed and all("tracks" not in record for record in listed)
    assert empty == (200, empty[1]) and empty[1]["tracks"] == []
    assert etags[0] == etags[1]  # the version is the record's, children aside


def test_a_self_reference_lists_its_reports(apis: dict[str, Api]) -> None:
    answers = {}
    for framework, api in apis.items():
        boss = _made(api, EMPLOYEE, name="Boss")
        reports = [_made(api, EMPLOYEE, name=f"R{n}", manager=boss) for n in range(2)]
        _made(api, EMPLOYEE, name="Deep", manager=reports[0])
        both = _json(api, crud(EMPLOYEE, boss) + "?with=reports,reports")
        answers[framework] = (reports, both)
    reports, both = _same(answers)
    assert both[0] == 200 and both[1]["reports"] == sorted(reports)


def test_with_names_only_has_many_fields(apis: dict[str, Api]) -> None:
    answers = {}
    for framework, api in apis.items():
        album = _made(api, ALBUM, title="Refused")
        answers[framework] = [
            _json(api, crud(ALBUM, album) + query)
            for query in ("?with=songs", "?with=title", "?with=tracks,nope")
        ]
    for status, body in _same(answers):
        assert status == 422
        assert list(body["errors"]) == ["with"]
        assert "it takes: tracks" in body["errors"]["with"][0]


def test_the_spec_describes_the_field_and_the_parameter(apis: dict[str, Api]) -> None:
    specs = {f: api.get("/oag.json").json() for f, api in apis.items()}
    spec = _same(specs)
    assert spec_problems(spec) == []
    schemas = spec["components"]["schemas"]
    read = next(s for name, s in schemas.items() if "tracks" in s.get("properties", {}))
    field = read["properties"]["tracks"]
    assert field["type"] == "array" and field["readOnly"] is True
    assert field["items"]["type"] == "integer" and field["items"]["format"] == "int64"
    assert "with=tracks" in field["description"]
    for name, schema in schemas.items():
        if schema is not read:
            assert "tracks" not in schema.get("properties", {}), name
    show = spec["paths"]["/admin/resource/album-resource/crud/{resourceItem}"]["get"]
    (param,) = [p for p in show["parameters"] if p["name"] == "with"]
    assert param["in"] == "query"
    assert param["schema"]["items"]["enum"] == ["tracks"]
    tracks_show = spec["paths"]["/admin/resource/track-resource/crud/{resourceItem}"]
    assert all(p["name"] != "with" for p in tracks_show["get"].get("parameters", []))


def test_the_detail_page_lists_links_and_adds_children(apis: dict[str, Api]) -> None:
    answers = {}
    for framework, api in apis.items():
        album, tracks = _album_with_tracks(api, "Paged", 3)
        lone, (single,) = _album_with_tracks(api, "Single", 1)
        pages = (_html(api, page(ALBUM, "detail-page", album)),)
        pages += (_html(api, page(ALBUM, "detail-page", lone)),)
        add = page(TRACK, "form-page") + f"?album={lone}"
        form = _html(api, add)
        saved = api.post(
            crud(TRACK),
            data={"_token": api.token or "", "title": "Added", "album": str(lone)},
            headers=HTML,
        )
        after = _json(api, crud(ALBUM, lone) + "?with=tracks")
        answers[framework] = (
            album,
            tracks,
            lone,
            single,
            pages,
            form,
            saved.status_code,
            after,
        )
    album, tracks, lone, single, pages, form, saved, after = _same(answers)
    paged, alone = pages
    first = sorted(tracks)[:2]  # one page of the child: two
    for key, position in zip(first, (3, 2), strict=True):
        link = page(TRACK, "detail-page", key)
        label = escape(f"{position}. Song {position}")
        assert f'<li><a href="{link}">{label}</a></li>' in paged
    last = page(TRACK, "detail-page", sorted(tracks)[2])
    assert last not in paged
    every = page(TRACK, "index-page") + f"?filter%5Balbum%5D={album}"
    assert f'<a class="show-all" href="{every}">Show all 3</a>' in paged
    assert "<h2>Tracks (3)</h2>" in paged
    assert f'href="{page(TRACK, "form-page")}?album={album}">Add one</a>' in paged
    assert "show-all" not in alone
    assert f'<a href="{page(TRACK, "detail-page", single)}">1. Song 1</a>' in alone
    # The form "Add one" leads to has the album chosen; saved, the track is its.
    assert f'<option value="{lone}" selected>' in form
    assert saved == 303
    assert after[0] == 200 and len(after[1]["tracks"]) == 2
    # Neither the forms nor the list show the has-many field.
    for api in apis.values():
        assert "Tracks (" not in _html(api, page(ALBUM, "form-page"))
        assert 'name="tracks"' not in _html(api, page(ALBUM, "form-page", album))
        assert "Tracks" not in _html(api, page(ALBUM, "index-page")).split("<table")[1]


def test_reports_are_listed_on_the_employee_page(apis: dict[str, Api]) -> None:
    answers = {}
    for framework, api in apis.items():
        boss = _made(api, EMPLOYEE, name="Head")
        report = _made(api, EMPLOYEE, name="Helper", manager=boss)
        html = _html(api, page(EMPLOYEE, "detail-page", boss))
        answers[framework] = (report, html)
    report, html = _same(answers)
    assert "<h2>Direct reports (1)</h2>" in html
    assert f'<a href="{page(EMPLOYEE, "detail-page", report)}">Helper</a>' in html


def test_csv_export_and_import_leave_the_field_out(apis: dict[str, Api]) -> None:
    answers = {}
    for framework, api in apis.items():
        album, tracks = _album_with_tracks(api, "Exported", 1)
        handler = f"/admin/resource/{ALBUM.uri}/handler"
        exported = api.get(f"{handler}/export", headers={"Accept": "text/csv"})
        # A file naming the field (as a has-many list would be written) is taken:
        # the column is skipped, as read-only columns are.
        text = f"id,title,tracks\n{album},Renamed,99\n"
        imported = api.post(
            f"{handler}/import", content=text, headers={"Content-Type": "text/csv"}
        )
        after = _json(api, crud(ALBUM, album) + "?with=tracks")
        header = exported.text.splitlines()[0]
        answers[framework] = (
            exported.status_code,
            header,
            imported.status_code,
            tracks,
            after,
        )
    exported, header, imported, tracks, after = _same(answers)
    assert exported == 200 and header == "id,title"
    assert imported == 200
    assert after[1]["title"] == "Renamed" and after[1]["tracks"] == tracks


def test_children_outside_the_scope_are_left_out(apis: dict[str, Api]) -> None:
    answers = {}
    for framework, api in apis.items():
        album, (seen,) = _album_with_tracks(api, "Scoped", 1)
        hidden = _made(api, TRACK, title="Hidden song", position=2, album=album)
        with Api(api.deployment) as guest:
            guest.log_in(GUEST, PASSWORD)
            shown = _json(guest, crud(ALBUM, album) + "?with=tracks")
            html = _html(guest, page(ALBUM, "detail-page", album))
        everything = _json(api, crud(ALBUM, album) + "?with=tracks")
        answers[framework] = (seen, hidden, shown, everything, html)
    seen, hidden, shown, everything, html = _same(answers)
    assert everything[1]["tracks"] == [seen, hidden]
    assert shown == (200, {**everything[1], "tracks": [seen]})
    assert "<h2>Tracks (1)</h2>" in html and "Hidden song" not in html


def test_the_roles_decide_who_sees_and_adds_children(apis: dict[str, Api]) -> None:
    answers = {}
    for framework, api in apis.items():
        album, _tracks = _album_with_tracks(api, "Guarded", 1)
        seen = {}
        for email in ROLES:
            with Api(api.deployment) as user:
                user.log_in(email, PASSWORD)
                asked = user.get(crud(ALBUM, album) + "?with=tracks").status_code
                html = _html(user, page(ALBUM, "detail-page", album))
                seen[email] = (asked, "<h2>Tracks (1)</h2>" in html, "Add one" in html)
        answers[framework] = seen
    seen = _same(answers)
    # Without view_any on tracks: 403 for ?with=, no list on the page.
    assert seen["listener@example.com"] == (403, False, False)
    # Allowed to list tracks, not to create one: the list without "Add one".
    assert seen["browser@example.com"] == (200, True, False)
