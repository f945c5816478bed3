"""The history of changes on both frameworks: every write path leaves one row per
record, in ``panel_history``, and the pages show them alike.

One project per framework is generated from ``history/archive.yaml`` (a password, a
trash, enum labels, a date-time, a decimal, bulk_update, a reader who may view notes
but not members) and served on SQLite. Each test does the same to both and reads
the rows back with SQL: the JSON API, the forms, mass deletes, the trash, imports and
bulk updates; an update that changes nothing writes nothing and a password is never
stored. The detail page and the dashboard show the rows byte for byte alike (CSRF
tokens and the minute aside); ``prune-history`` removes the old ones.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections.abc import Iterator
from typing import Any

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, Server, run_panelforge

from generator.manifest.load import load_manifest

from .support import HTML, PASSWORD, Api, Database, Deployment, crud, page

HERE = REPO / "tests" / "conformance" / "history"
MANIFEST = load_manifest(HERE / "archive.yaml")
MEMBER, NOTE = (MANIFEST.resource(n) for n in ("Member", "Note"))
ADMIN = "admin@example.com"
READER = "reader@example.com"
SECRET = "not-in-the-history-1"
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')
_TIME = re.compile(r"<time>[^<]*</time>")


class Served:
    """One framework's archive: its server, database and logged-in clients."""

    def __init__(self, server: Server, url: str) -> None:
        self.server = server
        self.database = Database(url)
        deployment = Deployment(server.framework, "archive", "sqlite", MANIFEST, server)
        self.admin, self.reader = Api(deployment), Api(deployment)
        self.admin.log_in(ADMIN, PASSWORD)
        self.reader.log_in(READER, PASSWORD)

    def rows(self, resource: Any, key: Any = None) -> list[tuple[Any, ...]]:
        """``(action, key, changes, login)`` of ``resource``'s rows, oldest first."""
        where = f"resource = '{resource.uri}'"
        if key is not None:
            where += f" AND record_key = '{key}'"
        found = self.database.execute(
            "SELECT action, record_key, changes, user_login FROM panel_history"
            f" WHERE {where} ORDER BY id"
        )
        return [(a, k, json.loads(c), login) for a, k, c, login in found]


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Served]]:
    """Both frameworks' archives, served on SQLite."""
    servers: list[Server] = []
    found: dict[str, Served] = {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"history-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(HERE / "archive.yaml"), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            url = f"sqlite:///{folder / 'archive.db'}"
            server = SERVERS[framework](project, url)
            servers.append(server)
            server.migrate()
            server.create_user(ADMIN, PASSWORD)
            server.run_app(
                "create-user", READER, "--role", "reader", "--password-stdin",
                input=PASSWORD,
            )  # fmt: skip
            server.start()
            found[framework] = Served(server, url)
        yield found
    finally:
        for each in found.values():
            each.admin.client.close()
            each.reader.client.close()
        for server in servers:
            server.stop()


def _made(api: Api, resource: Any, **body: Any) -> Any:
    response = api.post(crud(resource), json=body)
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


def _patched(api: Api, resource: Any, key: Any, **body: Any) -> None:
    response = api.request("PATCH", crud(resource, key), json=body)
    assert response.status_code == 200, response.text


def test_the_json_api_writes_a_row_per_change(served: dict[str, Served]) -> None:
    for site in served.values():
        api = site.admin
        key = _made(api, NOTE, title="Dune", price="12.50", due="2026-01-02T03:04:00Z")
        _patched(api, NOTE, key, title="Dune Messiah")
        _patched(api, NOTE, key, title="Dune Messiah", price="12.50")  # no change
        assert api.request("DELETE", crud(NOTE, key)).status_code == 200
        assert api.post(f"{crud(NOTE, key)}/restore").status_code == 200
        assert api.request("DELETE", crud(NOTE, key)).status_code == 200
        assert api.request("DELETE", f"{crud(NOTE, key)}/force").status_code == 200
        rows = site.rows(NOTE, key)
        assert [row[0] for row in rows] == [
            "created", "updated", "trashed", "restored", "trashed", "deleted",
        ]  # fmt: skip
        assert {row[1] for row in rows} == {str(key)}
        assert {row[3] for row in rows} == {ADMIN}
        assert rows[0][2] == {
            "title": [None, "Dune"],
            "status": [None, "draft"],
            "due": [None, "2026-01-02T03:04:00+00:00"],
            "price": [None, "12.50"],
        }
        assert rows[1][2] == {"title": ["Dune", "Dune Messiah"]}
        assert all(row[2] == {} for row in rows[2:])


def test_a_password_is_recorded_as_changed_without_its_value(
    served: dict[str, Served],
) -> None:
    for site in served.values():
        key = _made(
            site.admin, MEMBER, email="ada@example.com", password=SECRET, age=36
        )
        _patched(site.admin, MEMBER, key, password=SECRET + "x")
        _patched(site.admin, MEMBER, key, age=36)  # no change
        rows = site.rows(MEMBER, key)
        assert [(row[0], row[2]) for row in rows] == [
            ("created", {"email": [None, "ada@example.com"], "password": None,
                         "age": [None, 36]}),
            ("updated", {"password": None}),
        ]  # fmt: skip
        stored = site.database.execute("SELECT * FROM panel_history")
        text = repr(stored)
        assert SECRET not in text
        (hashed,) = site.database.execute(
            f"SELECT password FROM {site.database.table_of(MEMBER)} WHERE id = {key}"
        )[0]
        assert hashed and hashed not in text


def test_forms_write_rows_too(served: dict[str, Served]) -> None:
    for site in served.values():
        api = site.admin
        form = {"_token": api.token or "", "title": "Form note", "status": "draft"}
        made = api.post(crud(NOTE), data=form, headers=HTML, follow_redirects=False)
        assert made.status_code == 303, made.text
        (key,) = [
            r[1] for r in site.rows(NOTE) if r[2].get("title") == [None, "Form note"]
        ]
        edit = {**form, "_method": "PUT", "title": "Form note", "status": "done"}
        saved = api.post(
            crud(NOTE, key), data=edit, headers=HTML, follow_redirects=False
        )
        assert saved.status_code == 303, saved.text
        again = api.post(
            crud(NOTE, key), data=edit, headers=HTML, follow_redirects=False
        )
        assert again.status_code == 303, again.text  # the same values: no row
        delete = {"_token": api.token or "", "_method": "DELETE", "_confirmed": "1"}
        gone = api.post(
            crud(NOTE, key), data=delete, headers=HTML, follow_redirects=False
        )
        assert gone.status_code == 303, gone.text
        api.get(gone.headers["location"], headers=HTML)  # shows the messages
        rows = site.rows(NOTE, key)
        assert [(row[0], row[2]) for row in rows][1:] == [
            ("updated", {"status": ["draft", "done"]}),
            ("trashed", {}),
        ]


def test_mass_deletes_imports_and_bulk_updates_write_a_row_per_record(
    served: dict[str, Served],
) -> None:
    for site in served.values():
        api = site.admin
        notes = [_made(api, NOTE, title=f"Bulk {n}") for n in range(3)]
        url = f"/admin/resource/{NOTE.uri}/crud/actions/set_status"
        done = api.post(url, params={"ids[]": notes}, json={"status": "done"})
        assert done.status_code == 200, done.text
        members = [
            _made(api, MEMBER, email=f"m{n}@example.com", password=SECRET)
            for n in range(2)
        ]
        unknown = 10**9
        gone = api.request("DELETE", crud(MEMBER), json={"ids": [*members, unknown]})
        assert gone.status_code == 200, gone.text
        trashed = api.request("DELETE", crud(NOTE), json={"ids": notes[:2]})
        assert trashed.status_code == 200, trashed.text
        text = f"id,title\n,Imported\n{notes[2]},Bulk 2 renamed\n"
        imported = api.post(
            f"/admin/resource/{NOTE.uri}/handler/import",
            content=text,
            headers={"Content-Type": "text/csv"},
        )
        assert imported.status_code == 200, imported.text
        for key in notes:
            actions = [(row[0], row[2]) for row in site.rows(NOTE, key)][1:]
            assert actions[0] == ("updated", {"status": ["draft", "done"]}), key
            if key != notes[2]:
                assert actions[1:] == [("trashed", {})]
        renamed = [(row[0], row[2]) for row in site.rows(NOTE, notes[2])]
        assert renamed[-1] == ("updated", {"title": ["Bulk 2", "Bulk 2 renamed"]})
        for key in members:
            assert [row[0] for row in site.rows(MEMBER, key)] == ["created", "deleted"]
        assert site.rows(MEMBER, unknown) == []
        created = [
            r for r in site.rows(NOTE) if r[2].get("title") == [None, "Imported"]
        ]
        assert len(created) == 1 and created[0][0] == "created"


def _page(api: Api, url: str) -> str:
    response = api.get(url, headers=HTML)
    assert response.status_code == 200, response.text
    return _TIME.sub("<time>…</time>", _TOKEN.sub(r"\1…", response.text))


def _same(pages: dict[str, str]) -> str:
    assert pages["django"] == pages["fastapi"]
    return pages["fastapi"]


def test_the_detail_page_shows_the_history_alike(served: dict[str, Served]) -> None:
    pages = {}
    for framework, site in served.items():
        api = site.admin
        key = _made(api, NOTE, title="Shown", price="1234.5")
        _patched(api, NOTE, key, title="Shown & told", status="done", price="7")
        _patched(api, NOTE, key, due="2026-03-04T05:06:07Z")
        pages[framework] = _page(api, page(NOTE, "detail-page", key))
    html = _same(pages)
    section = html.split('<section class="history box"', 1)[1].split("</section>")[0]
    assert section.count('<li data-action="') == 3
    updated = section.split('data-action="updated"')
    assert "Due: — → 2026-03-04 05:06 UTC" in updated[1]  # newest first
    assert "Title: Shown → Shown &amp; told" in updated[2]
    assert "Status: Draft → Done" in updated[2]
    assert "Price: 1,234.50 → 7.00" in updated[2]
    assert f"updated by {ADMIN}" in section
    assert section.index('data-action="created"') > section.index("Due:")


def test_the_dashboard_lists_recent_changes_the_user_may_view(
    served: dict[str, Served],
) -> None:
    admin_pages, reader_pages = {}, {}
    for framework, site in served.items():
        for n in range(9):
            _made(site.admin, NOTE, title=f"Filler {n}")
        _made(site.admin, MEMBER, email="recent@example.com", password=SECRET)
        key = _made(site.admin, NOTE, title="Recent note")
        admin_pages[framework] = _page(site.admin, "/admin")
        reader_pages[framework] = _page(site.reader, "/admin")
        detail = page(NOTE, "detail-page", key)
        assert f'<a href="{detail}">Recent note</a> created by {ADMIN}' in (
            admin_pages[framework]
        )
    admin, reader = _same(admin_pages), _same(reader_pages)
    recent = admin.split('<section class="recent-changes box"', 1)[1]
    recent = recent.split("</section>", 1)[0]
    assert recent.count("<li ") == 10  # the latest ten
    assert "Recent note" in recent and "recent@example.com" in recent
    shown = reader.split('<section class="recent-changes box"', 1)[1]
    shown = shown.split("</section>", 1)[0]
    assert "Recent note" in shown and shown.count("<li ") == 10
    assert "recent@example.com" not in shown and "Member " not in shown


def _prune(server: Server, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        server.command("prune-history", *args),
        cwd=server.project,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_prune_history_removes_the_rows_older_than_asked(
    served: dict[str, Served],
) -> None:
    for site in served.values():
        key = _made(site.admin, NOTE, title="Old news")
        _patched(site.admin, NOTE, key, title="Old news, updated")
        database = site.database
        database.execute(
            "UPDATE panel_history SET at = '2020-01-01 00:00:00'"
            f" WHERE resource = '{NOTE.uri}' AND record_key = '{key}'"
        )
        before = database.execute("SELECT COUNT(*) FROM panel_history")[0][0]
        for wrong in ("90", "soon", "-3d", "90y"):
            refused = _prune(site.server, f"--older-than={wrong}")
            assert refused.returncode == 2, (wrong, refused.stdout, refused.stderr)
            assert "is not a duration" in refused.stderr, refused.stderr
        done = _prune(site.server, "--older-than", "90d")
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(
            "removed 2 history rows from before "
        ), done.stdout
        assert site.rows(NOTE, key) == []
        after = database.execute("SELECT COUNT(*) FROM panel_history")[0][0]
        assert after == before - 2
        again = _prune(site.server, "--older-than", "90d")
        assert again.stdout.startswith("removed 0 history rows"), again.stdout
