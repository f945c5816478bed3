"""From `copier copy` to a green CI: the bootstrapped project checks, regenerates to
itself, keeps its identity, and every `run:` step of its own workflow passes in a
fresh virtualenv (issue #25).

Every case: `panelforge check -o .` exits 0 right after `copier copy`, regenerating
adds no change, and the default database file and the JWT issuer are the answered
project's and stay so (even when regenerated from the original manifest, whose name
differs). The whole workflow runs for two cases, one per framework: a fresh
virtualenv per case (~1 min with pip's cache) plus the project's own tests; then, in
that venv, what a user runs next (``python -m app migrate`` from another folder, or
``manage.py check --deploy`` and ``migrate``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml
from conftest import REPO, project_env, run_panelforge, tree_files

pytestmark = pytest.mark.e2e

# (answers, or None for --defaults; expected name, framework, jwt). "custom-*" cases
# answer every question with a non-default value (the defaults are the manifest's).
CASES: dict[str, tuple[dict[str, str] | None, str, str, bool]] = {
    "defaults": (None, "library_admin", "fastapi", False),
    "custom-fastapi-jwt": (
        {
            "manifest": "{django_library}",  # a path; its framework is django
            "project_name": "shelf_panel",
            "project_title": "Shelf panel",
            "framework": "fastapi",
            "jwt": "true",
            "token_ttl": "900",
        },
        "shelf_panel",
        "fastapi",
        True,
    ),
    "custom-django-session": (
        {
            "manifest": "todo",  # JWT on, fastapi, 1800 s
            "project_name": "acme_tasks",
            "project_title": "Acme tasks",
            "framework": "django",
            "jwt": "false",
        },
        "acme_tasks",
        "django",
        False,
    ),
    "custom-django-jwt": (
        {
            "manifest": "library",
            "project_name": "stacks_admin",
            "project_title": "Stacks",
            "framework": "django",
            "jwt": "true",
            "token_ttl": "600",
        },
        "stacks_admin",
        "django",
        True,
    ),
}
WORKFLOW_CASES = ["custom-fastapi-jwt", "custom-django-session"]

# What the workflow's comment tells users to put instead of the local-install line.
LOCAL_LINE = (
    'echo "Install panelforge: edit the Install step of .github/workflows/panel.yml"'
    " >&2 && exit 1"
)


def _copier_copy(tmp_path: Path, case: str) -> Path:
    answers, *_ = CASES[case]
    django_library = tmp_path / "django-library.yaml"
    text = (REPO / "examples" / "library.yaml").read_text()
    django_library.write_text(text.replace("framework: fastapi", "framework: django"))
    data = []
    for key, value in (answers or {}).items():
        data += ["-d", f"{key}={value.format(django_library=django_library)}"]
    dest = tmp_path / "my-panel"
    result = subprocess.run(
        [sys.executable, "-m", "copier", "copy", "--trust", "--defaults"]
        + ["--vcs-ref", "HEAD", *data, str(REPO), str(dest)],
        cwd=tmp_path,
        env={**os.environ, "PWD": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    return dest


def _identity(project: Path, framework: str) -> tuple[str, str]:
    """(default database file, JWT issuer) as the emitted settings say."""
    if framework == "fastapi":
        config = (project / "app/core/config.py").read_text()
        database = config.split("PROJECT_DIR / '", 1)[1].split("'", 1)[0]
        issuer = config.split("jwt_issuer: str = ", 1)[1].split("\n", 1)[0]
    else:
        config = (project / "config/settings.py").read_text()
        database = config.split('"sqlite:///', 1)[1].split('"', 1)[0]
        issuer = config.split('env_str("JWT_ISSUER", ', 1)[1].split(")", 1)[0]
    return database, json.loads(issuer)


def _check(project: Path) -> subprocess.CompletedProcess:
    return run_panelforge("check", "-o", ".", cwd=project)


@pytest.mark.parametrize("case", list(CASES))
def test_copier_project_checks_regenerates_and_keeps_identity(
    tmp_path: Path, case: str
) -> None:
    answers, name, framework, jwt = CASES[case]
    project = _copier_copy(tmp_path, case)
    state = json.loads((project / ".panelforge/state.json").read_text())
    assert (state["project"]["name"], state["project"]["framework"]) == (
        name,
        framework,
    )
    assert state["project"]["auth"]["jwt"] is jwt
    assert state["install"] == {"kind": "local", "requirement": ""}

    checked = _check(project)
    assert checked.returncode == 0, checked.stdout + checked.stderr
    assert "cannot install panelforge in CI" in checked.stderr  # a local template

    identity = (f"{name}.db", name)
    assert _identity(project, framework) == identity
    before = tree_files(project)
    again = run_panelforge(
        "generate", ".panelforge/manifest.yaml", "-o", ".", cwd=project
    )
    assert again.returncode == 0, again.stdout + again.stderr
    assert tree_files(project) == before, "regenerating changed the project"
    assert _identity(project, framework) == identity

    if answers is not None:  # the original manifest names the project otherwise
        original = answers["manifest"].format(
            django_library=tmp_path / "django-library.yaml"
        )
        if "/" not in original:
            original = str(REPO / "examples" / f"{original}.yaml")
        renamed = run_panelforge(
            "generate", original, "-o", ".", "--framework", framework, cwd=project
        )
        assert renamed.returncode == 0, renamed.stdout + renamed.stderr
        assert "kept the default database file" in renamed.stderr
        assert _identity(project, framework) == identity


def _venv(tmp_path: Path) -> dict[str, str]:
    """A fresh virtualenv (no system site-packages; pip's cache is used)."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=True, system_site_packages=False).create(env_dir)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in {"PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME", "PIP_NO_CACHE_DIR"}
    }
    env["VIRTUAL_ENV"] = str(env_dir)
    env["PATH"] = f"{env_dir / 'bin'}{os.pathsep}{env['PATH']}"
    return env


