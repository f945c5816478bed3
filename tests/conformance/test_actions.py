"""Actions and ``bulk_update``, over HTTP, the same on both frameworks.

One project per framework is generated from ``actions/shop.yaml`` (a bulk action with
a required field and a confirmation, a row action, one whose function raises, one
without a function, ``bulk_update: [status]``, a role granted one action and one
granted none); the hook files beside it are copied into ``app/hooks/``, as a user
would write them. Servers run on SQLite, PostgreSQL and MariaDB, in session mode
(CSRF applies).
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import pytest
from conftest import (
    FRAMEWORKS,
    SERVERS,
    mariadb_database,
    postgres_database,
    run_panelforge,
)

from generator.manifest.load import load_manifest
from generator.spec.validate import spec_problems

from .support import (
    CSRF_MISMATCH,
    HTML,
    PASSWORD,
    Api,
    Deployment,
    crud,
    page,
    page_token,
)

HERE = Path(__file__).parent / "actions"
MANIFEST = load_manifest(HERE / "shop.yaml")
ORDER = MANIFEST.resource("Order")
ADMIN = "admin@example.com"
USERS = {"clerk@example.com": "clerk", "viewer@example.com": "viewer"}
ACTIONS = f"/admin/resource/{ORDER.uri}/crud/actions"
UNAUTHORIZED = {"message": "This action is unauthorized."}


class Shop:
    """One served shop project and its users' clients."""

    def __init__(self, deployment: Deployment) -> None:
        self.deployment = deployment

    def api(self, email: str = ADMIN) -> Api:
        api = Api(self.deployment)
        api.log_in(email, PASSWORD)
        return api


