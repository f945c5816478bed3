"""HTML or JSON by the Accept header, and the named routes besides the CRUD API.

Without ``Accept: application/json`` the CRUD URLs send browsers to the pages (303);
the pages (``resource.page``), the home (``index``), ``handler`` (CSV export and
import, by path or ``?handlerUri=``), ``method`` (async methods), ``component`` and
fragments (``?_fragment-load=table``) answer at their MoonShine paths.
"""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest

from .support import (
    CSRF_MISMATCH,
    JSON,
    Deployment,
    crud,
    new_marker,
    page,
)

pytestmark = pytest.mark.e2e


CSV_TYPES = "Send the file as multipart/form-data (field 'file') or as text/csv."
# What a browser sends as Accept.
BROWSER = {"Accept": "text/html,application/xhtml+xml,*/*;q=0.8"}


def test_browsers_are_sent_from_the_api_to_the_pages(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            record = api.create(resource, 1)
            key = record[resource.key]
            for accept in ("text/html", BROWSER["Accept"], "application/json;q=0, */*"):
                response = api.get(
                    crud(resource) + "?sort=-id&page=1", headers={"Accept": accept}
                )
                assert response.status_code == 303, (accept, response.text)
                assert response.headers["location"] == (
                    page(resource, "index-page") + "?sort=-id&page=1"
                )
                shown = api.get(crud(resource, key), headers={"Accept": accept})
                assert shown.status_code == 303
                assert shown.headers["location"] == page(resource, "detail-page", key)
            vendor = api.get(
                crud(resource), headers={"Accept": "application/vnd.api+json"}
            )
            assert vendor.status_code == 200
            assert vendor.headers["content-type"].startswith("application/json")


def test_the_pages(deployment: Deployment) -> None:
    with deployment.api() as api:
        html = BROWSER
        home = api.get("/admin", headers=html)
        assert home.status_code == 200
        assert home.headers["content-type"].startswith("text/html")
        for resource in deployment.project.resources:
            assert page(resource, "index-page") in home.text
            marker = new_marker()
            record = api.create(resource, 1, marker)
            key = record[resource.key]
            for url in (
                page(resource, "index-page"),
                page(resource, "index-page") + f"?search={marker}&sort=-{resource.key}",
                page(resource, "form-page"),
                page(resource, "form-page", key),
                page(resource, "detail-page", key),
            ):
                response = api.get(url, headers=html)
                assert response.status_code == 200, (url, response.text[:500])
                assert response.headers["content-type"].startswith("text/html")
                assert "<html" in response.text, url
                if not deployment.jwt:
                    assert '<meta name="csrf-token" content="' in response.text
            found = api.get(
                page(resource, "index-page"), params={"search": marker}, headers=html
            )
            assert marker in found.text
            for url in (
                page(resource, "no-page"),
                page(resource, "detail-page", "999999999"),
                page(resource, "form-page", "not-a-key"),
                page(resource, "no-page", key),
                "/admin/resource/no-such-resource/index-page",
                "/admin/nothing-here",
            ):
                response = api.get(url, headers=html)
                assert response.status_code == 404, url
                assert response.headers["content-type"].startswith("text/html"), url


def test_fragments_and_components(deployment: Deployment) -> None:
    with deployment.api() as api:
        html = BROWSER
        for resource in deployment.project.resources:
            marker = new_marker()
            api.create(resource, 1, marker)
            for url, params in (
                (page(resource, "index-page"), {"_fragment-load": "table"}),
                (
                    f"/admin/component/index-page/{resource.uri}",
                    {"_component_name": "table"},
                ),
            ):
                response = api.get(
                    url, params={**params, "search": marker}, headers=html
                )
                assert response.status_code == 200, (url, response.text[:500])
                assert response.headers["content-type"].startswith("text/html")
                assert "<table" in response.text and "<html" not in response.text
                assert marker in response.text
            for url, params in (
                (page(resource, "index-page"), {"_fragment-load": "nothing"}),
                (
                    f"/admin/component/index-page/{resource.uri}",
                    {"_component_name": "nothing"},
                ),
                (
                    f"/admin/component/no-page/{resource.uri}",
                    {"_component_name": "table"},
                ),
            ):
                response = api.get(url, params=params, headers=html)
                assert response.status_code == 404, (url, params)
        assert api.get("/admin/page/no-such-page", headers=html).status_code == 404


def _csv_rows(text: str) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(text)))


