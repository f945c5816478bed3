"""A manifest that validates is a project that works (issue 18).

The invariant, for both frameworks, on SQLite and (where it answers) PostgreSQL:
``validate`` exits 0 ⇒ ``generate`` exits 0 ⇒ the project installs (its metadata is
TOML), migrates, serves and creates, reads, updates and deletes one record of every
resource (``roundtrip.py``). A manifest ``validate`` refuses must be refused cleanly:
exit 1, every problem placed at a line and column with its code.

- ``tests/manifests/valid/*.yaml``: the cases of issue 18 that work, and every
  manifest the invariant ever shrank to (add it there, with a comment saying why).
- ``test_generated_manifests_work``: hypothesis draws manifests
  (``manifest_strategy.py``). In CI: few examples, derandomized (a fixed seed).
  A longer run on demand: ``PANELFORGE_INVARIANT_EXAMPLES=200`` (any count; the run
  is then random unless ``PANELFORGE_INVARIANT_SEED`` is set too).
"""

from __future__ import annotations

import contextlib
import csv
import io
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import (
    FRAMEWORKS,
    REPO,
    mariadb_database,
    postgres_available,
    postgres_database,
    project_env,
)
from hypothesis import HealthCheck, given, note, seed, settings
from manifest_strategy import dump, manifests
from roundtrip import HTML, Client, generate, panelforge, round_trip, served

pytestmark = pytest.mark.e2e

VALID = REPO / "tests" / "manifests" / "valid"
CASES = sorted(path.stem for path in VALID.glob("*.yaml"))
DATABASES = [
    pytest.param("sqlite"),
    pytest.param("postgres", marks=pytest.mark.postgres),
    pytest.param("mariadb", marks=pytest.mark.mariadb),
]
EXAMPLES = int(os.environ.get("PANELFORGE_INVARIANT_EXAMPLES", "0") or 0)
PROBLEM_LINE = re.compile(r"^  .+:\d+:\d+: .* \(M\d{3}\)$")


@contextlib.contextmanager
def database(kind: str, folder: Path) -> Iterator[str]:
    """A fresh database of ``kind`` (a server's: skipped when it does not answer)."""
    if kind == "sqlite":
        yield f"sqlite:///{folder / 'app.db'}"
        return
    made = postgres_database() if kind == "postgres" else mariadb_database()
    with made as url:
        yield url


# SQLite for every case; the database servers for the cases whose columns or
# constraints differ by database (key and relation column types, foreign keys added
# after both tables, names and keywords quoted, unique indexes over long strings).
ON_SERVERS = {
    "postgres": {"keys", "cycles"},
    "mariadb": {"keys", "cycles", "names", "keywords", "unique"},
}
RUNS = [
    pytest.param(case, kind, id=f"{case}-{kind.values[0]}", marks=kind.marks)
    for case in CASES
    for kind in DATABASES
    if kind.values[0] == "sqlite" or case in ON_SERVERS[kind.values[0]]
]


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize(("case", "kind"), RUNS)
def test_valid_manifest_works(
    case: str, framework: str, kind: str, tmp_path: Path
) -> None:
    with database(kind, tmp_path) as url:
        round_trip(VALID / f"{case}.yaml", framework, url, tmp_path)


