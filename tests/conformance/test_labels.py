"""Records named by their resource's ``display`` on every page, on both frameworks.

One project per framework is generated from ``labels/people.yaml`` (an Author named
``"{last_name}, {first_name}"``, a Book ``"{title} ({published_on})"`` whose date may be
null, a Review by its ``stars``) and served on SQLite; both servers run at once, so
each page is compared between them byte for byte (CSRF tokens aside).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html import escape
from typing import Any

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, run_panelforge

from generator.manifest.load import load_manifest

from .support import HTML, PASSWORD, Api, Deployment, crud, page

HERE = REPO / "tests" / "conformance" / "labels"
MANIFEST = load_manifest(HERE / "people.yaml")
AUTHOR, BOOK, REVIEW = (MANIFEST.resource(n) for n in ("Author", "Book", "Review"))
ADMIN = "admin@example.com"
_TOKEN = re.compile(r'(name="_token" value="|name="csrf-token" content=")[^"]*"')


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Both frameworks' projects, served, each with the same records made."""
    servers, made = [], {}
    try:
        for framework in FRAMEWORKS:
            folder = tmp_path_factory.mktemp(f"labels-{framework}")
            project = folder / "project"
            result = run_panelforge(
                "generate", str(HERE / "people.yaml"), "-o", str(project),
                "--framework", framework, "--quiet",
            )  # fmt: skip
            assert result.returncode == 0, result.stderr
            server = SERVERS[framework](project, f"sqlite:///{folder / 'people.db'}")
            servers.append(server)
            server.migrate()
            server.create_user(ADMIN, PASSWORD)
            server.start()
        for server in servers:
            deployment = Deployment(
                server.framework, "people", "sqlite", MANIFEST, server
            )
            made[server.framework] = _records(deployment)
        yield made
    finally:
        for records in made.values():
            records["api"].client.close()
        for server in servers:
            server.stop()


def _records(deployment: Deployment) -> dict[str, Any]:
    """The records every test reads: two authors, two books, a review."""
    api = Api(deployment)
    api.log_in(ADMIN, PASSWORD)

    def made(resource: Any, body: dict[str, Any]) -> Any:
        response = api.post(crud(resource), json=body)
        assert response.status_code == 201, response.text
        return response.json()["data"]["id"]

    herbert = made(AUTHOR, {"first_name": "Frank", "last_name": "Herbert"})
    odd = made(AUTHOR, {"first_name": "<b>Ann</b>", "last_name": "Zed & Co"})
    dune = made(
        BOOK, {"title": "Dune", "published_on": "1965-08-01", "author": herbert}
    )
    draft = made(BOOK, {"title": "Draft", "published_on": None, "author": odd})
    review = made(REVIEW, {"verdict": "Great", "stars": 5, "book": dune})
    keys = {"herbert": herbert, "odd": odd, "dune": dune, "draft": draft}
    return {"api": api, "keys": {**keys, "review": review}}


def _html(records: dict[str, Any], url: str) -> str:
    response = records["api"].get(url, headers=HTML)
    assert response.status_code == 200, response.text
    return str(response.text)


def _option(key: Any, label: str) -> str:
    # The key on the option's second line tells records of equal names apart.
    text = escape(label, quote=False)
    return f'<option value="{key}">{text} · #{key}</option>'


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_pickers_offer_records_by_their_display(
    served: dict[str, Any], framework: str
) -> None:
    records = served[framework]
    keys = records["keys"]
    form = _html(records, page(BOOK, "form-page"))
    herbert = _option(keys["herbert"], "Herbert, Frank")
    odd = _option(keys["odd"], "Zed & Co, <b>Ann</b>")
    assert herbert in form and odd in form
    assert form.index(herbert) < form.index(odd)  # in the order of the display
    # The book picker: a null date shows as nothing.
    reviews = _html(records, page(REVIEW, "form-page"))
    assert _option(keys["dune"], "Dune (1965-08-01)") in reviews
    assert _option(keys["draft"], "Draft ()") in reviews
    # The list's filter on the relation offers the same labels.
    assert herbert in _html(records, page(BOOK, "index-page"))


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_pages_name_the_record_and_its_relations(
    served: dict[str, Any], framework: str
) -> None:
    records = served[framework]
    keys = records["keys"]
    detail = _html(records, page(BOOK, "detail-page", keys["dune"]))
    assert "<h1>Book Dune (1965-08-01)</h1>" in detail
    assert "<title>Book Dune (1965-08-01) · People admin</title>" in detail
    author = page(AUTHOR, "detail-page", keys["herbert"])
    assert f'<a href="{author}">Herbert, Frank</a>' in detail
    edit = _html(records, page(AUTHOR, "form-page", keys["odd"]))
    assert "<h1>Edit Author Zed &amp; Co, &lt;b&gt;Ann&lt;/b&gt;</h1>" in edit
    crumbs = (
        f'<p class="breadcrumbs"><a href="{page(AUTHOR, "index-page")}">Authors</a> › '
        f'<a href="{page(AUTHOR, "detail-page", keys["odd"])}">'
        "Zed &amp; Co, &lt;b&gt;Ann&lt;/b&gt;</a></p>"
    )
    assert crumbs in edit
    review = _html(records, page(REVIEW, "detail-page", keys["review"]))
    assert "<h1>Review 5</h1>" in review  # a single field, here not text
    books = _html(records, page(BOOK, "index-page"))
    assert f'<a href="{page(BOOK, "detail-page", keys["draft"])}">' in books
    assert f'<a href="{page(AUTHOR, "detail-page", keys["odd"])}">Zed' in books


def test_both_frameworks_serve_the_same_pages(served: dict[str, Any]) -> None:
    django, fastapi = served["django"], served["fastapi"]
    assert django["keys"] == fastapi["keys"]
    keys = fastapi["keys"]
    urls = [
        page(BOOK, "form-page"),
        page(BOOK, "index-page"),
        page(BOOK, "detail-page", keys["dune"]),
        page(AUTHOR, "form-page", keys["odd"]),
        page(REVIEW, "form-page", keys["review"]),
    ]
    for url in urls:
        pages = [_TOKEN.sub(r"\1…", _html(s, url)) for s in (django, fastapi)]
        assert pages[0] == pages[1], url
