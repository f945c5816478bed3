"""Shared fixtures: generated example projects, served apps, PostgreSQL databases."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any

import httpx
import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((REPO / "examples").glob("*.yaml"))
EXAMPLE_IDS = [p.stem for p in EXAMPLES]
FRAMEWORKS = ["fastapi", "django"]
PG_ADMIN_URL = "postgresql://postgres@127.0.0.1:5432/test"
MARIADB = {"host": "127.0.0.1", "port": 3306, "user": "root"}


# With pytest-xdist (``-n auto``) each conformance module runs whole in one worker, in
# its order: its module-scoped deployments start once, and a test comparing both
# frameworks' pages sees what the module's earlier tests did to both. (The session's
# shared deployments, ``fleet``, start in each worker that uses them.) Every other test
# is a unit of its own. xdist's own ``xdist_group`` marks cannot say this on pytest 9.2+
# (they rename test ids, which pytest no longer lets a plugin do), so the scheduler
# groups by path itself.
CONFORMANCE_IDS = "tests/conformance/"


def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """Conformance tests by module, every other test on its own."""
    from xdist.scheduler import LoadScopeScheduling

    class ConformanceModules(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            path = nodeid.split("::", 1)[0]
            return path if path.startswith(CONFORMANCE_IDS) else nodeid

    return ConformanceModules(config, log)


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-golden",
        action="store_true",
        help="rewrite tests/golden from the current generator output",
    )


def run_panelforge(*args: str, cwd: Path | None = None, env: dict | None = None):
    """Run the CLI as a user would, in a subprocess; return the CompletedProcess."""
    return subprocess.run(
        [sys.executable, "-m", "generator", *args],
        cwd=cwd or REPO,
        env={**os.environ, "PYTHONPATH": str(REPO), **(env or {})},
        capture_output=True,
        text=True,
        timeout=300,
    )


def tree_files(root: Path) -> dict[str, bytes]:
    """Every file under ``root`` by POSIX path (caches and databases skipped)."""
    skip = {"__pycache__", ".pytest_cache", ".ruff_cache", ".hypothesis"}
    files = {}
    for path in sorted(root.rglob("*")):
        if (
            path.is_file()
            and not skip.intersection(path.parts)
            and path.suffix != ".db"
        ):
            files[path.relative_to(root).as_posix()] = path.read_bytes()
    return files


@pytest.fixture(scope="session")
def generated(tmp_path_factory: pytest.TempPathFactory):
    """Generate each (example, framework) once per session; returns a path factory."""
    made: dict[tuple[str, str], Path] = {}

    def make(example: str, framework: str = "fastapi") -> Path:
        key = (example, framework)
        if key not in made:
            dest = tmp_path_factory.mktemp(f"{example}-{framework}") / "project"
            result = run_panelforge(
                "generate",
                str(REPO / "examples" / f"{example}.yaml"),
                "-o",
                str(dest),
                "--framework",
                framework,
                "--quiet",
            )
            assert result.returncode == 0, result.stderr
            made[key] = dest
        return made[key]

    return make


# Ports for the servers the tests start, below Linux's ephemeral range (where bind(0)
# and outgoing connections take theirs), a band per pytest-xdist worker.
_PORT_BANDS, _PORT_BAND_SIZE, _PORT_BASE = 12, 1000, 20000
_handed_out: set[int] = set()


def free_port() -> int:
    """A free TCP port on the loopback interface, never handed out twice in a run.

    A server binds its port seconds after it is chosen (its migrations run first).
    With ``bind(0)`` another worker could be given the same port meanwhile and its
    server would answer in this one's place; here each worker takes ports from a band
    of its own, outside the range the kernel hands out.
    """
    worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw")
    band = int(worker) % _PORT_BANDS if worker.isdigit() else 0
    low = _PORT_BASE + band * _PORT_BAND_SIZE
    for port in range(low, low + _PORT_BAND_SIZE):
        if port in _handed_out:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        _handed_out.add(port)
        return port
    raise RuntimeError(f"no free port left in {low}-{low + _PORT_BAND_SIZE - 1}")


def project_env(project: Path, database_url: str) -> dict[str, str]:
    """Environment for running an emitted project from its folder without installing."""
    return {
        **os.environ,
        "PYTHONPATH": str(project),
        "DATABASE_URL": database_url,
        "PYTHONDONTWRITEBYTECODE": "1",
        # Sessions are signed with it; the panel refuses to serve without one.
        "SECRET_KEY": "e2e-tests-only-secret-key-0123456789abcdef",
        # Tokens are, in JWT mode (32 bytes, base64).
        "JWT_SECRET": "ZTJlLXRlc3RzLW9ubHkgand0IHNlY3JldCwgMzIgYnk=",
    }


class Server:
    """An emitted FastAPI project served by its own ``python -m app serve`` on loopback.

    The other frameworks' servers (``SERVERS``) have the same methods.
    """

    framework = "fastapi"
    # Whether it takes ``X-Forwarded-Proto`` from loopback as the request's scheme.
    trusts_forwarded_proto = True

    def __init__(self, project: Path, database_url: str) -> None:
        self.project = project
        self.database_url = database_url
        self.env = project_env(project, database_url)
        self.port = free_port()
        self.base_url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.log: IO[bytes] | None = None

    def run_app(
        self, *args: str, input: str | None = None
    ) -> subprocess.CompletedProcess:
        """Run ``python -m app ARGS`` in the project (``input`` on its stdin)."""
        result = subprocess.run(
            self.command(*args),
            cwd=self.project,
            env=self.env,
            input=input,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert result.returncode == 0, result.stdout + result.stderr
        return result

    def serve_command(self) -> list[str]:
        """The command line that serves the project on ``self.port``."""
        return [
            sys.executable,
            "-m",
            "app",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
        ]

    def migrate(self) -> None:
        """Create the schema in the (empty) database."""
        self.run_app("migrate")

    def oag_generate(self) -> subprocess.CompletedProcess:
        """Write the project's OpenAPI files with its own command."""
        return self.run_app("oag:generate")

    def start(self) -> None:
        """Start the server and wait until it answers."""
        # A file, not a pipe: a pipe nobody reads fills up and blocks the server.
        self.log = tempfile.TemporaryFile()
        self.process = subprocess.Popen(
            self.serve_command(),
            cwd=self.project,
            env=self.env,
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"server exited early:\n{self._read_log()}")
            try:
                httpx.get(self.base_url + "/admin", timeout=1)
                return
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError("server did not start within 30 s")

    def command(self, *args: str) -> list[str]:
        """The command line of the project's command ``ARGS``."""
        return [sys.executable, "-m", "app", *args]

    def create_user(self, email: str, password: str) -> None:
        """Add a panel user with ``python -m app create-user``."""
        self.run_app("create-user", email, "--password-stdin", input=password + "\n")

    def stop(self) -> str:
        """Stop the server; returns what it printed (its log)."""
        if self.process is None:
            return ""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        output = self._read_log()
        if self.log is not None:
            self.log.close()
            self.log = None
        return output

    def _read_log(self) -> str:
        if self.log is None:
            return ""
        self.log.seek(0)
        return self.log.read().decode("utf-8", "replace")


