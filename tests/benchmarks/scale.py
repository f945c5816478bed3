"""Scale: list latency at page 1 and at a deep page, 10,000 vs 1,000,000 rows.

On SQLite and PostgreSQL (127.0.0.1:5432, user postgres; the benchmark creates and
drops its own databases). For each backend and size: the SQL alone, timed in-process
(``COUNT(*)``, the capped count of ``total=estimate``, page 1, the deep page with
OFFSET, and a keyset query at the same depth), then each emitted app's list (FastAPI
and Django, each on its own database) over HTTP at one connection (``wrk -c1``):
page 1 with the exact total, the deep page by OFFSET, the same depth by ``cursor=``,
and page 1 with ``total=estimate`` and ``total=none``; apps, backends and sizes
interleaved over the rounds. The deep page is the middle one (OFFSET rows / 2).
"""

from __future__ import annotations

import base64
import json
import os
import sqlite3
import statistics
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import dataclass, field
from pathlib import Path

from . import emitted, seed
from .common import interleave
from .loadgen import Load, Result, wrk

PG_ADMIN = "postgresql://postgres@127.0.0.1:5432/postgres"
PER_PAGE = 25
COLUMNS = "id, title, body, published, created_at"
QUERIES = {
    "COUNT(*)": "SELECT COUNT(*) FROM articles",
    "capped count (estimate)": (
        "SELECT COUNT(*) FROM (SELECT 1 FROM articles LIMIT 10001) AS capped"
    ),
    "page 1": f"SELECT {COLUMNS} FROM articles ORDER BY id DESC LIMIT 25",
    "deep page (OFFSET)": (
        f"SELECT {COLUMNS} FROM articles ORDER BY id DESC LIMIT 25 OFFSET {{offset}}"
    ),
    "keyset at the same depth": (
        f"SELECT {COLUMNS} FROM articles WHERE id < {{after}} ORDER BY id DESC LIMIT 25"
    ),
}


@dataclass
class ScaleConfig:
    """Sizes, backends, rounds and the length of each HTTP run."""

    sizes: tuple[int, ...] = (10_000, 1_000_000)
    backends: tuple[str, ...] = ("sqlite", "postgres")
    apps: tuple[str, ...] = ("fastapi", "django")
    rounds: int = 2
    seconds: int = 2
    warmup: int = 1
    repeats: int = 5


# The list URLs measured over HTTP, by label (``{deep}``: the middle page number,
# ``{cursor}``: a keyset token for the same depth).
URLS = {
    "page 1": "?page=1",
    "deep page (OFFSET)": "?page={deep}",
    "deep page (cursor)": "?cursor={cursor}",
    "page 1, total=estimate": "?page=1&total=estimate",
    "page 1, total=none": "?page=1&total=none",
}


@dataclass
class ScaleResult:
    """SQL timings (ms, median of repeats); HTTP runs per (app, backend, size, URL)."""

    config: ScaleConfig
    sql: dict[tuple[str, str, int], dict[str, float]] = field(default_factory=dict)
    http: dict[tuple[str, str, int, str], list[Result]] = field(default_factory=dict)
    build_seconds: dict[tuple[str, str, int], float] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)


