"""Column mapping (issue 22): tables and columns named as an existing database names
them, while everything a user touches keeps the manifest's field names.

One project per framework is generated from ``columns/tunes.yaml`` (PascalCase
``table:`` and ``column:`` on keys, strings, a decimal, a relation and a unique field;
an Artist keeps a trash) and served on SQLite, then on PostgreSQL. Each test drives
both frameworks over HTTP the same way, reads the database directly to see the
PascalCase columns hold the values, and compares the two frameworks' JSON.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, postgres_database, run_panelforge

from generator.manifest.load import load_manifest

from .support import (
    HTML,
    PASSWORD,
    Api,
    Database,
    Deployment,
    crud,
    new_marker,
    page,
    page_token,
)

pytestmark = pytest.mark.e2e

HERE = REPO / "tests" / "conformance" / "columns"
MANIFEST = load_manifest(HERE / "tunes.yaml")
ARTIST, TRACK = MANIFEST.resource("Artist"), MANIFEST.resource("Track")
ADMIN = "admin@example.com"
CSV = {"Content-Type": "text/csv"}
COLUMNS = {
    "Artist": {"ArtistId", "Name", "deleted_at"},
    "Track": {"TrackId", "Name", "TrackCode", "UnitPrice", "ArtistId", "composer"},
}


@dataclass
class Served:
    """One framework's served project and its database."""

    api: Api
    database: Database

    def columns(self, table: str) -> set[str]:
        """The column names of ``table`` as the database has them."""
        if self.database.url.startswith("sqlite:///"):
            rows = self.database.execute(f'PRAGMA table_info("{table}")')
            return {row[1] for row in rows}
        rows = self.database.execute(
            "SELECT column_name FROM information_schema.columns "
            f"WHERE table_schema = current_schema() AND table_name = '{table}'"
        )
        return {row[0] for row in rows}

    def track_row(self, key: int) -> tuple[Any, ...] | None:
        """The stored values of one track, read from its PascalCase columns."""
        rows = self.database.execute(
            'SELECT "Name", "TrackCode", "UnitPrice", "ArtistId", composer '
            f'FROM "Track" WHERE "TrackId" = {int(key)}'
        )
        return rows[0] if rows else None


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Served]]:
    """Each framework's served project, logged in, on one database kind."""
    database, servers, found = request.param, [], []
    with ExitStack() as stack:
        try:
            for framework in FRAMEWORKS:
                folder = tmp_path_factory.mktemp(f"columns-{framework}")
                project = folder / "project"
                result = run_panelforge(
                    "generate", str(HERE / "tunes.yaml"), "-o", str(project),
                    "--framework", framework, "--quiet",
                )  # fmt: skip
                assert result.returncode == 0, result.stderr
                url = (
                    f"sqlite:///{folder / 'tunes.db'}"
                    if database == "sqlite"
                    else stack.enter_context(postgres_database())
                )
                server = SERVERS[framework](project, url)
                servers.append(server)
                server.migrate()
                server.create_user(ADMIN, PASSWORD)
                server.start()
                deployment = Deployment(framework, "tunes", database, MANIFEST, server)
                api = Api(deployment)
                api.log_in(ADMIN, PASSWORD)
                found.append(Served(api, Database(url)))
            yield found
        finally:
            for each in found:
                each.api.client.close()
            for server in servers:
                server.stop()


def _created(api: Api, resource: Any, **body: Any) -> dict[str, Any]:
    response = api.post(crud(resource), json=body)
    assert response.status_code == 201, response.text
    record: dict[str, Any] = response.json()["data"]
    return record


def _listed(api: Api, resource: Any, **params: Any) -> dict[str, Any]:
    response = api.get(crud(resource), params=params)
    assert response.status_code == 200, response.text
    body: dict[str, Any] = response.json()
    return body


def test_the_database_has_the_mapped_columns(served: list[Served]) -> None:
    for each in served:
        for table, columns in COLUMNS.items():
            assert each.columns(table) == columns, each.api.deployment.framework


