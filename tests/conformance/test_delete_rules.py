"""Delete rules (``on_delete``): restrict answers 409 naming what refers, cascade
takes the referring records along (recursively), set_null clears the reference.

One project per framework is generated from ``delete_rules/rules.yaml`` and served on
SQLite (and PostgreSQL and MariaDB when they answer); both servers run at once and get
the same requests in the same order, so their answers (keys included) are compared
whole.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any
from urllib.parse import urlencode

import pytest
from conftest import (
    FRAMEWORKS,
    MARIADB_PARAM,
    REPO,
    SERVERS,
    mariadb_database,
    postgres_database,
    run_panelforge,
)

from generator.manifest.load import load_manifest

from .support import HTML, PASSWORD, Api, Database, Deployment, crud, page

HERE = REPO / "tests" / "conformance" / "delete_rules"
MANIFEST = load_manifest(HERE / "rules.yaml")
PUBLISHER, AUTHOR, EDITOR = (
    MANIFEST.resource(n) for n in ("Publisher", "Author", "Editor")
)
BOOK, REVIEW, QUOTE = (MANIFEST.resource(n) for n in ("Book", "Review", "Quote"))
CATEGORY, SERIES = MANIFEST.resource("Category"), MANIFEST.resource("Series")
ADMIN = "admin@example.com"
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')


@pytest.fixture(
    scope="module",
    params=[
        "sqlite",
        pytest.param("postgres", marks=pytest.mark.postgres),
        MARIADB_PARAM,
    ],
)
def apis(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[list[Api]]:
    """A logged-in client of each framework's served project, on one database kind."""
    database, servers, clients = request.param, [], []
    with ExitStack() as stack:
        try:
            for framework in FRAMEWORKS:
                folder = tmp_path_factory.mktemp(f"rules-{framework}")
                project = folder / "project"
                result = run_panelforge(
                    "generate", str(HERE / "rules.yaml"), "-o", str(project),
                    "--framework", framework, "--quiet",
                )  # fmt: skip
                assert result.returncode == 0, result.stderr
                url = (
                    f"sqlite:///{folder / 'rules.db'}"
                    if database == "sqlite"
                    else stack.enter_context(_server_database(database))
                )
                server = SERVERS[framework](project, url)
                servers.append(server)
                server.migrate()
                server.create_user(ADMIN, PASSWORD)
                server.start()
                deployment = Deployment(framework, "rules", database, MANIFEST, server)
                api = Api(deployment)
                api.log_in(ADMIN, PASSWORD)
                clients.append(api)
            yield clients
        finally:
            for api in clients:
                api.client.close()
            for server in servers:
                server.stop()


def _server_database(database: str) -> Any:
    return postgres_database() if database == "postgres" else mariadb_database()


def _made(api: Api, resource: Any, **body: Any) -> Any:
    response = api.post(crud(resource), json=body)
    assert response.status_code == 201, response.text
    return response.json()["data"]["id"]


def _exists(api: Api, resource: Any, key: Any) -> bool:
    status = api.get(crud(resource, key)).status_code
    assert status in (200, 404)
    return status == 200


def _answer(response: Any) -> tuple[int, Any]:
    return response.status_code, response.json()


def _same(answers: list[Any]) -> Any:
    """The frameworks' answers, which must be the same."""
    assert answers[0] == answers[1], answers
    return answers[0]