# --- string keys: given once, on create, by every way a record is created --------


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_string_keys_are_given_on_create_and_never_change(
    framework: str, tmp_path: Path
) -> None:
    project = generate(VALID / "keys.yaml", framework, tmp_path / "project")
    country = project.resource("Country")
    base = f"/admin/resource/{country.uri}"
    url = f"sqlite:///{tmp_path / 'a.db'}"
    with (
        served(tmp_path / "project", framework, url) as s,
        Client(s, project) as client,
    ):
        form = client.expect(
            200, "GET", f"{base}/form-page", "create form", headers=HTML
        )
        assert 'name="code"' in form.text
        made = client.expect(
            201, "POST", f"{base}/crud", "create", json={"code": "FR", "name": "France"}
        )
        assert made.json()["data"] == {"code": "FR", "name": "France"}
        again = client.expect(
            422, "POST", f"{base}/crud", "again", json={"code": "FR", "name": "Other"}
        )
        assert again.json()["errors"] == {"code": ["The Code has already been taken."]}
        moved = client.expect(422, "PUT", f"{base}/crud/FR", "key", json={"code": "DE"})
        assert moved.json()["errors"] == {"code": ["The Code field is read-only."]}
        edit = client.expect(200, "GET", f"{base}/form-page/FR", "edit", headers=HTML)
        assert 'name="code"' not in edit.text
        by_form = client.expect(
            201, "POST", f"{base}/crud", "form", data={"code": "DE", "name": "Germany"}
        )
        assert by_form.json()["data"]["code"] == "DE"
        rows = io.StringIO()
        csv.writer(rows).writerows([["code", "name"], ["IT", "Italy"], ["FR", "Fr"]])
        imported = client.expect(
            200,
            "POST",
            f"{base}/handler/import",
            "import",
            content=rows.getvalue().encode(),
            headers={"Content-Type": "text/csv"},
        )
        assert (imported.json()["created"], imported.json()["updated"]) == (1, 1)
        shown = client.expect(200, "GET", f"{base}/crud/IT", "imported").json()
        assert shown == {"code": "IT", "name": "Italy"}
        tags = f"/admin/resource/{project.resource('Tag').uri}/crud"
        for odd in ("a b", "ü?&#%+", "50%"):
            body = {"slug": odd, "title": "T"}
            made = client.expect(201, "POST", tags, odd, json=body)
            location = made.headers["location"]
            assert client.expect(200, "GET", location, odd).json() == body
        for unroutable in ("x/y", ".", ".."):
            body = {"slug": unroutable, "title": "T"}
            refused = client.expect(422, "POST", tags, unroutable, json=body)
            message = 'The Slug field must not contain "/" nor be "." or "..".'
            assert refused.json()["errors"] == {"slug": [message]}


# The emitted tests that create records: on FastAPI the modules of a string key, a
# uuid key and of the resource relating to both (keys.yaml), or of the resource with
# unique fields and groups (unique.yaml), on Django the data-driven ones (the rest of
# each suite does not depend on the manifest's keys; it runs on the examples).
_RECORD_TESTS = {
    ("keys", "fastapi"): [
        *(f"tests/test_{name}_api.py" for name in ("country", "device", "city")),
        "tests/test_country_pages.py",
        "tests/test_db.py",
    ],
    ("unique", "fastapi"): [
        "tests/test_book_api.py",
        "tests/test_book_pages.py",
        "tests/test_db.py",
    ],
    **{
        (case, "django"): [
            "tests/test_api.py",
            "tests/test_csrf.py",
            "tests/test_prepared.py",
        ]
        for case in ("keys", "unique")
    },
}