def test_handlers_export_and_import(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            marker = new_marker()
            records = api.create_many(resource, 2, marker)
            base = f"/admin/resource/{resource.uri}/handler"
            params: dict[str, Any] = {"search": marker, "sort": resource.key}
            by_path = api.get(f"{base}/export", params=params)
            by_query = api.get(base, params={**params, "handlerUri": "export"})
            for response in (by_path, by_query):
                assert response.status_code == 200, response.text
                assert response.headers["content-type"].startswith("text/csv")
                assert response.headers["content-disposition"] == (
                    f'attachment; filename="{resource.uri}.csv"'
                )
            assert by_path.content == by_query.content
            rows = _csv_rows(by_path.text)
            assert [row[resource.key] for row in rows] == [
                str(r[resource.key]) for r in records
            ]
            # The export imports back: every row updates its record.
            response = api.post(
                f"{base}/import",
                content=by_path.content,
                headers={"Content-Type": "text/csv"},
            )
            assert response.status_code == 200, response.text
            assert response.json() == {
                "message": "Imported 2 records: 0 created, 2 updated.",
                "messageType": "success",
                "created": 0,
                "updated": 2,
            }
            for record in records:
                assert api.get(crud(resource, record[resource.key])).json() == record
            wrong_type = api.post(f"{base}/import", json={"x": 1})
            assert wrong_type.status_code == 415
            assert wrong_type.json() == {"message": CSV_TYPES}
            unknown = api.get(f"{base}/nothing")
            assert unknown.status_code == 404
            assert unknown.json() == {"message": "Handler not found"}
            wrong = api.post(f"{base}/export")
            assert wrong.status_code == 405
            assert wrong.json() == {"message": "Method Not Allowed"}
            assert {m.strip() for m in wrong.headers["allow"].split(",")} == {
                "GET",
                "HEAD",
                "OPTIONS",
            }


def test_async_methods(deployment: Deployment) -> None:
    with deployment.api() as api:
        for resource in deployment.project.resources:
            url = f"/admin/method/index-page/{resource.uri}"
            for name in resource.methods:
                response = api.post(url, params={"method": name})
                assert response.status_code == 200, response.text
                assert response.json() == {
                    "message": f"{name} is not implemented yet.",
                    "messageType": "info",
                }
            for name in ("nope", "__class__", ""):
                response = api.post(url, params={"method": name})
                assert response.status_code == 404, name
                assert response.json() == {"message": f"Method {name!r} not found"}
            other = api.post(
                f"/admin/method/no-page/{resource.uri}", params={"method": "x"}
            )
            assert other.status_code == 404
            assert other.json() == {"message": "Page not found"}


def test_async_methods_always_need_the_csrf_token(
    session_deployment: Deployment,
) -> None:
    with session_deployment.api() as api:
        for resource in session_deployment.project.resources:
            url = f"/admin/method/index-page/{resource.uri}"
            for name in resource.methods:
                for verb in ("GET", "POST", "PUT", "PATCH", "DELETE"):
                    response = api.request(verb, url, params={"method": name})
                    assert response.status_code == 200, (verb, response.text)
                    refused = api.request(
                        verb,
                        url,
                        params={"method": name},
                        headers={**JSON, "X-CSRF-Token": ""},
                    )
                    assert refused.status_code == 403, verb
                    assert refused.json() == CSRF_MISMATCH