class DjangoServer(Server):
    """An emitted Django project: ``manage.py`` commands, served by gunicorn."""

    framework = "django"
    # Our names of the commands, as the Django project spells them.
    COMMANDS = {
        "migrate": ("migrate", "--no-input"),
        "create-user": ("create_user",),
        "set-role": ("set_role",),
        "oag:generate": ("oag_generate",),
        "prune-history": ("prune_history",),
    }

    def __init__(self, project: Path, database_url: str) -> None:
        super().__init__(project, database_url)
        self.env.pop("DEBUG", None)
        self.env["ALLOWED_HOSTS"] = "127.0.0.1,localhost"

    def command(self, *args: str) -> list[str]:
        """``python manage.py ARGS``, with our command names translated."""
        name, *rest = args
        return [sys.executable, "manage.py", *self.COMMANDS.get(name, (name,)), *rest]

    def serve_command(self) -> list[str]:
        """gunicorn, one worker, access log on stdout (as uvicorn prints one)."""
        return [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{self.port}",
            "--workers",
            "1",
            "--access-logfile",
            "-",
        ]


class RunserverServer(DjangoServer):
    """An emitted Django project served by ``manage.py runserver`` (no reloader).

    A development server: it trusts no proxy's ``X-Forwarded-Proto``.
    """

    trusts_forwarded_proto = False

    def serve_command(self) -> list[str]:
        """``runserver`` on ``self.port``, as the README's first steps run it."""
        address = f"127.0.0.1:{self.port}"
        return [sys.executable, "manage.py", "runserver", address, "--noreload"]