def deep_page(rows: int) -> int:
    """The middle page of ``rows`` rows."""
    return max(1, rows // PER_PAGE // 2)


def deep_cursor(rows: int) -> str:
    """A ``cursor=`` token for the deep page in the default sort (``-id``).

    Made here as the emitted kernel makes it (base64url of JSON) so that the run can
    start at that depth; clients only ever echo the tokens they were given.
    """
    after = rows - (deep_page(rows) - 1) * PER_PAGE + 1
    text = json.dumps({"s": "-id", "d": "next", "v": [after]}, separators=(",", ":"))
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _queries(rows: int) -> dict[str, str]:
    offset = (deep_page(rows) - 1) * PER_PAGE
    after = rows - offset + 1
    return {name: q.format(offset=offset, after=after) for name, q in QUERIES.items()}


def _time(execute: Callable[[str], object], sql: str, repeats: int) -> float:
    execute(sql)  # warm the cache once, as a serving process would be
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        execute(sql)
        samples.append(1000 * (time.perf_counter() - start))
    return statistics.median(samples)


def sqlite_sql(path: Path, rows: int, pragmas: list[str], repeats: int) -> dict:
    """Median ms of each query on a new connection with ``pragmas``."""
    connection = sqlite3.connect(path)
    try:
        for pragma in pragmas:
            connection.execute(pragma)
        run = lambda sql: connection.execute(sql).fetchall()  # noqa: E731
        return {name: _time(run, sql, repeats) for name, sql in _queries(rows).items()}
    finally:
        connection.close()


def postgres_sql(url: str, rows: int, repeats: int) -> dict:
    """Median ms of each query on one psycopg connection."""
    import psycopg

    with psycopg.connect(url) as connection:
        run = lambda sql: connection.execute(sql).fetchall()  # noqa: E731
        return {name: _time(run, sql, repeats) for name, sql in _queries(rows).items()}


@contextmanager
def postgres_database(name: str) -> Iterator[str]:
    """A new, empty database on the local server; dropped afterwards."""
    import psycopg

    with psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    try:
        yield f"postgresql+psycopg://postgres@127.0.0.1:5432/{name}"
    finally:
        with (
            suppress(Exception),
            psycopg.connect(PG_ADMIN, autocommit=True, connect_timeout=5) as admin,
        ):
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def postgres_available() -> str | None:
    """None when the server answers, else why not."""
    try:
        import psycopg

        with psycopg.connect(PG_ADMIN, connect_timeout=3):
            return None
    except Exception as exc:  # any failure means: skip, with the reason
        return f"PostgreSQL on 127.0.0.1:5432 unavailable: {exc}"


def _build(project: emitted.Project, url: str, rows: int, sqlite_path: Path | None):
    """Migrate, seed (one INSERT … SELECT) and add the user."""
    project.app(url, "migrate")
    if sqlite_path is not None:
        seed.seed_sqlite(sqlite_path, rows)
    else:
        seed.seed_postgres(url.replace("+psycopg", ""), rows)
    project.create_user(url)


def _http(project: emitted.Project, url: str, rows: int, work: Path, config, result):
    server = project.server(url, work / f"scale-{project.framework}.log")
    server.start(probe="/admin/login")
    try:
        read, _ = emitted.login_headers(server, project)
        backend = "sqlite" if url.startswith("sqlite") else "postgres"
        values = {"deep": deep_page(rows), "cursor": deep_cursor(rows)}
        for label, query in URLS.items():
            path = "/admin/resource/articles/crud" + query.format(**values)
            if config.warmup:
                wrk(server, Load(path, read, 1, config.warmup))
            measured = wrk(server, Load(path, read, 1, config.seconds))
            key = (project.framework, backend, rows, label)
            result.http.setdefault(key, []).append(measured)
            if measured.errors:
                result.notes.append(
                    f"{project.framework} {backend} {rows} {label}: "
                    f"{measured.errors} errors"
                )
    finally:
        server.stop()


def run_scale(
    config: ScaleConfig, work: Path, log: Callable[[str], None]
) -> ScaleResult:
    """Build the databases, time the SQL, then the HTTP runs, interleaved."""
    result = ScaleResult(config)
    work.mkdir(parents=True, exist_ok=True)
    projects = {
        app: emitted.generate(work, jwt=False, framework=app) for app in config.apps
    }
    fastapi = projects.get("fastapi")
    pragmas = (emitted.sqlite_pragmas(fastapi.path) if fastapi else None) or []
    backends = list(config.backends)
    if "postgres" in backends and (reason := postgres_available()):
        result.notes.append(reason)
        backends.remove("postgres")
    with _databases(backends, config.sizes, work, projects, result, log) as urls:
        timed = {
            (b, rows): url
            for (app, b, rows), url in urls.items()
            if app == next(iter(projects))
        }
        for (backend, rows), url in timed.items():
            log(f"  SQL timings: {backend}, {rows:,} rows")
            if backend == "sqlite":
                path = Path(url.removeprefix("sqlite:///"))
                result.sql[(backend, "emitted settings", rows)] = sqlite_sql(
                    path, rows, pragmas, config.repeats
                )
                result.sql[(backend, "SQLite defaults", rows)] = sqlite_sql(
                    path, rows, [], config.repeats
                )
            else:
                result.sql[(backend, "server defaults", rows)] = postgres_sql(
                    url.replace("+psycopg", ""), rows, config.repeats
                )
        for number, (app, backend, rows) in interleave(config.rounds, list(urls)):
            log(
                f"  round {number + 1}/{config.rounds}: HTTP, {app}, {backend}, "
                f"{rows:,} rows"
            )
            result.loads.append(os.getloadavg()[0])
            _http(projects[app], urls[(app, backend, rows)], rows, work, config, result)
    return result


@contextmanager
def _databases(backends, sizes, work: Path, projects, result, log) -> Iterator[dict]:
    """Every (app, backend, size) database, built; PostgreSQL ones dropped on exit."""
    urls: dict[tuple[str, str, int], str] = {}
    with ExitStack() as cleanup:
        for app, project in projects.items():
            for backend in backends:
                for rows in sizes:
                    log(f"  building {app}, {backend}, {rows:,} rows")
                    start = time.perf_counter()
                    if backend == "sqlite":
                        path = work / f"scale-{app}-{rows}.db"
                        path.unlink(missing_ok=True)
                        url = f"sqlite:///{path}"
                        _build(project, url, rows, path)
                        seed.sqlite_journal_default(path)
                    else:
                        name = f"panelforge_bench_{os.getpid()}_{app}_{rows}"
                        url = cleanup.enter_context(postgres_database(name))
                        _build(project, url, rows, None)
                    elapsed = time.perf_counter() - start
                    result.build_seconds[(app, backend, rows)] = elapsed
                    urls[(app, backend, rows)] = url
        yield urls
