"""Workers: each emitted app on PostgreSQL with one worker and with two (issue 17).

FastAPI as ``uvicorn --workers N``, Django as ``gunicorn -w N`` (sync workers), each on
its own PostgreSQL database of 10,000 seeded rows (created and dropped here), session
mode. Per framework and worker count, interleaved over the rounds: log in, check the
answers, then list and show under wrk -c16. On a 2-core machine wrk and PostgreSQL
share the cores with the workers, so two workers cannot double the rate; the row says
what a second worker buys here.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import ExitStack
from dataclasses import dataclass, field
from pathlib import Path

from . import emitted, seed
from .common import interleave
from .loadgen import Load, Result, wrk
from .scale import postgres_available, postgres_database
from .servers import Server, fetch

ROWS = 10_000
FRAMEWORKS = ("fastapi", "django")
WORKER_COUNTS = (1, 2)
OPS = {"list": emitted.LIST, "show": emitted.SHOW}


@dataclass
class WorkersConfig:
    """Rounds and durations (seconds) of the wrk runs."""

    rounds: int = 2
    seconds: int = 4
    warmup: int = 1
    connections: int = 16
    rows: int = ROWS


@dataclass
class WorkersResult:
    """Every run, per (framework, workers, operation)."""

    config: WorkersConfig
    runs: dict[tuple[str, int, str], list[Result]] = field(default_factory=dict)
    skipped: str | None = None


def _with_workers(server: Server, count: int) -> Server:
    argv = list(server.argv)
    at = argv.index("--workers")
    argv[at + 1] = str(count)
    return Server(argv, server.cwd, server.env, server.log)


def run_workers(
    config: WorkersConfig, work: Path, log: Callable[[str], None]
) -> WorkersResult:
    """Measure list and show with one and two workers, for both frameworks."""
    result = WorkersResult(config)
    if reason := postgres_available():
        result.skipped = reason
        return result
    work.mkdir(parents=True, exist_ok=True)
    with ExitStack() as cleanup:
        urls: dict[str, str] = {}
        projects: dict[str, emitted.Project] = {}
        for framework in FRAMEWORKS:
            log(f"  workers: {framework} project on PostgreSQL, {config.rows} rows")
            project = emitted.generate(work, jwt=False, framework=framework)
            url = cleanup.enter_context(postgres_database(f"pf_workers_{framework}"))
            project.app(url, "migrate")
            seed.seed_postgres(url.replace("+psycopg", ""), config.rows)
            project.create_user(url)
            projects[framework], urls[framework] = project, url
        cases = [(f, n) for f in FRAMEWORKS for n in WORKER_COUNTS]
        for _, (framework, count) in interleave(config.rounds, cases):
            project = projects[framework]
            base = project.server(urls[framework], work / f"{framework}-{count}.log")
            server = _with_workers(base, count)
            server.start(probe="/admin/login")
            try:
                read, _ = emitted.login_headers(server, project)
                for op, path in OPS.items():
                    status, _, body = fetch(server.port, "GET", path, read)
                    if status != 200:
                        raise RuntimeError(f"{framework} {op}: {status} {body[:200]!r}")
                    load = Load(path, read, config.connections, config.warmup)
                    wrk(server, load)
                    load.seconds = config.seconds
                    measured = wrk(server, load)
                    result.runs.setdefault((framework, count, op), []).append(measured)
                    log(f"  {framework} × {count} {op}: {measured.rps:.0f} req/s")
            finally:
                server.stop()
    return result
