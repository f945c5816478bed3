"""The emitted README's "Customising" examples, run as a user would paste them.

For each framework, the clinic manifest (roles, a read-only ``edited_by``) is generated
and the README's Python examples become the project's hook files: the lifecycle hooks
and the scope of ``Patient`` (one class inheriting both), ``can`` of ``Appointment``
(beside the generated ``confirm`` method). The served panel then does what the README
says they do. An example that stops importing, or stops doing that, fails here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import httpx
import pytest
from conftest import FRAMEWORKS, REPO, SERVERS, run_panelforge

pytestmark = pytest.mark.e2e

PASSWORD = "readme password, long enough"
JSON = {"Accept": "application/json"}
_BLOCK = re.compile(r"```python\n(.*?)```", re.DOTALL)
PATIENTS = "/admin/resource/patient-resource/crud"
APPOINTMENTS = "/admin/resource/appointment-resource/crud"


def _examples(readme: str) -> list[str]:
    chapter = readme.split("## Customising", 1)[1].split("\n## ", 1)[0]
    return _BLOCK.findall(chapter)


def _install_examples(project: Path) -> None:
    hooks = project / "app" / "hooks"
    found = {"hooks": "", "scope": "", "can": ""}
    for block in _examples((project / "README.md").read_text()):
        if "def before_creating" in block:
            found["hooks"] = block
        elif "def scope" in block:
            found["scope"] = block
        elif "def can" in block:
            found["can"] = block
    assert all(found.values()), sorted(k for k, v in found.items() if not v)
    (hooks / "patient_hooks.py").write_text(found["hooks"])
    (hooks / "patient_scope.py").write_text(found["scope"])
    (hooks / "appointment_can.py").write_text(found["can"])
    (hooks / "patient.py").write_text(
        "from app.hooks.patient_hooks import PatientResource as Hooked\n"
        "from app.hooks.patient_scope import PatientResource as Scoped\n\n\n"
        "class PatientResource(Hooked, Scoped):\n"
        '    """The README\'s hooks and scope."""\n'
    )
    methods = hooks / "appointment.py"
    (hooks / "appointment_methods.py").write_text(methods.read_text())
    methods.write_text(
        "from app.hooks.appointment_can import AppointmentResource as Ruled\n"
        "from app.hooks.appointment_methods import AppointmentResource as Methods\n\n\n"
        "class AppointmentResource(Ruled, Methods):\n"
        '    """The README\'s can, and the generated methods."""\n'
    )


@contextmanager
def _client(base_url: str, email: str) -> Iterator[httpx.Client]:
    """A JSON client logged in as ``email``."""
    with httpx.Client(base_url=base_url, headers=JSON, timeout=15) as client:
        credentials = {"username": email, "password": PASSWORD}
        answer = client.post("/admin/authenticate", json=credentials)
        assert answer.status_code == 200, answer.text
        client.headers["X-CSRF-Token"] = answer.json()["csrf_token"]
        yield client


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_the_readme_examples_do_what_it_says(framework: str, tmp_path: Path) -> None:
    project = tmp_path / "clinic"
    manifest = REPO / "tests" / "manifests" / "clinic.yaml"
    made = run_panelforge(
        "generate", str(manifest), "-o", str(project), "--framework", framework
    )
    assert made.returncode == 0, made.stderr
    _install_examples(project)
    server = SERVERS[framework](project, f"sqlite:///{tmp_path / 'clinic.db'}")
    server.migrate()
    server.create_user("admin@example.com", PASSWORD)
    server.run_app(
        "create-user",
        "nurse@north.example",
        "--role",
        "editor",
        "--password-stdin",
        input=PASSWORD + "\n",
    )
    server.start()
    try:
        with _client(server.base_url, "admin@example.com") as admin:
            clinics = {
                name: admin.post(
                    "/admin/resource/clinic-resource/crud", json={"name": name}
                ).json()["data"]["id"]
                for name in ("North", "South")
            }
            north = admin.post(
                PATIENTS, json={"name": "Nora", "clinic": clinics["North"]}
            ).json()["data"]
            south = admin.post(
                PATIENTS,
                json={"name": "Sam", "clinic": clinics["South"], "notes": "allergic"},
            ).json()["data"]
            # before_creating stamps who added the patient (a read-only field).
            assert north["edited_by"] == "admin@example.com"
            # before_deleting keeps patients with notes.
            kept = admin.delete(f"{PATIENTS}/{south['id']}")
            assert kept.status_code == 403
            assert kept.json() == {"message": "Patients with notes cannot be deleted."}
            # can(): a cancelled appointment stays as it is.
            visit = {"patient": north["id"], "starts_at": "2026-01-05T09:00:00Z"}
            booked = admin.post(APPOINTMENTS, json=visit).json()["data"]
            url = f"{APPOINTMENTS}/{booked['id']}"
            assert admin.patch(url, json={"status": "cancelled"}).status_code == 200
            refused = admin.patch(url, json={"status": "booked"})
            assert refused.status_code == 403
            assert refused.json() == {"message": "This action is unauthorized."}
        with _client(server.base_url, "nurse@north.example") as nurse:
            # The scope: the North clinic's staff reach its patients only.
            listed = nurse.get(PATIENTS).json()["data"]
            assert [p["id"] for p in listed] == [north["id"]]
            assert nurse.get(f"{PATIENTS}/{south['id']}").status_code == 404
    finally:
        server.stop()