def _as_told(run: str) -> str:
    """The Install step with its panelforge line replaced as its comment says:
    by one installing the same panelforge (here: this checkout, a local path)."""
    assert LOCAL_LINE in run.splitlines()[-1].strip(), run
    return run.replace(LOCAL_LINE, f'python -m pip install -e "{REPO}"')


@pytest.mark.parametrize("case", WORKFLOW_CASES)
def test_every_workflow_step_passes_in_a_fresh_venv(tmp_path: Path, case: str) -> None:
    project = _copier_copy(tmp_path, case)
    workflow = yaml.safe_load((project / ".github/workflows/panel.yml").read_text())
    steps = [s for s in workflow["jobs"]["test"]["steps"] if "run" in s]
    assert [s["name"] for s in steps][:2] == [
        "Install",
        "Generated files match the manifest",
    ]
    env = _venv(tmp_path)
    for step in steps:
        run = _as_told(step["run"]) if step["name"] == "Install" else step["run"]
        result = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", run],
            cwd=project,
            env={**env, **{k: str(v) for k, v in step.get("env", {}).items()}},
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert result.returncode == 0, (
            f"step {step['name']!r} failed:\n"
            + result.stdout[-4000:]
            + result.stderr[-3000:]
        )
    _then_what_users_run_next(project, tmp_path, env, CASES[case][2])


def _then_what_users_run_next(
    project: Path, tmp_path: Path, env: dict[str, str], framework: str
) -> None:
    """In the venv the workflow installed into: the FastAPI project's package is found
    from any folder (``python -m app``), the Django one passes ``check --deploy``; and
    both migrate a new database."""
    env = {**env, "DATABASE_URL": f"sqlite:///{tmp_path / 'installed.db'}"}
    if framework == "fastapi":
        commands = [["-m", "app", *args] for args in (["--help"], ["migrate"])]
        commands.append(["-m", "app", "serve", "--help"])
        where = tmp_path  # not the project folder
    else:
        secrets = project_env(project, "")
        env |= {name: secrets[name] for name in ("SECRET_KEY", "JWT_SECRET")}
        commands = [
            ["manage.py", "check", "--deploy", "--fail-level", "ERROR"],
            ["manage.py", "migrate"],
        ]
        where = project
    for command in commands:
        result = subprocess.run(
            ["python", *command],
            cwd=where,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, (command, result.stdout, result.stderr)
    assert (tmp_path / "installed.db").is_file()
