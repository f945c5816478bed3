"""The emitted project as users meet it: installed, self-tested, made by copier."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLE_IDS, FRAMEWORKS, REPO, project_env, tree_files

pytestmark = pytest.mark.e2e
MANIFEST_COPY = ".panelforge/manifest.yaml"
STATE = ".panelforge/state.json"
SUITE_MARKS = {"postgres": [pytest.mark.postgres], "mariadb": [pytest.mark.mariadb]}


def _suite_runs() -> list:
    """Framework × example × database, or (by default, for CI time) a diagonal of it:
    each framework runs each example once and each database once, the examples taking
    turns on PostgreSQL, and Django's library suite runs on MariaDB too (FastAPI's
    conformance deployment there is the todo example). The conformance suite serves
    every example on both databases; ``PANELFORGE_FULL_MATRIX=1`` runs every
    combination here too, MariaDB included."""
    databases = ["sqlite", "postgres"]
    full = bool(os.environ.get("PANELFORGE_FULL_MATRIX"))
    chosen: list[tuple[str, str, str]] = []
    for f, framework in enumerate(FRAMEWORKS):
        for e, example in enumerate(EXAMPLE_IDS):
            if full:
                chosen += [(framework, example, d) for d in [*databases, "mariadb"]]
            else:
                chosen.append((framework, example, databases[(f + e) % 2]))
    if not full:
        chosen.append(("django", "library", "mariadb"))
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


def test_pip_install_then_migrate_in_a_fresh_venv(
    generated, fresh_copy, tmp_path
) -> None:
    """`pip install -e .` is all a user needs; then `python -m app migrate` works."""
    project = fresh_copy(generated("todo"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "-e", str(project)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    env = {
        k: v for k, v in os.environ.items() if k not in {"PYTHONPATH", "VIRTUAL_ENV"}
    }
    env["DATABASE_URL"] = f"sqlite:///{tmp_path / 'installed.db'}"
    for args in (["--help"], ["migrate"], ["serve", "--help"]):
        result = subprocess.run(
            [str(python), "-m", "app", *args],
            cwd=tmp_path,  # not the project folder: the installed package must be found
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, (args, result.stdout, result.stderr)
    assert (tmp_path / "installed.db").is_file()


@pytest.mark.skipif("django" not in FRAMEWORKS, reason="the Django target is off")
def test_pip_install_then_migrate_django_project_in_a_fresh_venv(
    generated, fresh_copy, tmp_path
) -> None:
    """`pip install -e .` installs what the Django project needs; manage.py works."""
    project = fresh_copy(generated("todo", "django"))
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", "-e", str(project)],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert install.returncode == 0, install.stdout[-3000:] + install.stderr[-3000:]
    env = {
        **{
            k: v
            for k, v in os.environ.items()
            if k not in {"PYTHONPATH", "VIRTUAL_ENV"}
        },
        "DATABASE_URL": f"sqlite:///{tmp_path / 'installed.db'}",
        "SECRET_KEY": project_env(project, "")["SECRET_KEY"],
        "JWT_SECRET": project_env(project, "")["JWT_SECRET"],
    }
    for args in (["check", "--deploy", "--fail-level", "ERROR"], ["migrate"]):
        result = subprocess.run(
            [str(python), "manage.py", *args],
            cwd=project,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, (args, result.stdout, result.stderr)
    assert (tmp_path / "installed.db").is_file()


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