def serve(framework: str, folder: Path, database_url: str | None = None) -> Any:
    """A served shop project of ``framework`` (on SQLite unless given a database),
    its users made."""
    project = folder / "project"
    result = run_panelforge(
        "generate",
        str(HERE / "shop.yaml"),
        "-o",
        str(project),
        "--framework",
        framework,
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    for hook in (HERE / framework).glob("*.py"):
        shutil.copyfile(hook, project / "app" / "hooks" / hook.name)
    url = database_url or f"sqlite:///{folder / 'shop.db'}"
    server = SERVERS[framework](project, url)
    server.migrate()
    server.create_user(ADMIN, PASSWORD)
    for email, role in USERS.items():
        server.run_app(
            "create-user", email, "--role", role, "--password-stdin", input=PASSWORD
        )
    server.start()
    return server


@pytest.fixture(
    scope="module",
    params=[(f, d) for f in FRAMEWORKS for d in ("sqlite", "postgresql", "mariadb")],
    ids=lambda p: "-".join(p),
)
def shop(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Shop]:
    framework, database = request.param
    folder = tmp_path_factory.mktemp(f"shop-{framework}-{database}")
    with ExitStack() as stack:
        url = None
        if database == "postgresql":
            url = stack.enter_context(postgres_database())
        elif database == "mariadb":
            url = stack.enter_context(mariadb_database())
        server = serve(framework, folder, url)
        stack.callback(server.stop)
        yield Shop(Deployment(framework, "shop", database, MANIFEST, server))


def orders(api: Api, *customers: str) -> list[Any]:
    """New orders for ``customers``; their keys."""
    keys = []
    for customer in customers:
        response = api.post(crud(ORDER), json={"customer": customer})
        assert response.status_code == 201, response.text
        keys.append(response.json()["data"]["id"])
    return keys


def record(api: Api, key: Any) -> dict[str, Any]:
    found: dict[str, Any] = api.get(crud(ORDER, key)).json()
    return found


def ids(keys: list[Any]) -> dict[str, Any]:
    return {"ids[]": keys}


# --- the JSON API ---------------------------------------------------------------


def test_a_row_action_runs_its_module_function(shop: Shop) -> None:
    with shop.api() as api:
        (key,) = orders(api, "Row")
        response = api.post(f"{ACTIONS}/mark_paid", params=ids([key]))
        assert response.status_code == 200, response.text
        assert response.json() == {"message": "Mark paid: 1 record.", "count": 1}
        assert record(api, key)["status"] == "paid"


def test_a_bulk_action_validates_its_input_then_runs_on_the_selection(
    shop: Shop,
) -> None:
    with shop.api() as api:
        first, second, other = orders(api, "Bulk A", "Bulk B", "Bulk C")
        url = f"{ACTIONS}/archive"
        missing = api.post(url, params=ids([first, second]), json={})
        assert missing.status_code == 422
        assert missing.json()["errors"] == {"reason": ["The Reason field is required."]}
        long = api.post(url, params=ids([first]), json={"reason": "x" * 201})
        assert long.status_code == 422
        assert list(long.json()["errors"]) == ["reason"]
        unknown = api.post(url, params=ids([first]), json={"reason": "a", "x": 1})
        assert unknown.status_code == 422
        assert not record(api, first)["archived"]
        done = api.post(url, params=ids([first, second]), json={"reason": "old"})
        assert done.status_code == 200, done.text
        assert done.json() == {
            "message": f"2 archived by {ADMIN}: old",
            "count": 2,
        }
        assert [record(api, k)["archived"] for k in (first, second, other)] == [
            True,
            True,
            False,
        ]
        assert record(api, first)["note"] == "old"


def test_all_matching_runs_on_every_record_the_filters_find(shop: Shop) -> None:
    with shop.api() as api:
        keys = orders(api, "Match 1", "Match 2", "Match 3")
        (elsewhere,) = orders(api, "Elsewhere")
        api.post(f"{ACTIONS}/mark_paid", params=ids([keys[0]]))
        params = {"all": "1", "search": "Match", "filter[status]": "new"}
        response = api.post(
            f"{ACTIONS}/set_status", params=params, json={"status": "shipped"}
        )
        assert response.status_code == 200, response.text
        assert response.json()["count"] == 2
        statuses = [record(api, k)["status"] for k in (*keys, elsewhere)]
        assert statuses == ["paid", "shipped", "shipped", "new"]


def test_bulk_update_sets_the_field_on_the_selected_records(shop: Shop) -> None:
    with shop.api() as api:
        first, second, kept = orders(api, "Set 1", "Set 2", "Set 3")
        url = f"{ACTIONS}/set_status"
        wrong = api.post(url, params=ids([first]), json={"status": "lost"})
        assert wrong.status_code == 422
        assert list(wrong.json()["errors"]) == ["status"]
        empty = api.post(url, params=ids([first]), json={})
        assert empty.status_code == 422
        response = api.post(url, params=ids([first, second]), json={"status": "paid"})
        assert response.status_code == 200, response.text
        assert response.json() == {"message": "Set status: 2 records.", "count": 2}
        statuses = [record(api, k)["status"] for k in (first, second, kept)]
        assert statuses == ["paid", "paid", "new"]


def test_a_function_that_raises_leaves_nothing_changed(shop: Shop) -> None:
    with shop.api() as api:
        keys = orders(api, "Boom 1", "Boom 2")
        response = api.post(f"{ACTIONS}/explode", params=ids(keys))
        assert response.status_code == 422
        assert response.json() == {
            "message": "Explode refused: nothing was changed.",
            "errors": {"__all__": ["Explode refused: nothing was changed."]},
        }
        assert [record(api, k)["note"] for k in keys] == [None, None]


def test_an_action_without_a_function_says_what_to_define(shop: Shop) -> None:
    with shop.api() as api:
        (key,) = orders(api, "Nobody")
        response = api.post(f"{ACTIONS}/forgotten", params=ids([key]))
        assert response.status_code == 501
        message = response.json()["message"]
        assert "forgotten(records, data, user)" in message
        assert "app.hooks.order" in message


def test_unknown_actions_and_no_selection_are_refused(shop: Shop) -> None:
    with shop.api() as api:
        assert api.post(f"{ACTIONS}/nothing", params=ids([1])).status_code == 404
        response = api.post(f"{ACTIONS}/mark_paid")
        assert response.status_code == 422
        assert response.json()["errors"] == {"ids": ["The ids field is required."]}


def test_abilities_decide_who_may_run_each_action(shop: Shop) -> None:
    with shop.api() as admin:
        first, second = orders(admin, "Role 1", "Role 2")
    with shop.api("viewer@example.com") as viewer:
        refused = viewer.post(
            f"{ACTIONS}/archive", params=ids([first]), json={"reason": "no"}
        )
        assert refused.status_code == 403
        assert refused.json() == UNAUTHORIZED
        set_status = viewer.post(
            f"{ACTIONS}/set_status", params=ids([first]), json={"status": "paid"}
        )
        assert set_status.status_code == 403  # bulk_update needs "update"
    with shop.api("clerk@example.com") as clerk:
        granted = clerk.post(
            f"{ACTIONS}/archive", params=ids([second]), json={"reason": "clerk"}
        )
        assert granted.status_code == 200, granted.text
        assert (
            clerk.post(f"{ACTIONS}/mark_paid", params=ids([first])).status_code == 403
        )
        assert not record(clerk, first)["archived"]
        assert record(clerk, first)["status"] == "new"


def test_a_record_rule_refuses_the_whole_action(shop: Shop) -> None:
    with shop.api() as api:
        keys = orders(api, "Rule 1", "Rule 2")
        api.post(
            f"{ACTIONS}/set_status", params=ids(keys[1:]), json={"status": "shipped"}
        )
        url = f"{ACTIONS}/archive"
        refused = api.post(url, params=ids(keys), json={"reason": "rule"})
        assert refused.status_code == 403
        assert refused.json() == UNAUTHORIZED
        assert [record(api, k)["archived"] for k in keys] == [False, False]
        allowed = api.post(url, params=ids(keys[:1]), json={"reason": "rule"})
        assert allowed.status_code == 200, allowed.text


def test_a_session_client_must_send_the_csrf_token(shop: Shop) -> None:
    with shop.api() as api:
        (key,) = orders(api, "Csrf")
        del api.client.headers["X-CSRF-Token"]
        response = api.post(f"{ACTIONS}/mark_paid", params=ids([key]))
        assert response.status_code in (403, 419)
        assert response.json() == CSRF_MISMATCH
        api.client.headers["X-CSRF-Token"] = api.token or ""
        assert record(api, key)["status"] == "new"


# --- the pages ------------------------------------------------------------------


def test_the_list_offers_the_bulk_bar_and_row_actions(shop: Shop) -> None:
    with shop.api() as api:
        (key,) = orders(api, "Listed")
        html = api.client.get(page(ORDER, "index-page"), headers=HTML).text
        assert f'formaction="{ACTIONS}/archive"' in html
        assert f'formaction="{ACTIONS}/set_status"' in html
        assert f'formaction="{ACTIONS}/mark_paid"' not in html  # bulk: false
        assert f'action="{ACTIONS}/mark_paid?ids%5B%5D={key}"' in html
        detail = api.client.get(page(ORDER, "detail-page", key), headers=HTML).text
        assert f'action="{ACTIONS}/mark_paid?ids%5B%5D={key}"' in detail
    with shop.api("viewer@example.com") as viewer:
        html = viewer.client.get(page(ORDER, "index-page"), headers=HTML).text
        assert "/crud/actions/" not in html


def test_the_action_page_works_without_javascript(shop: Shop) -> None:
    with shop.api() as api:
        keys = orders(api, "Form 1", "Form 2")
        browser = api.client
        token = page_token(browser, page(ORDER, "index-page"))
        # The bulk bar posts the checked rows: the action asks first, on its page.
        sent = {"_token": token, "ids[]": [str(k) for k in keys]}
        asked = browser.post(f"{ACTIONS}/archive", data=sent, headers=HTML)
        assert asked.status_code == 200, asked.text
        assert "Archive the selected?" in asked.text
        assert "runs on 2 records" in asked.text
        target = re.search(
            r'<form class="record-form box action-form" method="post" '
            r'action="([^"]+)"',
            asked.text,
        )
        assert target is not None
        action = target.group(1).replace("&amp;", "&")
        # Invalid input: 422, the page again with the message beside the field.
        assert '<input type="hidden" name="_confirmed" value="1">' in asked.text
        form = {"_token": token, "_confirmed": "1", "reason": ""}
        invalid = browser.post(action, data=form, headers=HTML)
        assert invalid.status_code == 422
        assert "The Reason field is required." in invalid.text
        assert "runs on 2 records" in invalid.text
        form["reason"] = "by form"
        done = browser.post(action, data=form, headers=HTML)
        assert done.status_code == 303
        assert done.headers["location"].endswith(page(ORDER, "index-page"))
        shown = browser.get(done.headers["location"], headers=HTML).text
        assert f"2 archived by {ADMIN}: by form" in shown
        assert [record(api, k)["note"] for k in keys] == ["by form", "by form"]


def test_a_page_form_without_its_token_is_refused(shop: Shop) -> None:
    with shop.api() as api:
        (key,) = orders(api, "No token")
        token = api.client.headers.pop("X-CSRF-Token")
        response = api.client.post(
            f"{ACTIONS}/mark_paid", params=ids([key]), data={"x": "1"}, headers=HTML
        )
        # Sent back to the page with a message (or refused): never run.
        assert response.status_code in (303, 403, 419)
        api.client.headers["X-CSRF-Token"] = token
        assert record(api, key)["status"] == "new"


def test_both_frameworks_answer_alike(tmp_path_factory: pytest.TempPathFactory) -> None:
    answers = []
    for framework in FRAMEWORKS:
        server = serve(framework, tmp_path_factory.mktemp(f"alike-{framework}"))
        try:
            shop = Shop(Deployment(framework, "shop", "sqlite", MANIFEST, server))
            with shop.api() as api:
                keys = orders(api, "Same 1", "Same 2")
                found = [
                    api.post(f"{ACTIONS}/archive", params=ids(keys), json={}),
                    api.post(
                        f"{ACTIONS}/archive", params=ids(keys), json={"reason": "r"}
                    ),
                    api.post(f"{ACTIONS}/explode", params=ids(keys)),
                    api.post(
                        f"{ACTIONS}/set_status", params=ids(keys), json={"status": "x"}
                    ),
                    api.post(
                        f"{ACTIONS}/set_status",
                        params={"all": "1"},
                        json={"status": "paid"},
                    ),
                    api.post(f"{ACTIONS}/nothing", params=ids(keys)),
                    api.post(f"{ACTIONS}/forgotten", params=ids(keys)),
                ]
                answers.append([(r.status_code, r.json()) for r in found])
        finally:
            server.stop()
    assert answers[0] == answers[1]


def test_the_spec_lists_each_action_with_its_input(shop: Shop) -> None:
    with shop.api() as api:
        spec = api.get("/oag.json").json()
    assert spec_problems(spec) == []
    paths = spec["paths"]
    archive = paths[f"{ACTIONS}/archive"]["post"]
    body = archive["requestBody"]["content"]["application/json"]["schema"]
    assert body["required"] == ["reason"]
    assert body["properties"]["reason"]["maxLength"] == 200
    assert {p["name"] for p in archive["parameters"]} >= {"ids[]", "all", "search"}
    status = paths[f"{ACTIONS}/set_status"]["post"]
    schema = status["requestBody"]["content"]["application/json"]["schema"]
    assert schema["properties"]["status"]["enum"] == ["new", "paid", "shipped"]
    assert f"{ACTIONS}/mark_paid" in paths and f"{ACTIONS}/explode" in paths