@pytest.mark.parametrize("framework", FRAMEWORKS)
@pytest.mark.parametrize("case", ["keys", "unique"])
def test_given_keys_and_unique_values_pass_the_emitted_projects_own_tests(
    case: str, framework: str, tmp_path: Path
) -> None:
    """The emitted tests give client-named records keys of their own (samples.json's
    ``keys``), and values of their own for unique fields and one member of each
    unique group (``distinct``); they look for missing records with a key of the
    right shape."""
    project = tmp_path / "project"
    generate(VALID / f"{case}.yaml", framework, project)
    env = project_env(project, f"sqlite:///{tmp_path / 'a.db'}")
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(
        [*command, *_RECORD_TESTS[case, framework]],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout


# The emitted tests that create records of a resource requiring an image (issue 26):
# they upload one (multipart), on FastAPI from the per-resource modules, the loop
# reads' and the spec's tests, on Django from the data-driven ones; the page tests
# post a refused multipart form and find it again with its errors and values.
_UPLOAD_TESTS = {
    "fastapi": [
        *(
            f"tests/test_{name}_{kind}.py"
            for name in ("album", "photo")
            for kind in ("api", "pages")
        ),
        "tests/test_db.py",
        "tests/test_openapi_conformance.py",
    ],
    "django": [
        "tests/test_api.py",
        "tests/test_pages.py",
        "tests/test_prepared.py",
        "tests/test_csrf.py",
    ],
}


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_required_files_pass_the_emitted_projects_own_tests(
    framework: str, tmp_path: Path
) -> None:
    """The emitted tests create records of a resource with a required image (and one
    relating to it) by uploading a small valid file of a type ``accept`` takes
    (samples.json's ``files``), and keep their uploads in a folder of their own."""
    project = tmp_path / "project"
    generate(VALID / "files.yaml", framework, project)
    env = project_env(project, f"sqlite:///{tmp_path / 'a.db'}")
    env["SPEC_TEST_EXAMPLES"] = "10"
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    result = subprocess.run(
        [*command, *_UPLOAD_TESTS[framework]],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert " passed" in result.stdout and "skipped" not in result.stdout
    assert not (project / "media").exists()  # the tests' uploads went elsewhere


# --- cycles migrate down as well as up ---------------------------------------------


@pytest.mark.postgres
@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_relation_cycles_migrate_down_and_up(framework: str, tmp_path: Path) -> None:
    """The foreign keys added after both tables are dropped before either is."""
    generate(VALID / "cycles.yaml", framework, tmp_path / "project")
    with postgres_database() as url:
        env = project_env(tmp_path / "project", url)
        if framework == "fastapi":
            steps = [["upgrade", "head"], ["downgrade", "base"], ["upgrade", "head"]]
            commands = [[sys.executable, "-m", "alembic", *step] for step in steps]
        else:
            steps = [[], ["app", "zero"], []]
            commands = [[sys.executable, "manage.py", "migrate", *s] for s in steps]
        for command in commands:
            result = subprocess.run(
                command,
                cwd=tmp_path / "project",
                env=env,
                capture_output=True,
                text=True,
                timeout=120,
            )
            assert result.returncode == 0, result.stdout + result.stderr


# --- the invariant, on drawn manifests ---------------------------------------------


def _settings() -> settings:
    return settings(
        max_examples=EXAMPLES or 5,
        derandomize=not EXAMPLES,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )


def _check(manifest_text: str) -> None:
    """Refused cleanly, or works end to end on every framework and database."""
    with tempfile.TemporaryDirectory(prefix="pf-invariant-") as folder:
        work = Path(folder)
        path = work / "manifest.yaml"
        path.write_text(manifest_text, encoding="utf-8")
        code, output = panelforge("validate", str(path))
        if code != 0:
            note(f"refused:\n{output}")
            assert code == 1, output
            problems = [line for line in output.splitlines() if line.startswith("  ")]
            lines = [line for line in problems if not line.startswith("      hint:")]
            assert lines and all(PROBLEM_LINE.match(line) for line in lines), output
            return
        kinds = ["sqlite", "postgres"] if postgres_available() else ["sqlite"]
        for framework in FRAMEWORKS:
            for kind in kinds:
                place = work / f"{framework}-{kind}"
                place.mkdir()
                with database(kind, place) as url:
                    round_trip(path, framework, url, place)


@given(manifest=manifests())
def _invariant(manifest: dict) -> None:
    text = dump(manifest)
    note(f"manifest (save failures to tests/manifests/valid/):\n{text}")
    _check(text)


def test_generated_manifests_work() -> None:
    test = _settings()(_invariant)
    if EXAMPLES and os.environ.get("PANELFORGE_INVARIANT_SEED"):
        test = seed(int(os.environ["PANELFORGE_INVARIANT_SEED"]))(test)
    test()
