"""Serving: the emitted FastAPI and Django projects against hand-written stacks.

One worker each on 127.0.0.1, the same 10,000 rows (a fresh copy of one seeded SQLite
file for every server start: one migrated by the FastAPI project, which the baselines
share, and one migrated by the Django project), interleaved rounds (reverse order on
odd rounds). Per
server: log in if it needs to, check a list, a show and a create answer correctly,
then for list, show and create: a warm-up run, then the measured run (wrk).
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from . import emitted, seed
from .common import BENCH_DIR, interleave
from .loadgen import Load, Result, post_script, wrk
from .servers import Server, fetch, gunicorn_argv, uvicorn_argv

ROWS = 10_000
BASELINES = BENCH_DIR / "baselines"
OPS = ("list", "show", "create")
CREATE_BODY = {
    "title": "Bench",
    "body": "Created by the benchmark.",
    "published": True,
    "created_at": "2024-01-01T00:00:00",
}
Headers = dict[str, str]


@dataclass
class ServingConfig:
    """Rounds and durations (seconds) of the wrk runs."""

    rounds: int = 2
    seconds: int = 4
    create_seconds: int = 2
    warmup: int = 1
    connections: int = 16
    rows: int = ROWS
    groups: tuple[str, ...] = ("fastapi", "django")  # which stacks to measure


@dataclass
class Stack:
    """One row of the table: how to serve it, and how to log in to it."""

    key: str
    label: str
    server: Callable[[Path, Path], Server]  # (database file, log) → server
    login: Callable[[Server], tuple[Headers, Headers]]
    group: str = "fastapi"
    master: Path | None = None  # the database to copy, if not the shared one


@dataclass
class ServingResult:
    """Every run, per (stack key, operation), and what the run was."""

    config: ServingConfig
    stacks: list[Stack] = field(default_factory=list)
    runs: dict[tuple[str, str], list[Result]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    pragmas: list[str] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)


@dataclass
class Setup:
    """The seeded database, the emitted projects and what the baselines share."""

    master: Path
    session: emitted.Project
    jwt: emitted.Project | None
    pragmas: list[str]
    jwt_secret: str
    notes: list[str]
    django_master: Path | None = None
    django: list[emitted.Project] = field(default_factory=list)


def prepare(work: Path, rows: int, log: Callable[[str], None]) -> Setup:
    """Generate the projects, migrate and seed the databases, add the user."""
    notes: list[str] = []
    log("  generating the articles project (session and JWT modes)")
    session = emitted.generate(work, jwt=False)
    master = work / "master.db"
    url = f"sqlite:///{master}"
    session.app(url, "migrate")
    seed.seed_sqlite(master, rows)
    session.create_user(url)
    pragmas = emitted.sqlite_pragmas(session.path)
    if pragmas is None:
        notes.append("app/core/db.py has no _SQLITE_PRAGMAS: baselines run untuned")
        pragmas = []
    jwt_project: emitted.Project | None = emitted.generate(work, jwt=True)
    secret = emitted.jwt_secret(jwt_project, url)
    if secret is None:
        notes.append("JWT rows skipped: the emitted project has no `jwt:secret`")
        jwt_project = None
    else:
        jwt_project.jwt_secret = secret
        jwt_project.app(url, "migrate")  # the same schema: nothing to do
    seed.sqlite_journal_default(master)
    setup = Setup(master, session, jwt_project, pragmas, secret or "", notes)
    _prepare_django(setup, work, rows, log)
    return setup


def _prepare_django(setup: Setup, work: Path, rows: int, log: Callable) -> None:
    """The Django project in session and JWT modes, on a database it migrated."""
    log("  generating the articles project for Django (session and JWT modes)")
    master = work / "master-django.db"
    url = f"sqlite:///{master}"
    session = emitted.generate(work, jwt=False, framework="django")
    session.app(url, "migrate")
    seed.seed_sqlite(master, rows)
    session.create_user(url)
    seed.sqlite_journal_default(master)
    setup.django_master = master
    setup.django.append(session)
    jwt_project = emitted.generate(work, jwt=True, framework="django")
    secret = emitted.jwt_secret(jwt_project, url)
    if secret is None:
        setup.notes.append("Django JWT row skipped: no `manage.py jwt_secret`")
        return
    jwt_project.jwt_secret = secret
    setup.django.append(jwt_project)


def _baseline_env(db: Path, pragmas: list[str], **extra: str) -> dict[str, str]:
    env = {**os.environ, "BENCH_DB": str(db), "BENCH_PRAGMAS": json.dumps(pragmas)}
    return {**env, **extra}


def _open(_server: Server) -> tuple[Headers, Headers]:
    headers = {"Accept": "application/json"}
    return headers, dict(headers)


def _bearer(secret: str) -> Callable[[Server], tuple[Headers, Headers]]:
    def login(_server: Server) -> tuple[Headers, Headers]:
        import jwt

        claims = {"sub": "1", "exp": int(time.time()) + 3600}
        token = jwt.encode(claims, secret, algorithm="HS256")
        headers = {"Accept": "application/json", "Authorization": f"Bearer {token}"}
        return headers, dict(headers)

    return login


def _uvicorn_baseline(module: str, pragmas: list[str], **extra: str) -> Callable:
    def make(db: Path, log: Path) -> Server:
        argv = uvicorn_argv(f"{module}:app", "--app-dir", str(BASELINES))
        return Server(argv, BASELINES, _baseline_env(db, pragmas, **extra), log)

    return make


def _django(view: str, pragmas: list[str]) -> Callable:
    def make(db: Path, log: Path) -> Server:
        argv = gunicorn_argv("django_site.wsgi:application", BASELINES)
        env = _baseline_env(db, pragmas, BENCH_DJANGO_VIEW=view)
        return Server(argv, BASELINES, env, log)

    return make


def _emitted(project: emitted.Project) -> tuple[Callable, Callable]:
    def make(db: Path, log: Path) -> Server:
        return project.server(f"sqlite:///{db}", log)

    def login(server: Server) -> tuple[Headers, Headers]:
        return emitted.login_headers(server, project)

    return make, login


def stacks(setup: Setup) -> list[Stack]:
    """Every stack to measure, emitted first."""
    tuned, secret = setup.pragmas, setup.jwt_secret
    found = [Stack("emitted", "emitted FastAPI (session)", *_emitted(setup.session))]
    if setup.jwt:
        found.append(
            Stack("emitted-jwt", "emitted FastAPI (JWT)", *_emitted(setup.jwt))
        )
    found += [
        Stack(
            "b",
            "b FastAPI + ORM + Pydantic",
            _uvicorn_baseline("fastapi_orm", tuned),
            _open,
        ),
        Stack(
            "b-default",
            "b, SQLite defaults",
            _uvicorn_baseline("fastapi_orm", []),
            _open,
        ),
    ]
    if secret:
        make = _uvicorn_baseline("fastapi_orm", tuned, BENCH_JWT_SECRET=secret)
        found.append(
            Stack("e", "e = b + JWT (HTTPBearer, PyJWT)", make, _bearer(secret))
        )
    found += [
        Stack(
            "a",
            "a Starlette + sqlite3 + orjson",
            _uvicorn_baseline("starlette_raw", tuned),
            _open,
        ),
        Stack(
            "a-default",
            "a, SQLite defaults",
            _uvicorn_baseline("starlette_raw", []),
            _open,
        ),
        Stack(
            "c",
            "c DRF ModelViewSet, gunicorn sync",
            _django("drf", tuned),
            _open,
            "django",
        ),
        Stack(
            "d",
            "d Django JsonResponse(.values()), gunicorn sync",
            _django("values", tuned),
            _open,
            "django",
        ),
    ]
    for project in setup.django:
        mode = "JWT" if project.jwt else "session"
        key = "emitted-django-jwt" if project.jwt else "emitted-django"
        found.append(
            Stack(
                key,
                f"emitted Django ({mode}), gunicorn sync",
                *_emitted(project),
                "django",
                setup.django_master,
            )
        )
    return found


def _rows_and_total(answer: dict) -> tuple[list, int]:
    rows = answer.get("data", answer.get("results"))
    total = answer.get("total", answer.get("count"))
    return rows, total


def verify(server: Server, read: Headers, write: Headers, rows: int) -> None:
    """Check list, show and create answer as expected before measuring."""
    status, _, data = fetch(server.port, "GET", emitted.LIST, read)
    found, total = _rows_and_total(json.loads(data)) if status == 200 else ([], 0)
    if status != 200 or len(found) != 25 or total != rows or found[0]["id"] != rows:
        raise RuntimeError(f"list answered {status}: {data[:300]!r}")
    status, _, data = fetch(server.port, "GET", emitted.SHOW, read)
    if status != 200 or json.loads(data).get("title") != "Article 42":
        raise RuntimeError(f"show answered {status}: {data[:300]!r}")
    body = json.dumps(CREATE_BODY).encode()
    headers = {**write, "Content-Type": "application/json"}
    status, _, data = fetch(server.port, "POST", emitted.CREATE, headers, body)
    answer = json.loads(data) if status in (200, 201) else {}
    created = answer.get("data", answer)
    if status != 201 or created.get("title") != "Bench":
        raise RuntimeError(f"create answered {status}: {data[:300]!r}")


def _measure(
    stack: Stack, server: Server, config: ServingConfig, script: Path
) -> dict[str, Result]:
    read, write = stack.login(server)
    verify(server, read, write, config.rows)
    loads = {
        "list": Load(emitted.LIST, read, config.connections, config.seconds),
        "show": Load(emitted.SHOW, read, config.connections, config.seconds),
        "create": Load(
            emitted.CREATE, write, config.connections, config.create_seconds, script
        ),
    }
    measured = {}
    for op, load in loads.items():
        if config.warmup:
            warm = Load(load.path, load.headers, load.connections, config.warmup)
            warm.script = load.script
            wrk(server, warm)
        measured[op] = wrk(server, load)
    return measured


def run_serving(
    config: ServingConfig, work: Path, log: Callable[[str], None]
) -> ServingResult:
    """Measure every stack over the rounds."""
    result = ServingResult(config)
    work.mkdir(parents=True, exist_ok=True)
    setup = prepare(work, config.rows, log)
    result.notes += setup.notes
    result.pragmas = setup.pragmas
    result.stacks = [s for s in stacks(setup) if s.group in config.groups]
    script = post_script(work / "create.lua", json.dumps(CREATE_BODY))
    (work / "db").mkdir(exist_ok=True)
    for number, stack in interleave(config.rounds, result.stacks):
        log(f"  round {number + 1}/{config.rounds}: {stack.label}")
        db = work / "db" / f"{stack.key}.db"
        for suffix in ("", "-wal", "-shm"):
            Path(f"{db}{suffix}").unlink(missing_ok=True)
        shutil.copyfile(stack.master or setup.master, db)
        server = stack.server(db, work / f"{stack.key}.log")
        server.start(probe="/admin/resource/articles/crud/1")
        try:
            result.loads.append(os.getloadavg()[0])
            for op, measured in _measure(stack, server, config, script).items():
                result.runs.setdefault((stack.key, op), []).append(measured)
                if measured.errors:
                    result.notes.append(
                        f"{stack.key} {op} round {number + 1}: {measured.errors} "
                        "failed requests (non-2xx, connect errors or timeouts)"
                    )
        finally:
            server.stop()
    return result