def test_crud_answers_field_names_and_writes_the_mapped_columns(
    served: list[Served],
) -> None:
    answers = []
    marker = new_marker()
    for each in served:
        api = each.api
        artist = _created(api, ARTIST, name=f"{marker} Miles")
        assert set(artist) == {"id", "name"}
        first = _created(
            api, TRACK, title=f"{marker} So What", code=f"{marker[:8]}-1",
            price="0.99", artist=artist["id"],
        )  # fmt: skip
        second = _created(
            api, TRACK, title=f"{marker} Blue in Green", code=f"{marker[:8]}-2",
            price="1.29", artist=artist["id"], composer="Evans",
        )  # fmt: skip
        assert set(first) == {"id", "title", "code", "price", "artist", "composer"}
        stored = each.track_row(first["id"])
        assert stored is not None
        assert stored[:2] == (f"{marker} So What", f"{marker[:8]}-1")
        assert str(stored[2]) == "0.99" and stored[3] == artist["id"]

        shown = api.get(crud(TRACK, second["id"]))
        assert shown.status_code == 200, shown.text
        patched = api.request(
            "PATCH", crud(TRACK, first["id"]), json={"title": f"{marker} Freddie"}
        )
        assert patched.status_code == 200, patched.text
        assert each.track_row(first["id"])[0] == f"{marker} Freddie"  # type: ignore[index]

        searched = _listed(api, TRACK, search=marker, sort="price")
        filtered = _listed(
            api, TRACK, search=marker, **{"filter[composer]": "Evans", "sort": "-title"}
        )
        by_artist = _listed(
            api, TRACK, **{"filter[artist]": artist["id"], "sort": "artist"}
        )
        assert [r["title"] for r in searched["data"]] == [
            f"{marker} Freddie",
            f"{marker} Blue in Green",
        ]
        assert [r["id"] for r in filtered["data"]] == [second["id"]]
        assert {r["id"] for r in by_artist["data"]} == {first["id"], second["id"]}
        answers.append(
            [shown.json(), patched.json()["data"], searched["data"], filtered["data"]]
        )
    assert answers[0] == answers[1]


def test_cursor_pages_walk_the_mapped_columns(served: list[Served]) -> None:
    pages = []
    marker = new_marker()
    for each in served:
        api = each.api
        artist = _created(api, ARTIST, name=f"{marker} Coltrane")
        for n in range(5):
            _created(
                api, TRACK, title=f"{marker} take {n}", code=f"{marker[:8]}-c{n}",
                price=f"{n}.50", artist=artist["id"],
            )  # fmt: skip
        walked: list[str] = []
        body = _listed(api, TRACK, search=marker, sort="-price", per_page=2, cursor="")
        while True:
            walked += [r["title"] for r in body["data"]]
            if not body["next_cursor"]:
                break
            body = _listed(
                api, TRACK, search=marker, sort="-price", per_page=2,
                cursor=body["next_cursor"],
            )  # fmt: skip
        assert walked == [f"{marker} take {n}" for n in (4, 3, 2, 1, 0)]
        pages.append(walked)
    assert pages[0] == pages[1]


def test_unique_field_and_group_answer_field_names(served: list[Served]) -> None:
    answers = []
    marker = new_marker()
    for each in served:
        api = each.api
        artist = _created(api, ARTIST, name=f"{marker} Monk")
        body = {"title": f"{marker} Misterioso", "code": f"{marker[:8]}-u",
                "price": "2.00", "artist": artist["id"]}  # fmt: skip
        _created(api, TRACK, **body)
        same_code = api.post(crud(TRACK), json={**body, "title": f"{marker} Other"})
        same_group = api.post(crud(TRACK), json={**body, "code": f"{marker[:8]}-v"})
        assert same_code.status_code == 422, same_code.text
        assert list(same_code.json()["errors"]) == ["code"]
        assert same_group.status_code == 422, same_group.text
        assert same_group.json()["errors"] == {
            "artist": ["The Artist and Title have already been taken."]
        }
        answers.append((same_code.json(), same_group.json()))
    assert answers[0] == answers[1]


def test_delete_and_trash_by_the_mapped_key(served: list[Served]) -> None:
    marker = new_marker()
    for each in served:
        api = each.api
        artist = _created(api, ARTIST, name=f"{marker} Dolphy")
        track = _created(
            api, TRACK, title=f"{marker} Hat", code=f"{marker[:8]}-d",
            price="3.00", artist=artist["id"],
        )  # fmt: skip
        deleted = api.request("DELETE", crud(TRACK, track["id"]))
        assert deleted.status_code == 200, deleted.text
        assert each.track_row(track["id"]) is None
        trashed = api.request("DELETE", crud(ARTIST, artist["id"]))
        assert trashed.status_code == 200, trashed.text
        rows = each.database.execute(
            'SELECT deleted_at IS NOT NULL FROM "Artist" '
            f'WHERE "ArtistId" = {int(artist["id"])}'
        )
        assert [bool(r[0]) for r in rows] == [True]
        assert api.get(crud(ARTIST, artist["id"])).status_code == 404


def test_csv_export_and_import_use_field_names(served: list[Served]) -> None:
    exports = []
    marker = new_marker()
    for each in served:
        api = each.api
        artist = _created(api, ARTIST, name=f"{marker} Mingus")
        _created(
            api, TRACK, title=f"{marker} Fables", code=f"{marker[:8]}-e",
            price="4.25", artist=artist["id"],
        )  # fmt: skip
        export = api.get(
            f"/admin/resource/{TRACK.uri}/handler/export",
            params={"search": marker},
        )
        assert export.status_code == 200, export.text
        rows = list(csv.reader(io.StringIO(export.text)))
        assert rows[0] == ["id", "title", "code", "price", "artist", "composer"]
        assert rows[1][1:] == [
            f"{marker} Fables", f"{marker[:8]}-e", "4.25", str(artist["id"]), ""
        ]  # fmt: skip
        kept = 90000 + artist["id"]
        content = (
            "id,title,code,price,artist,composer\n"
            f"{kept},{marker} Imported,{marker[:8]}-i,5.75,{artist['id']},Jazz\n"
        )
        imported = api.post(
            f"/admin/resource/{TRACK.uri}/handler/import", content=content, headers=CSV
        )
        assert imported.status_code == 200, imported.text
        stored = each.track_row(kept)
        assert stored is not None and stored[0] == f"{marker} Imported"
        assert str(stored[2]) == "5.75" and stored[4] == "Jazz"
        # The key sequence moved past the kept key (PostgreSQL's, by its quoted
        # table and PascalCase column).
        after = _created(
            api, TRACK, title=f"{marker} After", code=f"{marker[:8]}-a",
            price="1.00", artist=artist["id"],
        )  # fmt: skip
        assert after["id"] > kept
        exports.append([row[1:] for row in rows])
    assert exports[0] == exports[1]


