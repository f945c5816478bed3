"""The emitted project as users meet it: installed, self-tested, made by copier."""

from __future__ import annotations

import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
from conftest import EXAMPLE_IDS, REPO, project_env, tree_files

pytestmark = pytest.mark.e2e


@pytest.mark.parametrize("database_url", ["sqlite", "postgres"], indirect=True)
@pytest.mark.parametrize("example", EXAMPLE_IDS)
def test_emitted_project_passes_its_own_tests(
    generated, fresh_copy, database_url: str, example: str
) -> None:
    """The project's own suite, schemathesis included, on SQLite and PostgreSQL."""
    project = fresh_copy(generated(example))
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


def test_copier_copy_gives_the_same_project(generated, tmp_path: Path) -> None:
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
            "framework=fastapi",
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
    assert tree_files(dest) == tree_files(generated("library"))