def test_restrict_refuses_with_409_naming_what_refers(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        publisher = _made(api, PUBLISHER, name="Ace")
        author = _made(api, AUTHOR, name="Le Guin")
        books = [
            _made(api, BOOK, title=f"Book {n}", publisher=publisher, author=author)
            for n in range(3)
        ]
        refused = api.request("DELETE", crud(AUTHOR, author))
        assert all(_exists(api, BOOK, key) for key in books)
        assert _exists(api, AUTHOR, author)
        # One reference: the singular.
        lone = _made(api, AUTHOR, name="Lone")
        _made(api, BOOK, title="Alone", publisher=publisher, author=lone)
        single = api.request("DELETE", crud(AUTHOR, lone))
        answers.append((author, lone, _answer(refused), _answer(single)))
    author, lone, refused, single = _same(answers)
    assert refused == (
        409,
        {
            "message": "Author Le Guin cannot be deleted: 3 Books refer to it.",
            "references": [{"resource": BOOK.uri, "label": "Books", "count": 3}],
        },
    )
    assert single[1]["message"] == "Author Lone cannot be deleted: 1 Book refers to it."
    assert single[1]["references"] == [
        {"resource": BOOK.uri, "label": "Book", "count": 1}
    ]


def test_cascade_deletes_the_referring_records_and_theirs(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        publisher = _made(api, PUBLISHER, name="Gollancz")
        books = [_made(api, BOOK, title=f"G{n}", publisher=publisher) for n in range(2)]
        reviews = [_made(api, REVIEW, text="Fine", book=key) for key in books]
        other = _made(api, PUBLISHER, name="Tor")
        kept = _made(api, BOOK, title="Kept", publisher=other)
        deleted = api.request("DELETE", crud(PUBLISHER, publisher))
        gone = [
            not _exists(api, resource, key)
            for resource, keys in ((BOOK, books), (REVIEW, reviews))
            for key in keys
        ]
        answers.append((_answer(deleted), gone, _exists(api, BOOK, kept)))
    deleted, gone, kept = _same(answers)
    assert deleted[0] == 200, deleted
    assert all(gone) and kept


def _history(api: Api, resource: Any, keys: list[Any]) -> list[tuple[str, Any, str]]:
    """``(action, changes, login)`` of the history rows of these records, by key."""
    database = Database(api.deployment.server.database_url)
    named = ", ".join(f"'{key}'" for key in keys)
    found = database.execute(
        "SELECT record_key, action, changes, user_login FROM panel_history"
        f" WHERE resource = '{resource.uri}' AND record_key IN ({named})"
        " ORDER BY id"
    )
    return [(action, json.loads(changes), login) for _, action, changes, login in found]


def test_what_the_rules_delete_or_clear_is_in_the_history(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        publisher = _made(api, PUBLISHER, name="Ace")
        editor = _made(api, EDITOR, name="Wollheim")
        book = _made(api, BOOK, title="Cascaded", publisher=publisher)
        review = _made(api, REVIEW, text="Gone too", book=book)
        kept = _made(api, BOOK, title="Kept", publisher=_made(api, PUBLISHER, name="X"))
        assert api.request(
            "PATCH", crud(BOOK, kept), json={"editor": editor}
        ).is_success
        assert api.request("DELETE", crud(PUBLISHER, publisher)).status_code == 200
        assert api.request("DELETE", crud(EDITOR, editor)).status_code == 200
        answers.append(
            (
                _history(api, BOOK, [book])[-1],
                _history(api, REVIEW, [review])[-1],
                _history(api, BOOK, [kept])[-1],
            )
        )
    book, review, kept = _same(answers)
    assert book == ("deleted", {}, ADMIN)
    assert review == ("deleted", {}, ADMIN)
    assert kept[0] == "updated" and kept[2] == ADMIN
    assert list(kept[1]) == ["editor"] and kept[1]["editor"][1] is None


def test_a_restricted_descendant_refuses_the_whole_cascade(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        publisher = _made(api, PUBLISHER, name="Orbit")
        book = _made(api, BOOK, title="Quoted", publisher=publisher)
        review = _made(api, REVIEW, text="Quotable", book=book)
        _made(api, QUOTE, text="A line", review=review)
        refused = api.request("DELETE", crud(PUBLISHER, publisher))
        still = [_exists(api, r, k) for r, k in ((PUBLISHER, publisher), (BOOK, book))]
        answers.append(
            (publisher, _answer(refused), still + [_exists(api, REVIEW, review)])
        )
    publisher, refused, still = _same(answers)
    assert refused == (
        409,
        {
            "message": ("Publisher Orbit cannot be deleted: 1 Quote refers to it."),
            "references": [{"resource": QUOTE.uri, "label": "Quote", "count": 1}],
        },
    )
    assert all(still)


def test_set_null_clears_the_reference(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        publisher = _made(api, PUBLISHER, name="Baen")
        editor = _made(api, EDITOR, name="Campbell")
        book = _made(api, BOOK, title="Edited", publisher=publisher, editor=editor)
        deleted = api.request("DELETE", crud(EDITOR, editor))
        answers.append((deleted.status_code, api.get(crud(BOOK, book)).json()))
    status, book = _same(answers)
    assert status == 200 and book["editor"] is None and book["title"] == "Edited"


def test_a_self_reference_cascades_down_the_tree(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        root = _made(api, CATEGORY, name="Fiction")
        child = _made(api, CATEGORY, name="SF", parent=root)
        grandchild = _made(api, CATEGORY, name="Space opera", parent=child)
        sibling = _made(api, CATEGORY, name="Poetry")
        deleted = api.request("DELETE", crud(CATEGORY, root))
        left = [_exists(api, CATEGORY, k) for k in (root, child, grandchild, sibling)]
        answers.append((deleted.status_code, left))
    assert _same(answers) == (200, [False, False, False, True])


def test_mass_delete_is_all_or_nothing(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        publisher = _made(api, PUBLISHER, name="Mass")
        free = _made(api, AUTHOR, name="Free")
        held = _made(api, AUTHOR, name="Held")
        _made(api, BOOK, title="Holds", publisher=publisher, author=held)
        refused = api.request("DELETE", crud(AUTHOR), json={"ids": [free, held]})
        both = [_exists(api, AUTHOR, free), _exists(api, AUTHOR, held)]
        # Cascades follow in the same transaction.
        doomed = [_made(api, PUBLISHER, name=f"Doomed {n}") for n in range(2)]
        books = [_made(api, BOOK, title="D", publisher=key) for key in doomed]
        done = api.request("DELETE", crud(PUBLISHER), json={"ids": doomed})
        gone = [not _exists(api, BOOK, key) for key in books]
        answers.append((_answer(refused), both, _answer(done), gone))
    refused, both, done, gone = _same(answers)
    assert refused == (
        409,
        {
            "message": "Nothing was deleted: 1 Book refers to some of these.",
            "references": [{"resource": BOOK.uri, "label": "Book", "count": 1}],
        },
    )
    assert both == [True, True]
    assert done == (
        200,
        {"deleted": 2} | {k: v for k, v in done[1].items() if k != "deleted"},
    )
    assert all(gone)


def _form_delete(api: Api, resource: Any, key: Any, **fields: str) -> Any:
    """Delete from the pages as a browser without JavaScript does."""
    data = {
        "_token": api.token or "",
        "_method": "DELETE",
        "_redirect": page(resource, "index-page"),
        **fields,
    }
    return api.post(crud(resource, key), data=data, headers=HTML)


_FLASH = re.compile(r'<p class="flash flash-error" role="status">([^<]*)</p>')


def _page(response: Any) -> str:
    return _TOKEN.sub(r"\1…", response.text)


def test_pages_ask_before_a_cascade_and_show_a_refusal(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        publisher = _made(api, PUBLISHER, name="Asked")
        books = [_made(api, BOOK, title=f"A{n}", publisher=publisher) for n in range(2)]
        reviews = [_made(api, REVIEW, text="Ok", book=key) for key in books]
        asked = _form_delete(api, PUBLISHER, publisher)
        kept = [_exists(api, BOOK, key) for key in books] + [
            _exists(api, PUBLISHER, publisher)
        ]
        confirmed = _form_delete(api, PUBLISHER, publisher, _confirmed="1")
        gone = [not _exists(api, REVIEW, key) for key in reviews] + [
            not _exists(api, PUBLISHER, publisher)
        ]
        # A delete that takes nothing along is asked too (no JavaScript needed).
        alone = _made(api, PUBLISHER, name="Alone")
        plain = _form_delete(api, PUBLISHER, alone)
        waited = _exists(api, PUBLISHER, alone)
        direct = _form_delete(api, PUBLISHER, alone, _confirmed="1")
        # A refused one shows the 409's message; nothing is deleted.
        author = _made(api, AUTHOR, name="Held")
        other = _made(api, PUBLISHER, name="Other")
        _made(api, BOOK, title="Holds", publisher=other, author=author)
        refused = _form_delete(api, AUTHOR, author)
        answers.append(
            (
                publisher,
                author,
                (asked.status_code, _page(asked)),
                kept,
                (confirmed.status_code, confirmed.headers.get("location")),
                gone,
                (plain.status_code, _page(plain), waited),
                (direct.status_code, direct.headers.get("location")),
                (refused.status_code, _page(refused)),
                _exists(api, AUTHOR, author),
            )
        )
    publisher, author, asked, kept, confirmed, gone, plain, direct, refused, held = (
        _same(answers)
    )
    status, html = asked
    assert status == 200, html
    assert "<h1>Delete Publisher Asked?</h1>" in html
    assert f'action="{crud(PUBLISHER, publisher)}"' in html
    assert f'<a href="{page(BOOK, "index-page")}">Books</a>: 2' in html
    assert f'<a href="{page(REVIEW, "index-page")}">Reviews</a>: 2' in html
    assert 'name="_confirmed" value="1"' in html and 'name="_token"' in html
    assert all(kept)
    assert confirmed == (303, page(PUBLISHER, "index-page"))
    assert all(gone)
    status, html, waited = plain
    assert status == 200 and waited, html
    assert "<h1>Delete Publisher Alone?</h1>" in html
    assert "<p>This cannot be undone.</p>" in html and "Yes, delete</button>" in html
    assert direct == (303, page(PUBLISHER, "index-page"))
    status, html = refused
    assert status == 409
    assert "Author Held cannot be deleted: 1 Book refers to it." in html
    # What refers is linked, so the page is no dead end.
    assert f'<li><a href="{page(BOOK, "index-page")}">Book</a>: 1</li>' in html
    assert held


def _form_mass_delete(api: Api, resource: Any, keys: list[Any], **fields: str) -> Any:
    """The index page's "Delete selected", as a browser without JavaScript sends it."""
    data: list[tuple[str, Any]] = [
        ("_token", api.token or ""),
        ("_method", "DELETE"),
        ("_redirect", page(resource, "index-page")),
        *(("ids[]", str(key)) for key in keys),
        *fields.items(),
    ]
    form = {**HTML, "Content-Type": "application/x-www-form-urlencoded"}
    return api.post(crud(resource), content=urlencode(data), headers=form)


def test_the_index_pages_mass_delete_asks_too(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        chosen = [_made(api, PUBLISHER, name=f"Chosen {n}") for n in range(2)]
        books = [_made(api, BOOK, title="C", publisher=key) for key in chosen]
        asked = _form_mass_delete(api, PUBLISHER, chosen)
        kept = [_exists(api, BOOK, key) for key in books]
        confirmed = _form_mass_delete(api, PUBLISHER, chosen, _confirmed="1")
        gone = [not _exists(api, BOOK, key) for key in books]
        answers.append(
            (
                chosen,
                (asked.status_code, _page(asked)),
                kept,
                (confirmed.status_code, confirmed.headers.get("location")),
                gone,
            )
        )
    chosen, asked, kept, confirmed, gone = _same(answers)
    status, html = asked
    assert status == 200, html
    assert "<h1>Delete 2 Publishers?</h1>" in html
    assert f'<a href="{page(BOOK, "index-page")}">Books</a>: 2' in html
    for n, key in enumerate(chosen):
        assert f'<input type="hidden" name="ids[]" value="{key}">' in html
        detail = page(PUBLISHER, "detail-page", key)
        assert f'<li><a href="{detail}">Chosen {n}</a></li>' in html
    assert all(kept) and all(gone)
    assert confirmed == (303, page(PUBLISHER, "index-page"))


def test_pages_say_why_there_is_nothing_to_ask(apis: list[Api]) -> None:
    answers = []
    for api in apis:
        said = []
        for keys in ([], [987654321]):  # nothing ticked; records gone meanwhile
            answer = _form_mass_delete(api, PUBLISHER, keys)
            index = api.get(answer.headers["location"], headers=HTML).text
            said.append((answer.status_code, _FLASH.findall(index)))
        binned = _made(api, SERIES, name="Binned")
        trash = _form_delete(api, SERIES, binned)
        answers.append((said, trash.status_code, _page(trash)))
    said, status, html = _same(answers)
    assert said == [
        (303, ["Tick the records to delete first."]),
        (303, ["Nothing was deleted: the selected records no longer exist."]),
    ]
    # A resource with a trash asks to move the record there.
    assert status == 200
    assert "<h1>Move Series Binned to the trash?</h1>" in html
    assert "It goes to the trash, where it can be restored." in html


def test_a_trash_never_refuses_but_deleting_for_good_follows_the_rule(
    apis: list[Api],
) -> None:
    answers = []
    for api in apis:
        publisher = _made(api, PUBLISHER, name="Trashy")
        series = _made(api, SERIES, name="Earthsea")
        book = _made(api, BOOK, title="Tehanu", publisher=publisher, series=series)
        trashed = api.request("DELETE", crud(SERIES, series))
        forced = api.request("DELETE", f"{crud(SERIES, series)}/force")
        kept = api.get(crud(BOOK, book)).json()["series"]
        answers.append((series, _answer(trashed)[0], _answer(forced), kept))
    series, trashed, forced, kept = _same(answers)
    assert trashed == 200 and kept == series
    assert forced == (
        409,
        {
            "message": "Series Earthsea cannot be deleted: 1 Book refers to it.",
            "references": [{"resource": BOOK.uri, "label": "Book", "count": 1}],
        },
    )
