"""Hooks, scopes, roles and abilities, over HTTP, the same on both frameworks.

One project per framework is generated from ``customising/clinic.yaml`` (three roles,
a list, a read-only field); the hook files beside it are copied into ``app/hooks/``,
as a user would write them: every lifecycle hook (logged to ``HOOK_LOG``), a scope
(staff of ``@clinic.test`` see the patients of the North clinic only) and a record
rule (a done appointment cannot be changed). Servers run on SQLite, one per framework.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, run_panelforge

from generator.manifest.load import load_manifest

from .support import HTML, JSON, PASSWORD, Api, Deployment, crud, page, page_token

HERE = Path(__file__).parent / "customising"
MANIFEST = load_manifest(HERE / "clinic.yaml")
CLINIC, PATIENT, APPOINTMENT = (
    MANIFEST.resource(name) for name in ("Clinic", "Patient", "Appointment")
)
ADMIN = "admin@example.com"
USERS = {
    "viewer@example.com": "viewer",
    "editor@example.com": "editor",
    "staff@clinic.test": "editor",
    "clerk@example.com": "clerk",
}
UNAUTHORIZED = {"message": "This action is unauthorized."}
CSV = {"headers": {"Content-Type": "text/csv"}}


class Clinic:
    """One served clinic project, its hook log and its users' clients."""

    def __init__(self, deployment: Deployment, log: Path) -> None:
        self.deployment = deployment
        self.log = log

    def api(self, email: str = ADMIN) -> Api:
        api = Api(self.deployment)
        api.log_in(email, PASSWORD)
        return api

    def events(self) -> list[list[Any]]:
        """The hook calls logged so far, then forgets them."""
        lines = self.log.read_text(encoding="utf-8").splitlines()
        self.log.write_text("", encoding="utf-8")
        return [json.loads(line) for line in lines]

    def run(self, *args: str, input: str | None = None) -> None:
        self.deployment.server.run_app(*args, input=input)


