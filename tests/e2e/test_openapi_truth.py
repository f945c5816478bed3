"""The emitted schemathesis test has teeth: a build whose API and spec differ fails it.

The emitted project's own run (tests/e2e/test_emitted_project.py) shows the API and its
spec agree; here a copy is broken on purpose, in the runtime or in the spec, and its
``tests/test_openapi_conformance.py`` must fail, naming the problem.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import project_env

pytestmark = pytest.mark.e2e

# Appended to app/panel/responses.py: every saved record's id becomes a string.
IDS_AS_STRINGS = """

_json_response = json_response


def json_response(body, **kwargs):  # deliberately broken by a panelforge test
    if isinstance(body, dict) and isinstance(body.get("data"), dict):
        data = {k: str(v) if k == "id" else v for k, v in body["data"].items()}
        body = {**body, "data": data}
    return _json_response(body, **kwargs)
"""


def _ids_as_strings(project: Path) -> None:
    with (project / "app" / "panel" / "responses.py").open("a") as module:
        module.write(IDS_AS_STRINGS)


def _done_as_string(project: Path) -> None:
    path = project / "resources" / "oag.json"
    spec = json.loads(path.read_text(encoding="utf-8"))
    spec["components"]["schemas"]["Task"]["properties"]["done"]["type"] = "string"
    path.write_text(json.dumps(spec, indent=2) + "\n", encoding="utf-8")


def _delete_crashes(project: Path) -> None:
    """Deleting one record raises (in-process, the error reaches the test itself)."""
    with (project / "app" / "panel" / "store.py").open("a") as module:
        module.write(
            "\n\ndef _crash(*args, **kwargs):  # deliberately broken\n"
            "    raise RuntimeError('boom')\n\n\n"
            "Store.delete = _crash\n"
        )


@pytest.mark.parametrize(
    ("breakage", "expected"),
    [
        (_ids_as_strings, "Response violates schema"),
        (_done_as_string, "Response violates schema"),
        (_delete_crashes, "RuntimeError: boom"),
    ],
    ids=["runtime-id-as-string", "spec-boolean-as-string", "runtime-500"],
)
def test_a_broken_build_fails_the_conformance_test(
    generated, fresh_copy, tmp_path: Path, breakage, expected: str
) -> None:
    project = fresh_copy(generated("todo"))
    breakage(project)
    env = project_env(project, f"sqlite:///{tmp_path / 'broken.db'}")
    env["SPEC_TEST_EXAMPLES"] = "20"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "tests/test_openapi_conformance.py",
        ],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]
    assert expected in result.stdout, result.stdout[-3000:]
