"""The emitted projects: generate, migrate, add a user, log in, serve.

FastAPI (``python -m app …``, uvicorn) or Django (``python manage.py …``, gunicorn
with one sync worker). The project runs from its folder without being installed
(``PYTHONPATH`` = the project), with panelforge's venv, which holds everything the
project needs.
"""

from __future__ import annotations

import ast
import json
import os
from dataclasses import dataclass
from pathlib import Path

from . import manifests
from .common import PANELFORGE, PYTHON, run
from .servers import Server, fetch, gunicorn_argv, uvicorn_argv

EMAIL = "bench@example.com"
PASSWORD = "correct-horse-battery-staple"
SECRET_KEY = "benchmark-only-secret-key-0123456789abcdefghijklmnop"
LIST = "/admin/resource/articles/crud?page=1"
SHOW = "/admin/resource/articles/crud/42"
CREATE = "/admin/resource/articles/crud"


@dataclass
class Project:
    """A generated articles project."""

    path: Path
    jwt: bool
    jwt_secret: str = ""
    framework: str = "fastapi"

    @property
    def django(self) -> bool:
        """Whether this is the Django project."""
        return self.framework == "django"

    def env(self, database_url: str) -> dict[str, str]:
        """The environment to run the project against ``database_url``."""
        env = {**os.environ, "PYTHONPATH": str(self.path)}
        env.update(DATABASE_URL=database_url, SECRET_KEY=SECRET_KEY)
        if self.jwt_secret:
            env["JWT_SECRET"] = self.jwt_secret
        return env

    def app(self, database_url: str, *args: str, stdin: str | None = None) -> str:
        """Run a project command (``python -m app ARGS``; Django: ``manage.py``).

        Django's commands are spelled with underscores (``create_user``).
        """
        command = ["manage.py", *(a.replace("-", "_") for a in args[:1]), *args[1:]]
        argv = command if self.django else ["-m", "app", *args]
        return run(
            [PYTHON, *argv],
            cwd=self.path,
            env=self.env(database_url),
            input=stdin,
            timeout=300,
        ).stdout

    def create_user(self, database_url: str) -> None:
        """Add the benchmark's panel user (``create-user --password-stdin``)."""
        self.app(
            database_url,
            "create-user",
            EMAIL,
            "--password-stdin",
            stdin=PASSWORD + "\n",
        )

    def server(self, database_url: str, log: Path) -> Server:
        """The project served like every other stack of its framework (one worker)."""
        if self.django:
            argv = gunicorn_argv("config.wsgi:application", self.path)
        else:
            argv = uvicorn_argv("app.main:app")
        return Server(argv, self.path, self.env(database_url), log)


def generate(work: Path, *, jwt: bool, framework: str = "fastapi") -> Project:
    """Generate the articles project (session or JWT mode) under ``work``."""
    name = ("articles-jwt" if jwt else "articles") + (
        "-django" if framework == "django" else ""
    )
    manifest = manifests.dump(manifests.articles(jwt=jwt), work / f"{name}.yaml")
    path = work / name
    env = {**os.environ, "PANELFORGE_CACHE_DIR": str(work / "pf-cache")}
    argv = [PANELFORGE, "generate", manifest, "-o", path, "--quiet"]
    run([*argv, "--framework", framework], env=env)
    return Project(path, jwt, framework=framework)


def jwt_secret(project: Project, database_url: str) -> str | None:
    """A JWT_SECRET from ``jwt:secret`` (Django: ``jwt_secret``), or None."""
    command = "jwt_secret" if project.django else "jwt:secret"
    try:
        return project.app(database_url, command).strip() or None
    except RuntimeError:
        return None


def sqlite_pragmas(project: Path) -> list[str] | None:
    """The PRAGMAs the emitted ``app/core/db.py`` runs on every SQLite connection."""
    try:
        tree = ast.parse((project / "app" / "core" / "db.py").read_text())
    except (OSError, SyntaxError):
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names = {getattr(t, "id", None) for t in targets}
            if "_SQLITE_PRAGMAS" in names and node.value is not None:
                return list(ast.literal_eval(node.value))
    return None


def login_headers(server: Server, project: Project) -> tuple[dict, dict]:
    """Log in over HTTP: headers for reads, and for writes (adds the CSRF token)."""
    body = json.dumps({"username": EMAIL, "password": PASSWORD}).encode()
    status, headers, data = fetch(
        server.port,
        "POST",
        "/admin/authenticate",
        {"Accept": "application/json", "Content-Type": "application/json"},
        body,
    )
    if status != 200:
        raise RuntimeError(f"login failed: {status} {data[:300]!r}")
    answer = json.loads(data)
    read = {"Accept": "application/json"}
    if project.jwt:
        read["Authorization"] = f"Bearer {answer['token']}"
        return read, dict(read)
    cookie = headers.get("set-cookie", "").split(";", 1)[0]
    if not cookie:
        raise RuntimeError("login set no session cookie")
    read["Cookie"] = cookie
    return read, {**read, "X-CSRF-Token": answer["csrf_token"]}
