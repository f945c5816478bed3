"""A manifest that validates is a project that works (issue 18): the round trip.

``round_trip`` takes one manifest through ``panelforge validate`` and ``generate``
(in-process, as the command line runs them), then runs the emitted project from its
folder the way ``conftest``'s servers do: migrate, create a user, serve, and create,
read, update and delete one record of every resource through the JSON API, with the
list, detail and form pages of each record on the way. Every failure is an
``AssertionError`` that says which step of which resource, with the server's log.
"""

from __future__ import annotations

import contextlib
import io
import runpy
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from conftest import SERVERS, Server

from generator import cli
from generator.manifest.load import load_manifest
from generator.model import ir
from generator.model.samples import creation_order, sample_payload
from generator.model.uploads import sample_uploads

# By class only builtin categories can be named here (Python reads the variable
# before it can import SQLAlchemy): SQLAlchemy's warnings derive from these two.
_STRICT_WARNINGS = "error::DeprecationWarning,error::RuntimeWarning"
EMAIL = "roundtrip@example.com"
PASSWORD = "round trip password, long enough"
JSON = {"Accept": "application/json"}
# The emitted tests' small valid files, made as they make them.
_UPLOADS = runpy.run_path(
    str(Path(__file__).parents[1] / "templates/project/_shared/tests/uploads.py")
)
HTML = {"Accept": "text/html"}


def panelforge(*args: str) -> tuple[int, str]:
    """Run the command line in this process: its exit code and what it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
        code = cli.main(list(args))
    return code, out.getvalue()


def generate(manifest: Path, framework: str, dest: Path) -> ir.Project:
    """``validate`` then ``generate``: both must exit 0. The project's model."""
    code, output = panelforge("validate", str(manifest))
    assert code == 0, f"validate exited {code}:\n{output}"
    code, output = panelforge(
        "generate", str(manifest), "-o", str(dest), "--framework", framework, "--quiet"
    )
    assert code == 0, f"generate exited {code}:\n{output}"
    # What `pip install -e .` reads first: the metadata must be TOML.
    tomllib.loads((dest / "pyproject.toml").read_text(encoding="utf-8"))
    return load_manifest(manifest).replace_framework(framework)  # type: ignore[arg-type]


@contextlib.contextmanager
def served(project: Path, framework: str, database_url: str) -> Iterator[Server]:
    """The emitted project migrated, with a user, served; its log on failure."""
    server = SERVERS[framework](project, database_url)
    # What SQLAlchemy only deprecates today (an annotation it resolves to a column)
    # fails the round trip, as it fails the emitted project's own tests.
    server.env["PYTHONWARNINGS"] = _STRICT_WARNINGS
    server.migrate()
    server.create_user(EMAIL, PASSWORD)
    server.start()
    try:
        yield server
    except AssertionError as exc:
        log = server.stop()
        raise AssertionError(
            f"{exc}\n--- server log (end) ---\n{log[-6000:]}"
        ) from None
    finally:
        server.stop()


class Client:
    """A logged-in JSON and HTML client of one served project."""

    def __init__(self, server: Server, project: ir.Project) -> None:
        self.project = project
        self.http = httpx.Client(base_url=server.base_url, headers=JSON, timeout=30)
        response = self.http.post(
            "/admin/authenticate", json={"username": EMAIL, "password": PASSWORD}
        )
        assert response.status_code == 200, response.text
        body = response.json()
        if project.auth.jwt:
            self.http.headers["Authorization"] = f"Bearer {body['token']}"
        else:
            self.http.headers["X-CSRF-Token"] = body["csrf_token"]

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.http.close()

    def expect(
        self, status: int, method: str, url: str, what: str, **kwargs: Any
    ) -> httpx.Response:
        """A request that must answer ``status``."""
        response = self.http.request(method, url, **kwargs)
        assert response.status_code == status, (
            f"{what}: {method} {url} answered {response.status_code}, not {status}:\n"
            f"{response.text[:2000]}\nrequest: {kwargs.get('json')}"
        )
        return response


def _create(resource: ir.Resource, body: dict[str, Any]) -> dict[str, Any]:
    """A create request's body: JSON, or a multipart form with the files the
    emitted tests upload where the resource requires a file (``tests/uploads.py``)."""
    files = sample_uploads(resource)
    if not files:
        return {"json": body}
    text = {name: _form_text(value) for name, value in body.items()}
    return {"data": text, "files": _UPLOADS["uploads"](files)}


def _form_text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "" if value is None else str(value)


def _update_body(resource: ir.Resource, body: dict[str, Any]) -> dict[str, Any]:
    """An update body: the create body's fields but the key (keys never change)."""
    return {name: value for name, value in body.items() if name != resource.key}


def docs_pages(client: Client) -> None:
    """``/docs`` and the spec it loads, from the route the manifest names."""
    docs = client.project.docs
    client.expect(200, "GET", "/docs", "docs page", headers=HTML)
    spec = client.expect(200, "GET", "/" + docs.route, "spec").json()
    assert spec["info"]["title"] == client.project.title, spec["info"]


def crud_every_resource(client: Client) -> None:
    """Create, read, update and delete one record of every resource."""
    keys: dict[str, Any] = {}
    order = creation_order(client.project)
    for resource in order:
        base = f"/admin/resource/{resource.uri}"
        what = f"{resource.name}: create"
        client.expect(200, "GET", f"{base}/form-page", what, headers=HTML)
        body = sample_payload(resource, 1, keys)
        created = client.expect(
            201, "POST", f"{base}/crud", what, **_create(resource, body)
        )
        record = created.json()["data"]
        key = keys[resource.name] = record[resource.key]
        what = f"{resource.name}: read"
        shown = client.expect(200, "GET", f"{base}/crud/{key}", what).json()
        assert shown == record, (what, shown, record)
        client.expect(200, "GET", f"{base}/index-page", what, headers=HTML)
        client.expect(200, "GET", f"{base}/detail-page/{key}", what, headers=HTML)
        client.expect(200, "GET", f"{base}/form-page/{key}", what, headers=HTML)
    for resource in order:  # now every relation target has a record
        base = f"/admin/resource/{resource.uri}/crud/{keys[resource.name]}"
        body = _update_body(resource, sample_payload(resource, 2, keys))
        what = f"{resource.name}: update"
        record = client.expect(200, "PUT", base, what, json=body).json()["data"]
        shown = client.expect(200, "GET", base, what).json()
        assert shown == record, (what, shown, record)
    for resource in order:  # relations restrict deletes: clear the optional links
        links = {
            field.name: None
            for field in resource.fields
            if field.relation
            and field.column_nullable
            and not resource.is_read_only(field)
        }
        if links:
            base = f"/admin/resource/{resource.uri}/crud/{keys[resource.name]}"
            client.expect(200, "PATCH", base, f"{resource.name}: unlink", json=links)
    for resource in reversed(order):
        base = f"/admin/resource/{resource.uri}/crud/{keys[resource.name]}"
        client.expect(200, "DELETE", base, f"{resource.name}: delete")
        client.expect(404, "GET", base, f"{resource.name}: deleted")


def round_trip(manifest: Path, framework: str, database_url: str, work: Path) -> None:
    """The whole invariant for one manifest, framework and database."""
    dest = work / f"project-{framework}"
    project = generate(manifest, framework, dest)
    with (
        served(dest, framework, database_url) as server,
        Client(server, project) as client,
    ):
        docs_pages(client)
        crud_every_resource(client)
