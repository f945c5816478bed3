"""Unique groups and server defaults (issue 22), on both frameworks.

One project per framework is generated from ``unique/shelf.yaml`` (a Book's author and
title are unique together, and so are its optional ISBN prefix and number; the
database fills in its ``added_on`` date and ``created_at`` time) and served on
SQLite, then on PostgreSQL; each test runs against both frameworks. Create, update
and CSV import answer the same 422 for a duplicate group; a group with a null member
never collides; a create that leaves out a server-filled field answers the value the
database chose.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import ExitStack

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, postgres_database, run_panelforge

from generator.manifest.load import load_manifest

from .support import (
    HTML,
    PASSWORD,
    Api,
    Deployment,
    crud,
    new_marker,
    page,
    page_token,
)

HERE = REPO / "tests" / "conformance" / "unique"
MANIFEST = load_manifest(HERE / "shelf.yaml")
AUTHOR, BOOK = MANIFEST.resource("Author"), MANIFEST.resource("Book")
ADMIN = "admin@example.com"
TAKEN = "The Author and Title have already been taken."
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)],
)
def apis(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Api]]:
    """A logged-in client of each framework's served project, on one database kind."""
    database, servers, clients = request.param, [], []
    with ExitStack() as stack:
        try:
            for framework in FRAMEWORKS:
                folder = tmp_path_factory.mktemp(f"unique-{framework}")
                project = folder / "project"
                result = run_panelforge(
                    "generate", str(HERE / "shelf.yaml"), "-o", str(project),
                    "--framework", framework, "--quiet",
                )  # fmt: skip
                assert result.returncode == 0, result.stderr
                url = (
                    f"sqlite:///{folder / 'shelf.db'}"
                    if database == "sqlite"
                    else stack.enter_context(postgres_database())
                )
                server = SERVERS[framework](project, url)
                servers.append(server)
                server.migrate()
                server.create_user(ADMIN, PASSWORD)
                server.start()
                deployment = Deployment(framework, "shelf", database, MANIFEST, server)
                api = Api(deployment)
                api.log_in(ADMIN, PASSWORD)
                clients.append(api)
            yield clients
        finally:
            for api in clients:
                api.client.close()
            for server in servers:
                server.stop()


def _book(api: Api, **body: object) -> dict[str, object]:
    response = api.post(crud(BOOK), json=body)
    assert response.status_code == 201, response.text
    return response.json()["data"]


def test_a_duplicate_group_is_422_on_create_and_update(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        author = api.post(crud(AUTHOR), json={"name": "Le Guin"}).json()["data"]["id"]
        title = new_marker()
        _book(api, author=author, title=title)
        other = _book(api, author=author, title=title + " II")
        created = api.post(crud(BOOK), json={"author": author, "title": title})
        updated = api.request("PATCH", crud(BOOK, other["id"]), json={"title": title})
        for response in (created, updated):
            assert response.status_code == 422, response.text
            assert response.json()["errors"] == {"author": [TAKEN]}
        answers.append((created.json(), updated.json()))
    assert answers[0] == answers[1]


def test_a_form_repeating_a_group_comes_back_through_its_page(
    apis: list[Api],
) -> None:
    """Post/redirect/get (issue 16): the refused form is a 303 to its form page,
    which shows the error beside the field and the values sent, alike on both."""
    pages = []
    for api in apis:
        author = api.post(crud(AUTHOR), json={"name": "Tolkien"}).json()["data"]["id"]
        title = f"Taken {len(pages)}"
        _book(api, author=author, title=title)
        token = page_token(api.client, page(BOOK, "form-page"))
        form = {"_token": token, "author": str(author), "title": title}
        refused = api.post(crud(BOOK), data=form, headers=HTML)
        assert refused.status_code == 303, refused.text[:2000]
        assert refused.headers["location"] == page(BOOK, "form-page")
        shown = api.get(refused.headers["location"], headers=HTML).text
        assert f'<p class="error">{TAKEN}</p>' in shown
        assert f'value="{title}"' in shown
        pages.append(_TOKEN.sub(r"\1…", shown.replace(title, "…")))
    assert pages[0] == pages[1]


def test_null_members_never_collide(apis: list[Api]) -> None:
    for api in apis:
        author = api.post(crud(AUTHOR), json={"name": "Butler"}).json()["data"]["id"]
        for n in (1, 2):  # the same number, no prefix: no collision
            _book(api, author=author, title=f"{new_marker()} {n}", number=7)
        prefix = new_marker()[:10]
        _book(api, author=author, title=new_marker(), isbn_prefix=prefix, number=7)
        again = api.post(
            crud(BOOK),
            json={"author": author, "title": new_marker(), "isbn_prefix": prefix,
                  "number": 7},
        )  # fmt: skip
        assert again.status_code == 422, again.text
        assert again.json()["errors"] == {
            "isbn_prefix": ["The Isbn prefix and Number have already been taken."]
        }


def test_an_import_repeating_a_group_names_the_row(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        author = api.post(crud(AUTHOR), json={"name": "Jemisin"}).json()["data"]["id"]
        title = new_marker()
        _book(api, author=author, title=title)
        response = api.post(
            f"/admin/resource/{BOOK.uri}/handler/import",
            content=f"author,title\n{author},{title} new\n{author},{title}\n",
            headers={"Content-Type": "text/csv"},
        )
        assert response.status_code == 422, response.text
        assert response.json()["errors"] == {"row 3": [TAKEN]}
        answers.append(response.json())
        params = {"filter[title]": f"{title} new"}
        assert api.get(crud(BOOK), params=params).json()["data"] == []  # nothing
    assert answers[0] == answers[1]


def test_the_database_fills_in_server_defaults(apis: list[Api]) -> None:
    spec = apis[0].get("/oag.json").json()["components"]["schemas"]
    create = next(v for k, v in spec.items() if k.startswith("Book") and "Create" in k)
    assert "added_on" in create["properties"]
    assert "added_on" not in create.get("required", [])
    for api in apis:
        author = api.post(crud(AUTHOR), json={"name": "Tolkien"}).json()["data"]["id"]
        made = _book(api, author=author, title=new_marker())
        today = datetime.datetime.now(datetime.UTC).date()
        assert made["added_on"] in {str(today - datetime.timedelta(days=1)), str(today)}
        created = datetime.datetime.fromisoformat(made["created_at"])
        moment = datetime.datetime.now(datetime.UTC)
        assert abs((moment - created).total_seconds()) < 60, made
        assert api.get(crud(BOOK, made["id"])).json() == made
        given = _book(api, author=author, title=new_marker(), added_on="2001-02-03")
        assert given["added_on"] == "2001-02-03"
        # A form's empty date input leaves the field out: the database fills it in.
        form = {"author": str(author), "title": new_marker(), "added_on": ""}
        posted = api.post(crud(BOOK), data=form)
        assert posted.status_code == 201, posted.text
        assert posted.json()["data"]["added_on"] == made["added_on"]


def test_a_race_for_the_same_group_is_one_201_and_422s(apis: list[Api]) -> None:
    for api in apis:
        author = api.post(crud(AUTHOR), json={"name": "Racer"}).json()["data"]["id"]
        body = {"author": author, "title": new_marker()}
        with ThreadPoolExecutor(max_workers=6) as pool:
            sent = [pool.submit(api.post, crud(BOOK), json=body) for _ in range(6)]
            answers = [future.result() for future in sent]
        statuses = sorted(a.status_code for a in answers)
        assert statuses == [201] + [422] * 5, [a.text for a in answers]
        for answer in answers:
            if answer.status_code == 422:
                assert answer.json()["errors"] == {"author": [TAKEN]}