@pytest.fixture(scope="module", params=FRAMEWORKS)
def clinic(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[Clinic]:
    framework: str = request.param
    folder = tmp_path_factory.mktemp(f"clinic-{framework}")
    project = folder / "project"
    result = run_panelforge(
        "generate",
        str(HERE / "clinic.yaml"),
        "-o",
        str(project),
        "--framework",
        framework,
        "--quiet",
    )
    assert result.returncode == 0, result.stderr
    for hook in (HERE / framework).glob("*.py"):
        shutil.copyfile(hook, project / "app" / "hooks" / hook.name)
    log = folder / "hooks.log"
    log.write_text("", encoding="utf-8")
    server = SERVERS[framework](project, f"sqlite:///{folder / 'clinic.db'}")
    server.env["HOOK_LOG"] = str(log)
    server.migrate()
    server.create_user(ADMIN, PASSWORD)
    for email, role in USERS.items():
        server.run_app(
            "create-user", email, "--role", role, "--password-stdin", input=PASSWORD
        )
    server.start()
    deployment = Deployment(framework, "clinic", "sqlite", MANIFEST, server)
    try:
        yield Clinic(deployment, log)
    finally:
        server.stop()


@pytest.fixture(scope="module")
def places(clinic: Clinic) -> dict[str, int]:
    """The clinics North and South, made once."""
    with clinic.api() as api:
        return {
            name: api.post(crud(CLINIC), json={"name": name}).json()["data"]["id"]
            for name in ("North", "South")
        }


def _patient(api: Api, name: str, clinic_id: int | None = None, **more: Any) -> Any:
    response = api.post(crud(PATIENT), json={"name": name, "clinic": clinic_id, **more})
    assert response.status_code == 201, response.text
    return response.json()["data"]


# --- lifecycle hooks ------------------------------------------------------------------


def test_each_hook_runs_in_order_around_its_write(clinic: Clinic) -> None:
    with clinic.api() as api:
        clinic.events()
        record = _patient(api, "Ann")
        assert record["edited_by"] == ADMIN  # stamped by before_creating
        assert clinic.events() == [
            ["before_creating", "Ann"],
            ["after_created", "Ann", ADMIN, 1],
        ]
        url = crud(PATIENT, record["id"])
        response = api.request("PATCH", url, json={"name": "Anne"})
        assert response.status_code == 200, response.text
        assert clinic.events() == [
            ["before_updating", "Ann", "Anne"],
            ["after_updated", "Anne"],
        ]
        assert api.request("DELETE", url).status_code == 200
        assert clinic.events() == [
            ["before_deleting", "Anne"],
            ["after_deleted", "Anne"],
        ]
        keys = [_patient(api, f"Mass {n}")["id"] for n in range(2)]
        clinic.events()
        response = api.request("DELETE", crud(PATIENT), params={"ids[]": keys})
        assert response.status_code == 200, response.text
        assert clinic.events() == [
            ["before_mass_deleting", sorted(keys)],
            ["after_mass_deleted", sorted(keys)],
        ]


def test_a_failing_hook_undoes_the_write(clinic: Clinic) -> None:
    with clinic.api() as api:
        response = api.post(crud(PATIENT), json={"name": "Explode"})
        assert response.status_code == 500
        assert response.json() == {"message": "Server Error"}
        assert ["after_created", "Explode", ADMIN, 1] in clinic.events()
    with clinic.api() as api:  # the server closes a connection after a 500
        found = api.get(crud(PATIENT), params={"search": "Explode"}).json()
        assert found["data"] == []


def test_validation_error_from_a_hook_is_422(clinic: Clinic) -> None:
    with clinic.api() as api:
        response = api.post(crud(PATIENT), json={"name": "Refuse"})
        assert response.status_code == 422
        assert response.json() == {
            "message": "Refused by hook.",
            "errors": {"name": ["Refused by hook."]},
        }


def test_validation_error_shows_beside_the_field_on_the_form(clinic: Clinic) -> None:
    with clinic.api() as api:
        browser = api.client
        token = page_token(browser, page(PATIENT, "form-page"))
        refused = browser.post(
            crud(PATIENT), data={"name": "Refuse", "_token": token}, headers=HTML
        )
        # Post/redirect/get: back to the form page, which shows the form.
        assert refused.status_code == 303, refused.text[:2000]
        assert refused.headers["location"] == page(PATIENT, "form-page")
        response = browser.get(refused.headers["location"], headers=HTML)
        assert response.headers["content-type"].startswith("text/html")
        assert "Refused by hook." in response.text
        assert 'value="Refuse"' in response.text


def test_forbidden_from_a_hook_is_403_and_changes_nothing(clinic: Clinic) -> None:
    with clinic.api() as api:
        record = _patient(api, "Kept", notes="keep")
        url = crud(PATIENT, record["id"])
        locked = api.request("PATCH", url, json={"name": "Locked"})
        assert locked.status_code == 403
        assert locked.json() == {"message": "Locked names are not allowed."}
        kept = api.request("DELETE", url)
        assert kept.status_code == 403
        assert kept.json() == {"message": "This patient is kept."}
        assert api.get(url).json()["name"] == "Kept"


def test_a_readonly_field_is_shown_but_never_written(clinic: Clinic) -> None:
    with clinic.api() as api:
        response = api.post(crud(PATIENT), json={"name": "Ro", "edited_by": "me"})
        assert response.status_code == 422
        assert "edited_by" in response.json()["errors"]
        form = api.get(page(PATIENT, "form-page"), headers=HTML).text
        assert 'name="edited_by"' not in form
        listed = api.get(page(PATIENT, "index-page"), headers=HTML).text
        assert ">Edited by</a>" in listed and ">Notes</a>" not in listed  # list


# --- scope ----------------------------------------------------------------------------


def test_the_scope_hides_records_from_every_route(
    clinic: Clinic, places: dict[str, int]
) -> None:
    with clinic.api() as admin:
        north = _patient(admin, "Nora North", places["North"])
        south = _patient(admin, "Sam South", places["South"])
    with clinic.api("staff@clinic.test") as staff:
        listed = staff.get(crud(PATIENT), params={"search": "North"}).json()["data"]
        assert [r["id"] for r in listed] == [north["id"]]
        assert staff.get(crud(PATIENT), params={"search": "Sam"}).json()["data"] == []
        hidden = crud(PATIENT, south["id"])
        assert staff.get(hidden).status_code == 404
        assert staff.request("PATCH", hidden, json={"name": "X"}).status_code == 404
        assert (
            staff.get(
                page(PATIENT, "detail-page", south["id"]), headers=HTML
            ).status_code
            == 404
        )
        assert (
            staff.get(page(PATIENT, "form-page", south["id"]), headers=HTML).status_code
            == 404
        )
        export = staff.get(f"/admin/resource/{PATIENT.uri}/handler/export")
        assert export.status_code == 403  # editors may not export
        index = staff.get(page(PATIENT, "index-page"), headers=HTML).text
        assert "Nora North" in index and "Sam South" not in index
        # The appointment form's patient picker offers what the scope lets through.
        form = staff.get(page(APPOINTMENT, "form-page"), headers=HTML)
        assert form.status_code == 200, form.text
        assert "Nora North" in form.text and "Sam South" not in form.text
        # …and a record outside the scope cannot be chosen.
        chosen = staff.post(crud(APPOINTMENT), json={"patient": south["id"]})
        assert chosen.status_code == 422, chosen.text
        assert chosen.json()["errors"] == {
            "patient": ["The selected Patient is invalid."]
        }
        allowed = staff.post(crud(APPOINTMENT), json={"patient": north["id"]})
        assert allowed.status_code == 201, allowed.text
    with clinic.api() as admin:
        assert admin.get(hidden).status_code == 200


def test_the_scope_bounds_deletes_and_exports(
    clinic: Clinic, places: dict[str, int]
) -> None:
    with clinic.api() as admin:
        south = _patient(admin, "Sid South", places["South"])
        north = _patient(admin, "Ned North", places["North"])
    clinic.run("set-role", "staff@clinic.test", "admin")
    try:
        with clinic.api("staff@clinic.test") as staff:
            assert (
                staff.request("DELETE", crud(PATIENT, south["id"])).status_code == 404
            )
            ids = {"ids[]": [south["id"]]}
            gone = staff.request("DELETE", crud(PATIENT), params=ids)
            assert gone.status_code == 200, gone.text
            assert gone.json()["deleted"] == 0
            export = staff.get(f"/admin/resource/{PATIENT.uri}/handler/export")
            assert export.status_code == 200, export.text
            names = {row["name"] for row in csv.DictReader(io.StringIO(export.text))}
            assert "Ned North" in names and "Sid South" not in names
    finally:
        clinic.run("set-role", "staff@clinic.test", "editor")
    with clinic.api() as admin:
        assert admin.get(crud(PATIENT, south["id"])).status_code == 200
        assert admin.get(crud(PATIENT, north["id"])).status_code == 200


# --- roles and abilities --------------------------------------------------------------


def _routes(resource: Any, key: Any) -> dict[str, tuple[str, str, dict[str, Any]]]:
    """Every resource route as (method, path, request arguments), by a short name."""
    handler = f"/admin/resource/{resource.uri}/handler"
    method = f"/admin/method/index-page/{resource.uri}"
    body = {"json": {}}
    return {
        "index": ("GET", crud(resource), {}),
        "show": ("GET", crud(resource, key), {}),
        "store": ("POST", crud(resource), body),
        "update": ("PATCH", crud(resource, key), body),
        "destroy": ("DELETE", crud(resource, key), {}),
        "massDelete": ("DELETE", crud(resource), {"params": {"ids[]": [key]}}),
        "export": ("GET", f"{handler}/export", {}),
        "import": ("POST", f"{handler}/import", {"content": b"name\n", **CSV}),
        "confirm": ("POST", method, {"params": {"method": "confirm"}}),
        "index-page": ("GET", page(resource, "index-page"), {"headers": HTML}),
        "create-page": ("GET", page(resource, "form-page"), {"headers": HTML}),
        "edit-page": ("GET", page(resource, "form-page", key), {"headers": HTML}),
        "detail-page": ("GET", page(resource, "detail-page", key), {"headers": HTML}),
        "import-page": ("GET", page(resource, "import-page"), {"headers": HTML}),
    }


# (user, resource, routes allowed); every other route of the resource answers 403.
MATRIX = [
    ("viewer@example.com", "Patient", {"index", "show", "index-page", "detail-page"}),
    (
        "editor@example.com",
        "Patient",
        {"index", "show", "store", "update", "index-page", "create-page"}
        | {"edit-page", "detail-page"},
    ),
    (
        "clerk@example.com",
        "Appointment",
        {"index", "show", "store", "confirm", "index-page", "create-page"}
        | {"detail-page"},
    ),
    ("clerk@example.com", "Patient", set()),
]


@pytest.mark.parametrize(("email", "name", "allowed"), MATRIX)
def test_roles_allow_what_the_manifest_grants(
    clinic: Clinic, places: dict[str, int], email: str, name: str, allowed: set[str]
) -> None:
    resource = MANIFEST.resource(name)
    with clinic.api() as admin:
        patient = _patient(admin, "Matrix", places["North"])
        if name == "Patient":
            key = patient["id"]
        else:
            made = admin.post(crud(resource), json={"patient": patient["id"]})
            key = made.json()["data"]["id"]
    with clinic.api(email) as api:
        for route, (method, url, arguments) in _routes(resource, key).items():
            if route == "confirm" and not resource.methods:
                continue
            response = api.request(method, url, **arguments)
            if route in allowed:
                assert response.status_code < 400 or response.status_code == 422, (
                    route,
                    response.status_code,
                    response.text,
                )
                continue
            assert response.status_code == 403, (route, response.status_code)
            if route.endswith("-page"):
                assert response.headers["content-type"].startswith("text/html")
            else:
                assert response.json() == UNAUTHORIZED, route


def test_admins_may_do_everything(clinic: Clinic, places: dict[str, int]) -> None:
    with clinic.api() as api:
        key = _patient(api, "Admin's", places["North"])["id"]
        for route, (method, url, arguments) in _routes(PATIENT, key).items():
            if route in ("confirm", "destroy", "massDelete"):
                continue
            response = api.request(method, url, **arguments)
            assert response.status_code < 400 or response.status_code == 422, (
                route,
                response.text,
            )


def test_pages_offer_only_what_the_user_may_do(clinic: Clinic) -> None:
    with clinic.api() as admin:
        _patient(admin, "Shown")
        full = admin.get(page(PATIENT, "index-page"), headers=HTML).text
    with clinic.api("viewer@example.com") as viewer:
        seen = viewer.get(page(PATIENT, "index-page"), headers=HTML).text
    offers = (
        "New Patient",
        "Export CSV",
        "Delete selected",
        'id="mass-delete"',
        "Import CSV",  # the import page's link: import
    )
    for offer in (*offers, ">Edit</a>"):
        assert offer in full, offer
        assert offer not in seen, offer


def test_a_record_rule_reads_the_record(clinic: Clinic) -> None:
    with clinic.api() as api:
        patient = _patient(api, "Ruled")
        done = api.post(
            crud(APPOINTMENT), json={"patient": patient["id"], "status": "done"}
        ).json()["data"]
        planned = api.post(crud(APPOINTMENT), json={"patient": patient["id"]}).json()[
            "data"
        ]
        refused = api.request("PATCH", crud(APPOINTMENT, done["id"]), json={})
        assert refused.status_code == 403
        assert refused.json() == UNAUTHORIZED
        edit = api.get(page(APPOINTMENT, "form-page", done["id"]), headers=HTML)
        assert edit.status_code == 403
        assert api.get(crud(APPOINTMENT, done["id"])).status_code == 200
        changed = api.request(
            "PATCH", crud(APPOINTMENT, planned["id"]), json={"status": "done"}
        )
        assert changed.status_code == 200, changed.text


def _kernel_routes() -> Any:
    path = REPO / "templates" / "project" / "_shared" / "panel_core" / "routes.py"
    spec = importlib.util.spec_from_file_location("kernel_routes", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module.ROUTES


def test_no_route_of_a_resource_skips_can(
    clinic: Clinic, places: dict[str, int]
) -> None:
    """Every path pattern naming a resource, with every method: clerks get 403."""
    values = {
        "resourceUri": CLINIC.uri,
        "resourceItem": places["North"],
        "pageUri": "index-page",
        "handlerUri": "export",
        "actionUri": "archive",
        "fieldName": "name",  # the clinic has no file field: refused before it is read
        "fileId": "0" * 32,
    }
    walked = 0
    with clinic.api("clerk@example.com") as clerk:
        for route in _kernel_routes().values():
            for pattern in route.patterns:
                if "{resourceUri}" not in pattern:
                    continue
                url = pattern.format(**values)
                for method in route.methods:
                    response = clerk.request(method, url, params={"method": "x"})
                    assert response.status_code == 403, (route.name, method, url)
                    walked += 1
    assert walked > 20


def test_a_new_role_applies_at_the_next_request(clinic: Clinic) -> None:
    with clinic.api("viewer@example.com") as viewer:
        assert viewer.post(crud(PATIENT), json={"name": "Late"}).status_code == 403
        clinic.run("set-role", "viewer@example.com", "editor")
        try:
            response = viewer.post(crud(PATIENT), json={"name": "Late"})
            assert response.status_code == 201, response.text
        finally:
            clinic.run("set-role", "viewer@example.com", "viewer")
        assert viewer.post(crud(PATIENT), json={"name": "Late"}).status_code == 403


def test_unknown_roles_are_refused_by_the_commands(clinic: Clinic) -> None:
    server = clinic.deployment.server
    refused = subprocess.run(
        server.command("set-role", "viewer@example.com", "owner"),
        cwd=server.project,
        env=server.env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode != 0
    assert "unknown role 'owner'" in refused.stdout + refused.stderr
    assert "admin, clerk, editor, viewer" in refused.stdout + refused.stderr


def test_imports_go_through_hooks_and_abilities(clinic: Clinic) -> None:
    url = f"/admin/resource/{PATIENT.uri}/handler/import"
    csv_body = {"content": b"name\nImported One\n", **CSV}
    with clinic.api("editor@example.com") as editor:
        assert editor.post(url, **csv_body).status_code == 403
    with clinic.api() as admin:
        clinic.events()
        response = admin.post(url, **csv_body)
        assert response.status_code == 200, response.text
        assert ["before_creating", "Imported One"] in clinic.events()
        found = admin.get(crud(PATIENT), params={"search": "Imported One"}).json()
        assert [r["edited_by"] for r in found["data"]] == [ADMIN]


def test_an_import_preview_runs_the_before_hooks_only(clinic: Clinic) -> None:
    """A preview checks rows as the import would (a hook's refusal is a row error),
    in a transaction rolled back, without the after_* hooks' effects."""
    url = f"/admin/resource/{PATIENT.uri}/handler/import?dry_run=1"
    with clinic.api() as admin:
        clinic.events()
        body = {"content": b"name\nPreviewed One\nRefuse\n", **CSV}
        response = admin.post(url, **body)
        assert response.status_code == 422, response.text
        assert response.json()["errors"] == {"row 3": ["Refused by hook."]}
        events = clinic.events()
        assert ["before_creating", "Previewed One"] in events
        assert [e for e in events if e[0].startswith("after_")] == []
        found = admin.get(crud(PATIENT), params={"search": "Previewed One"}).json()
        assert found["data"] == []
        editor_url = f"/admin/resource/{PATIENT.uri}/import-page"
    with clinic.api("editor@example.com") as editor:
        assert editor.post(url, **body).status_code == 403
        assert editor.get(editor_url, headers=HTML).status_code == 403


def test_not_logged_in_stays_401(clinic: Clinic) -> None:
    with clinic.deployment.client(headers=JSON) as anonymous:
        response = anonymous.get(crud(PATIENT))
        assert response.status_code == 401
        assert response.json() == {"message": "Unauthenticated."}


def test_the_menu_lists_what_the_user_may_see(clinic: Clinic) -> None:
    with clinic.api("clerk@example.com") as clerk:
        home = clerk.get("/admin", headers=HTML).text
    assert page(APPOINTMENT, "index-page") in home
    assert page(PATIENT, "index-page") not in home
    assert page(CLINIC, "index-page") not in home
