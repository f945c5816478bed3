"""``soft_delete: true``: deletes go to a trash, which restores or deletes for good.

One project per framework is generated from ``trash/shelf.yaml`` (authors with a
trash, books referring to them, a ``clerk`` role without the trash's abilities) and
served on SQLite; both servers run at once, so the trash's page and JSON are compared
between them (CSRF tokens aside).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, run_panelforge

from generator.manifest.load import load_manifest

from .support import HTML, PASSWORD, Api, Deployment, crud, page

HERE = REPO / "tests" / "conformance" / "trash"
MANIFEST = load_manifest(HERE / "shelf.yaml")
AUTHOR, BOOK = MANIFEST.resource("Author"), MANIFEST.resource("Book")
ADMIN, CLERK = "admin@example.com", "clerk@example.com"
TRASH = f"/admin/resource/{AUTHOR.uri}/trash"
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Both frameworks' projects, served, each with an admin and a clerk logged in."""
    servers, clients = [], {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"trash-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(HERE / "shelf.yaml"), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            server = SERVERS[framework](project, f"sqlite:///{folder / 'shelf.db'}")
            servers.append(server)
            server.migrate()
            server.create_user(ADMIN, PASSWORD)
            server.run_app(
                "create-user", CLERK, "--password-stdin", "--role", "clerk",
                input=PASSWORD + "\n",
            )  # fmt: skip
            server.start()
        for server in servers:
            deployment = Deployment(
                server.framework, "shelf", "sqlite", MANIFEST, server
            )
            admin, clerk = Api(deployment), Api(deployment)
            admin.log_in(ADMIN, PASSWORD)
            clerk.log_in(CLERK, PASSWORD)
            clients[server.framework] = {"admin": admin, "clerk": clerk}
        yield clients
    finally:
        for pair in clients.values():
            for api in pair.values():
                api.client.close()
        for server in servers:
            server.stop()


def _made(api: Api, resource: Any, body: dict[str, Any]) -> Any:
    response = api.post(crud(resource), json=body)
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


def _listed(api: Api, url: str, **params: Any) -> list[Any]:
    response = api.get(url, params=params)
    assert response.status_code == 200, response.text
    return [record["id"] for record in response.json()["data"]]


def _html(api: Api, url: str) -> str:
    response = api.get(url, headers=HTML)
    assert response.status_code == 200, response.text
    return str(response.text)


def _form(api: Api, url: str, **fields: str) -> Any:
    """Submit a page's form as a browser without JavaScript does."""
    data = {"_token": api.token or "", "_redirect": TRASH, **fields}
    return api.post(url, data=data, headers=HTML, follow_redirects=False)


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_delete_moves_to_the_trash_and_back(
    served: dict[str, Any], framework: str
) -> None:
    api: Api = served[framework]["admin"]
    herbert = _made(api, AUTHOR, {"name": "Frank Herbert"})
    _made(api, AUTHOR, {"name": "Ursula Le Guin"})
    dune = _made(api, BOOK, {"title": "Dune", "author": herbert})

    assert api.request("DELETE", crud(AUTHOR, herbert)).status_code == 200
    # Gone from the list, the search, the record's routes and the pickers...
    assert herbert not in _listed(api, crud(AUTHOR))
    assert _listed(api, crud(AUTHOR), search="Herbert") == []
    assert api.get(crud(AUTHOR, herbert)).status_code == 404
    assert api.request("PATCH", crud(AUTHOR, herbert), json={}).status_code == 404
    assert f'<option value="{herbert}">' not in _html(api, page(BOOK, "form-page"))
    exported = api.get(f"/admin/resource/{AUTHOR.uri}/handler/export")
    assert exported.status_code == 200, exported.text
    assert "Ursula Le Guin" in exported.text and "Frank Herbert" not in exported.text
    detail = _html(api, page(BOOK, "detail-page", dune))
    assert "Frank Herbert" not in detail and f"#{herbert}" in detail
    # ...while the book keeps its reference, and the trash lists the author.
    assert api.get(crud(BOOK, dune)).json()["author"] == herbert
    assert herbert in _listed(api, TRASH)
    trash_page = _html(api, TRASH)
    assert "Frank Herbert" in trash_page
    assert f'action="{crud(AUTHOR, herbert)}/restore"' in trash_page
    assert f'href="{TRASH}"' in _html(api, page(AUTHOR, "index-page"))

    restored = api.post(f"{crud(AUTHOR, herbert)}/restore")
    assert restored.status_code == 200, restored.text
    assert restored.json()["name"] == "Frank Herbert"
    assert herbert in _listed(api, crud(AUTHOR))
    assert herbert not in _listed(api, TRASH)
    # Only a record in the trash is restored or deleted for good.
    assert api.post(f"{crud(AUTHOR, herbert)}/restore").status_code == 404
    assert api.request("DELETE", f"{crud(AUTHOR, herbert)}/force").status_code == 404


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_mass_delete_fills_the_trash_and_its_forms_empty_it(
    served: dict[str, Any], framework: str
) -> None:
    api: Api = served[framework]["admin"]
    keys = [_made(api, AUTHOR, {"name": f"Mass {n}"}) for n in (1, 2)]
    gone = api.request("DELETE", crud(AUTHOR), json={"ids": keys})
    assert gone.status_code == 200 and gone.json()["deleted"] == 2, gone.text
    assert set(keys) <= set(_listed(api, TRASH))
    first, second = keys

    answer = _form(api, f"{crud(AUTHOR, first)}/restore")
    assert (answer.status_code, answer.headers["location"]) == (303, TRASH)
    assert first in _listed(api, crud(AUTHOR))
    answer = _form(api, f"{crud(AUTHOR, second)}/force", _method="DELETE")
    assert (answer.status_code, answer.headers["location"]) == (303, TRASH)
    assert second not in _listed(api, TRASH) + _listed(api, crud(AUTHOR))
    assert api.post(f"{crud(AUTHOR, second)}/restore").status_code == 404


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_restore_and_force_delete_are_abilities_of_their_own(
    served: dict[str, Any], framework: str
) -> None:
    admin, clerk = served[framework]["admin"], served[framework]["clerk"]
    key = _made(admin, AUTHOR, {"name": "Clerk's author"})
    assert clerk.request("DELETE", crud(AUTHOR, key)).status_code == 200
    assert key in _listed(clerk, TRASH)  # the trash needs view_any
    refused = {"message": "This action is unauthorized."}
    for method, url in (("POST", "restore"), ("DELETE", "force")):
        answer = clerk.request(method, f"{crud(AUTHOR, key)}/{url}")
        assert (answer.status_code, answer.json()) == (403, refused)
    trash_page = _html(clerk, TRASH)
    assert "Restore" not in trash_page and "Delete for good" not in trash_page
    assert _form(clerk, f"{crud(AUTHOR, key)}/restore").status_code == 403
    # A resource without soft_delete has no trash.
    assert admin.get(f"/admin/resource/{BOOK.uri}/trash").status_code == 404


_NAV = re.compile(r'<nav class="pagination" aria-label="Pages">(.*?)</nav>', re.S)
_NAV_ITEM = re.compile(
    r'<a href="([^"]*)">([^<]*)</a>|<span( class="current")?[^>]*>([^<]*)</span>'
)


def _page_links(html: str) -> list[tuple[str, str]]:
    """The page links under a page's table: (text, path?query, or "current" / "")."""
    found = _NAV.search(html)
    assert found, "no page links under the table"
    links = []
    for href, link, current, text in _NAV_ITEM.findall(found.group(1)):
        if link:
            url = urlsplit(href.replace("&amp;", "&"))
            links.append((link, f"{url.path}?{url.query}"))
        else:
            links.append((text, "current" if current else ""))
    return links


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_index_and_trash_pages_link_their_pages(
    served: dict[str, Any], framework: str
) -> None:
    api: Api = served[framework]["admin"]
    for n in (1, 2, 3):
        _made(api, AUTHOR, {"name": f"Paged {n}"})
    index = page(AUTHOR, "index-page")
    links = _page_links(_html(api, f"{index}?per_page=1&page=2"))
    assert links[0] == ("‹ Previous", f"{index}?per_page=1&page=1")
    assert ("2", "current") in links and links[-1][0] == "Next ›"
    assert links[-1][1] == f"{index}?per_page=1&page=3"
    trashed = [_made(api, AUTHOR, {"name": f"Binned {n}"}) for n in (1, 2)]
    assert api.request("DELETE", crud(AUTHOR), json={"ids": trashed}).status_code == 200
    links = _page_links(_html(api, f"{TRASH}?per_page=1"))
    assert links[0] == ("‹ Previous", "") and links[1] == ("1", "current")
    assert links[-1] == ("Next ›", f"{TRASH}?per_page=1&page=2")
    assert "pagination" not in _html(api, f"{TRASH}?per_page=100")


def _same_trash(api: Api) -> None:
    """Empty the trash, then put the same two authors in it."""
    for key in _listed(api, TRASH, per_page=100):
        assert api.request("DELETE", f"{crud(AUTHOR, key)}/force").status_code == 200
    keys = [_made(api, AUTHOR, {"name": f"Agreed {n}"}) for n in (1, 2)]
    assert api.request("DELETE", crud(AUTHOR), json={"ids": keys}).status_code == 200


def _without_keys(text: str) -> str:
    """A page or JSON text with its numbers (keys differ between servers) as N."""
    return re.sub(r"\d+", "N", _TOKEN.sub(r"\1…", text))


def test_both_frameworks_serve_the_same_trash(served: dict[str, Any]) -> None:
    # Each server's history depends on which tests ran before on it (the module's
    # servers may be started again between its tests): compare the same contents.
    django, fastapi = served["django"]["admin"], served["fastapi"]["admin"]
    for api in (django, fastapi):
        _same_trash(api)
    bodies = [api.get(TRASH).json() for api in (django, fastapi)]
    for body in bodies:
        assert [r["name"] for r in body["data"]] == ["Agreed 2", "Agreed 1"]
        for record in body["data"]:
            del record["id"]
    assert {
        k: v
        for k, v in bodies[0].items()
        if "url" not in k and k not in ("links", "path")
    } == {
        k: v
        for k, v in bodies[1].items()
        if "url" not in k and k not in ("links", "path")
    }
    assert bodies[0]["data"] == bodies[1]["data"]
    # Messages earlier tests' forms left in a session (redirects not followed) show
    # on the next page: one page each takes them, then the pages are compared.
    for api in (django, fastapi):
        _html(api, TRASH)
    pages = [_without_keys(_html(api, TRASH)) for api in (django, fastapi)]
    assert pages[0] == pages[1]
