"""The emitted project as users meet it: installed, self-tested, made by copier."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLE_IDS, FRAMEWORKS, REPO, project_env, tree_files

pytestmark = pytest.mark.e2e
MANIFEST_COPY = ".panelforge/manifest.yaml"
STATE = ".panelforge/state.json"
SUITE_MARKS = {"postgres": [pytest.mark.postgres], "mariadb": [pytest.mark.mariadb]}


def _suite_runs() -> list:
    """Framework × example × database, or (by default, for CI time) what the copier
    workflows (tests/e2e/test_copier_ci.py) leave out: they run FastAPI's library suite
    and Django's todo suite on SQLite in fresh virtualenvs, so here the other example
    of each framework runs on PostgreSQL and Django's library suite on PostgreSQL and
    MariaDB. The conformance suite serves every example on SQLite and PostgreSQL;
    ``PANELFORGE_FULL_MATRIX=1`` runs every combination here too, MariaDB included."""
    if os.environ.get("PANELFORGE_FULL_MATRIX"):
        databases = ["sqlite", "postgres", "mariadb"]
        chosen = [
            (framework, example, database)
            for framework in FRAMEWORKS
            for example in EXAMPLE_IDS
            for database in databases
        ]
    else:
        chosen = [
            ("fastapi", "todo", "postgres"),
            ("django", "library", "postgres"),
            ("django", "library", "mariadb"),
        ]
    return [
        pytest.param(
            framework,
            example,
            database,
            id=f"{framework}-{example}-{database}",
            marks=SUITE_MARKS.get(database, []),
        )
        for framework, example, database in chosen
    ]


@pytest.mark.parametrize(
    ("framework", "example", "database_url"), _suite_runs(), indirect=["database_url"]
)
def test_emitted_project_passes_its_own_tests(
    generated, fresh_copy, database_url: str, example: str, framework: str
) -> None:
    """The project's own suite, schemathesis included, on SQLite or PostgreSQL."""
    project = fresh_copy(generated(example, framework))
    env = {**project_env(project, database_url), "TEST_DATABASE_URL": database_url}
    # Every operation still meets schemathesis; the served conformance suite fuzzes
    # each deployment in depth (tests/conformance/test_openapi_fuzz.py).
    env.setdefault("SPEC_TEST_EXAMPLES", "25")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_copier_copy_gives_the_same_project(
    generated, tmp_path: Path, framework: str
) -> None:
    """`copier copy --trust <repo> DEST`, given the manifest's answers, = `generate`."""
    dest = tmp_path / "from-copier"
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "copier",
            "copy",
            "--trust",
            "--defaults",
            "--vcs-ref",
            "HEAD",
            "-d",
            "manifest=library",
            "-d",
            "project_name=library_admin",
            "-d",
            "project_title=Library admin",
            "-d",
            f"framework={framework}",
            "-d",
            "jwt=false",
            str(REPO),
            str(dest),
        ],
        cwd=tmp_path,
        env={**os.environ, "PWD": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    copied = tree_files(dest)
    made = tree_files(generated("library", framework))
    # examples/library.yaml says fastapi: a django answer is written into the copy
    # (`generate --framework django` keeps the byte copy), the rest is the same.
    answered = set() if framework == "fastapi" else {MANIFEST_COPY, STATE}
    assert {p: d for p, d in copied.items() if p not in answered} == {
        p: d for p, d in made.items() if p not in answered
    }
    if answered:
        copy = yaml.safe_load(copied[MANIFEST_COPY])
        assert copy["project"]["framework"] == framework
        state, made_state = (json.loads(t[STATE]) for t in (copied, made))
        assert state["project"] == made_state["project"]


@pytest.mark.parametrize("framework", FRAMEWORKS)
def test_a_composite_key_project_passes_its_own_tests(
    tmp_path: Path, framework: str
) -> None:
    """A project with composite keys (a link table keyed by two relations, labels
    keyed by two strings) passes its own suite on SQLite: its tests name records by
    their encoded keys (``tests/conformance/composite/tunes.yaml``)."""
    project = tmp_path / framework
    manifest = REPO / "tests" / "conformance" / "composite" / "tunes.yaml"
    made = subprocess.run(
        [sys.executable, "-m", "generator.cli", "generate", str(manifest),
         "-o", str(project), "--framework", framework, "--quiet"],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert made.returncode == 0, made.stderr
    database_url = f"sqlite:///{tmp_path / 'test.db'}"
    env = {**project_env(project, database_url), "TEST_DATABASE_URL": database_url}
    env.setdefault("SPEC_TEST_EXAMPLES", "25")
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert " passed" in result.stdout