class DjangoAsgiServer(DjangoServer):
    """An emitted Django project over ASGI: ``uvicorn config.asgi:application``."""

    def serve_command(self) -> list[str]:
        """uvicorn on ``self.port``, as the README names it."""
        return [
            sys.executable,
            "-m",
            "uvicorn",
            "config.asgi:application",
            "--host",
            "127.0.0.1",
            "--port",
            str(self.port),
        ]


SERVERS: dict[str, type[Server]] = {"fastapi": Server, "django": DjangoServer}


def postgres_available() -> bool:
    """Whether the PostgreSQL server on 127.0.0.1:5432 answers."""
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN_URL, connect_timeout=3):
            return True
    except Exception:
        return False


NO_POSTGRES = "no PostgreSQL server answers on 127.0.0.1:5432"


@contextmanager
def postgres_database() -> Iterator[str]:
    """A new, empty PostgreSQL database (its URL), dropped afterwards.

    Skips the test (with ``NO_POSTGRES``) when no server answers.
    """
    if not postgres_available():
        pytest.skip(NO_POSTGRES)
    import psycopg

    name = f"pf_{uuid.uuid4().hex[:12]}"
    with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with psycopg.connect(PG_ADMIN_URL, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def mariadb_available() -> bool:
    """Whether a MariaDB (or MySQL) server answers on 127.0.0.1:3306 as root."""
    try:
        import pymysql

        pymysql.connect(**MARIADB, connect_timeout=3).close()
        return True
    except Exception:
        return False


NO_MARIADB = "no MariaDB/MySQL server answers on 127.0.0.1:3306 (root, no password)"


def mariadb_admin(statement: str) -> None:
    """Run one statement on the MariaDB server as root."""
    import pymysql

    connection = pymysql.connect(**MARIADB, autocommit=True)
    try:
        with connection.cursor() as cursor:
            cursor.execute(statement)
    finally:
        connection.close()


@contextmanager
def mariadb_database() -> Iterator[str]:
    """A new, empty MariaDB/MySQL database (its URL), dropped afterwards.

    Made as the README says to make one (utf8mb4, binary collation). Skips the test
    (with ``NO_MARIADB``) when no server answers.
    """
    if not mariadb_available():
        pytest.skip(NO_MARIADB)
    name = f"pf_{uuid.uuid4().hex[:12]}"
    mariadb_admin(f"CREATE DATABASE `{name}` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin")
    try:
        yield f"mysql://root@127.0.0.1:3306/{name}"
    finally:
        mariadb_admin(f"DROP DATABASE IF EXISTS `{name}`")


MARIADB_PARAM = pytest.param("mariadb", marks=pytest.mark.mariadb)


@pytest.fixture
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: SQLite in tmp_path, or a new PostgreSQL or MariaDB
    database."""
    kind = getattr(request, "param", "sqlite")
    if kind == "sqlite":
        yield f"sqlite:///{tmp_path / 'app.db'}"
        return
    with mariadb_database() if kind == "mariadb" else postgres_database() as url:
        yield url


def sqlalchemy_url(url: str) -> str:
    """``url`` for ``sqlalchemy.create_engine`` in the tests (MySQL through PyMySQL)."""
    return (
        "mysql+pymysql://" + url[len("mysql://") :]
        if url.startswith("mysql://")
        else url
    )


@pytest.fixture
def fresh_copy(tmp_path: Path):
    """Copy a generated project so a test may change it freely."""

    def copy(project: Path) -> Path:
        target = tmp_path / "copy"
        shutil.copytree(project, target, ignore=shutil.ignore_patterns("__pycache__"))
        return target

    return copy
