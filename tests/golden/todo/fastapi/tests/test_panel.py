"""What every panel route does alike, whatever the resource."""

from __future__ import annotations

from fastapi import FastAPI
from fastapi.testclient import TestClient

from app.resources import RESOURCES

URL = f"/admin/resource/{RESOURCES[0].uri}/crud"


def test_an_unknown_resource_is_404(client: TestClient) -> None:
    response = client.get("/admin/resource/no-such-resource/crud")
    assert response.status_code == 404
    assert response.json() == {"message": "Resource not found"}


def test_browsers_are_sent_to_the_pages(client: TestClient) -> None:
    for accept in ("text/html", "text/html,*/*;q=0.8", "application/json;q=0, */*"):
        response = client.get(
            f"{URL}?sort=-id", headers={"Accept": accept}, follow_redirects=False
        )
        assert response.status_code == 303
        page = f"/admin/resource/{RESOURCES[0].uri}/index-page?sort=-id"
        assert response.headers["location"] == page
    vendor_json = client.get(URL, headers={"Accept": "application/vnd.api+json"})
    assert vendor_json.status_code == 200


def test_a_wrong_method_is_405_with_every_allowed_method(client: TestClient) -> None:
    response = client.put(URL, json={})
    assert response.status_code == 405
    assert response.headers["allow"] == "DELETE, GET, HEAD, OPTIONS, POST"
    assert "message" in response.json()
    item = client.post(f"{URL}/1", json={})
    assert item.headers["allow"] == "DELETE, GET, HEAD, OPTIONS, PATCH, PUT"


def test_unknown_paths_are_json_404(client: TestClient) -> None:
    response = client.get("/admin/nothing-here")
    assert response.status_code == 404
    assert response.json() == {"message": "Not Found"}


def test_a_body_over_the_limit_is_413(app: FastAPI, client: TestClient) -> None:
    limit = app.state.settings.max_body_size
    response = client.post(URL, content=b" " * (limit + 1))
    assert response.status_code == 413


def test_a_body_of_another_type_is_415(client: TestClient) -> None:
    response = client.post(URL, content=b"x", headers={"Content-Type": "text/plain"})
    assert response.status_code == 415


def test_too_many_ids_are_422(app: FastAPI, client: TestClient) -> None:
    ids = list(range(1, app.state.settings.max_mass_delete + 2))
    response = client.request("DELETE", URL, json={"ids": ids})
    assert response.status_code == 422
    assert list(response.json()["errors"]) == ["ids"]


def test_a_key_that_cannot_exist_is_404(client: TestClient) -> None:
    for key in ("not-a-key", "99999999999999999999999"):
        assert client.get(f"{URL}/{key}").status_code == 404


def test_routes_are_named_as_in_moonshine(app: FastAPI) -> None:
    params = {"resourceUri": "book-resource", "resourceItem": "5"}
    assert (
        app.url_path_for("crud.update", **params)
        == "/admin/resource/book-resource/crud/5"
    )
    assert (
        app.url_path_for("crud.massDelete", resourceUri="x") == "/admin/resource/x/crud"
    )