def test_pages_list_show_and_save_through_the_mapped_columns(
    served: list[Served],
) -> None:
    marker = new_marker()
    for each in served:
        api = each.api
        artist = _created(api, ARTIST, name=f"{marker} Bird")
        track = _created(
            api, TRACK, title=f"{marker} Ornithology", code=f"{marker[:8]}-p",
            price="6.10", artist=artist["id"],
        )  # fmt: skip
        listed = api.get(
            page(TRACK, "index-page"), params={"search": marker}, headers=HTML
        )
        assert listed.status_code == 200, listed.text[:2000]
        assert f"{marker} Ornithology" in listed.text
        assert f"{marker} Bird" in listed.text  # the relation named by its record
        detail = api.get(page(TRACK, "detail-page", track["id"]), headers=HTML)
        assert detail.status_code == 200 and "6.10" in detail.text

        token = page_token(api.client, page(TRACK, "form-page"))
        assert 'name="title"' in api.get(page(TRACK, "form-page"), headers=HTML).text
        form = {"_token": token, "title": f"{marker} Donna Lee",
                "code": f"{marker[:8]}-f", "price": "7.20",
                "artist": str(artist["id"]), "composer": ""}  # fmt: skip
        saved = api.post(crud(TRACK), data=form, headers=HTML)
        assert saved.status_code in (302, 303), saved.text[:2000]
        rows = each.database.execute(
            'SELECT "UnitPrice", composer FROM "Track" '
            f"WHERE \"Name\" = '{marker} Donna Lee'"
        )
        # SQLite keeps a NUMERIC as a number: compared as decimals.
        assert [(Decimal(str(p)), c) for p, c in rows] == [(Decimal("7.20"), None)]


CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"]


def test_chromium_creates_and_edits_a_record_of_mapped_columns(
    served: list[Served],
) -> None:
    sync_api = pytest.importorskip("playwright.sync_api")
    if not CHROMIUM.exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get install chromium")
    marker = new_marker()
    for each in served:
        artist = _created(each.api, ARTIST, name=f"{marker} Parker")
        with sync_api.sync_playwright() as playwright:
            problems = _create_and_edit(playwright, each, artist["id"], marker)
        assert problems == []
        rows = each.database.execute(
            'SELECT "Name", "UnitPrice" FROM "Track" '
            f"WHERE \"TrackCode\" = '{marker[:8]}-b'"
        )
        assert [(n, Decimal(str(p))) for n, p in rows] == [
            (f"{marker} Relaxin", Decimal("8.40"))
        ]


def _create_and_edit(
    playwright: Any, each: Served, artist: int, marker: str
) -> list[str]:
    """In Chromium: log in, create a track through its form, edit it from the index
    page; returns the page errors seen."""
    problems: list[str] = []
    browser = playwright.chromium.launch(
        executable_path=str(CHROMIUM), args=CHROMIUM_ARGS
    )
    tab = browser.new_context(base_url=each.api.deployment.base_url).new_page()
    tab.on("pageerror", lambda error: problems.append(str(error)))
    tab.goto("/admin/login")
    tab.fill("#username", ADMIN)
    tab.fill("#password", PASSWORD)
    tab.click("button[type=submit]")
    tracks = f"/admin/resource/{TRACK.uri}"
    tab.goto(f"{tracks}/form-page")
    tab.fill("#field-title", f"{marker} Confirmation")
    tab.fill("#field-code", f"{marker[:8]}-b")
    tab.fill("#field-price", "8.40")
    tab.select_option("#field-artist", str(artist))
    tab.click("button:has-text('Save')")
    created = tab.locator(".flash-success").inner_text()
    assert re.fullmatch(r".+ “.+” created\.", created), created
    tab.goto(f"{tracks}/index-page?search={marker}")
    row = tab.locator("tr", has_text=f"{marker} Confirmation")
    assert f"{marker} Parker" in row.inner_text()
    row.locator("text=Edit").click()
    tab.fill("#field-title", f"{marker} Relaxin")
    tab.click("button:has-text('Save')")
    saved = tab.locator(".flash-success").inner_text()
    assert re.fullmatch(r".+ “.+” saved\.", saved), saved
    browser.close()
    return problems
