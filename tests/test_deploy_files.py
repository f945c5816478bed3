"""The emitted Dockerfile and compose.yaml, checked without Docker (issue 17).

No Docker daemon (and no registry but PyPI's) is reachable where this suite runs, so
the files are read as Docker would read them and held against the project they ship
with: the image installs an extra the project declares, on a Python it supports, and
serves with the command the conformance suite serves with; compose migrates once
before the app starts, on a DATABASE_URL the project's own parser accepts, and asks
for every secret the project refuses to start without. The golden trees are the
generated projects (``test_golden.py`` holds them equal).
"""

from __future__ import annotations

import fnmatch
import json
import re
import shlex
import tomllib
from pathlib import Path

import pytest
import yaml
from conftest import EXAMPLE_IDS, FRAMEWORKS, REPO

GOLDEN = REPO / "tests" / "golden"
SERVE = {
    "fastapi": ["python", "-m", "app", "serve", "--host", "0.0.0.0", "--port", "8000"],
    "django": ["gunicorn", "config.wsgi:application", "--bind", "0.0.0.0:8000"],
}
MIGRATE = {
    "fastapi": ["python", "-m", "app", "migrate"],
    "django": ["python", "manage.py", "migrate", "--no-input"],
}
_CONTINUED = re.compile(r"\\\n\s*")

each_project = pytest.mark.parametrize(
    "project",
    [
        pytest.param(GOLDEN / example / framework, id=f"{example}-{framework}")
        for example in EXAMPLE_IDS
        for framework in FRAMEWORKS
    ],
)


def _instructions(dockerfile: Path) -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) in order, continuation lines joined."""
    text = _CONTINUED.sub(" ", dockerfile.read_text("utf-8"))
    found = []
    for line in text.splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            instruction, _, arguments = line.partition(" ")
            found.append((instruction.upper(), arguments.strip()))
    return found


def _framework(project: Path) -> str:
    return project.name


def _manifest(project: Path) -> dict:
    return yaml.safe_load((project / ".panelforge" / "manifest.yaml").read_text())


@each_project
def test_the_image_installs_a_declared_extra_and_serves_as_the_tests_do(
    project: Path,
) -> None:
    steps = _instructions(project / "Dockerfile")
    names = [name for name, _ in steps]
    assert names[0] == "FROM" and names.count("FROM") == 1
    image = steps[0][1]
    version = re.fullmatch(r"python:(3\.\d+)-slim", image)
    assert version, image
    metadata = tomllib.loads((project / "pyproject.toml").read_text("utf-8"))
    lowest = metadata["project"]["requires-python"].removeprefix(">=")
    assert tuple(map(int, version.group(1).split("."))) >= tuple(
        map(int, lowest.split("."))
    )
    runs = " && ".join(arguments for name, arguments in steps if name == "RUN")
    extras = re.findall(r'pip install -e "\.\[([a-z,]+)\]"', runs)
    assert extras, runs
    declared = metadata["project"]["optional-dependencies"]
    assert set(extras[0].split(",")) <= set(declared)
    # Installed before the user changes, served by that user (never root).
    assert names.index("RUN") < names.index("USER")
    user = dict(steps)["USER"]
    assert user != "root" and f"useradd --system --no-create-home {user}" in runs
    command = json.loads(dict(steps)["CMD"])
    assert command == SERVE[_framework(project)]
    assert "8000" in dict(steps)["EXPOSE"].split()


@each_project
def test_the_image_leaves_out_local_state(project: Path) -> None:
    patterns = [
        line.strip()
        for line in (project / ".dockerignore").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for local in (".venv/", ".git/", ".env", "library_admin.db", "app.db-wal"):
        assert any(
            fnmatch.fnmatch(local, pattern) or local == pattern for pattern in patterns
        ), local
    for shipped in ("pyproject.toml", "app/__init__.py", ".panelforge/manifest.yaml"):
        assert not any(fnmatch.fnmatch(shipped, p) for p in patterns), shipped


@each_project
def test_compose_migrates_once_then_serves_on_postgresql(project: Path) -> None:
    compose = yaml.safe_load((project / "compose.yaml").read_text("utf-8"))
    services = compose["services"]
    assert set(services) == {"db", "migrate", "app"}
    assert services["db"]["image"].startswith("postgres:")
    assert services["db"]["healthcheck"]["test"][0] == "CMD-SHELL"
    migrate, app = services["migrate"], services["app"]
    assert migrate["command"] == MIGRATE[_framework(project)]
    assert migrate["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert app["depends_on"] == {
        "migrate": {"condition": "service_completed_successfully"}
    }
    assert "command" not in app  # the image's CMD
    assert migrate["build"] == app["build"] == "."
    environment = migrate["environment"]
    assert {k: v for k, v in app["environment"].items() if k != "WEB_CONCURRENCY"} == (
        environment
    )
    db = services["db"]["environment"]
    user, password, name = (
        db["POSTGRES_USER"],
        db["POSTGRES_PASSWORD"],
        db["POSTGRES_DB"],
    )
    url = environment["DATABASE_URL"]
    assert re.fullmatch(
        rf"postgresql(\+psycopg)?://{user}:{password}@db:5432/{name}", url
    ), url
    required = {"SECRET_KEY"}
    if (_manifest(project).get("auth") or {}).get("jwt"):
        required.add("JWT_SECRET")
    secrets = {k for k, v in environment.items() if str(v).startswith("${")}
    assert secrets == required
    for name in required:
        assert re.fullmatch(rf"\$\{{{name}:\?.+\}}", environment[name])


@each_project
def test_the_readme_names_the_files_and_the_commands(project: Path) -> None:
    readme = (project / "README.md").read_text("utf-8")
    chapter = readme.split("## Deploying", 1)[1].split("\n## ", 1)[0]
    for name in ("Dockerfile", "compose.yaml", "docker compose up --build"):
        assert name in chapter
    compose = (project / "compose.yaml").read_text("utf-8")
    first_user = re.search(r"docker compose run --rm app ([^`\n]+)", compose)
    assert first_user and first_user.group(1) in chapter
    assert shlex.split(first_user.group(1))[0] == "python"
