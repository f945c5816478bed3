"""What hooks, scopes and roles cost a resource that uses none of them (issue 13).

    .venv/bin/python -m tests.benchmarks.overhead            # against REVISION below
    .venv/bin/python -m tests.benchmarks.overhead --against <git revision>

The articles project (FastAPI, session mode, 10,000 rows on SQLite, one uvicorn
worker) is generated twice: by this checkout's panelforge, and by the panelforge of
``--against`` (taken from git with ``git archive``, before the customisation runtime
existed). Both serve the same seeded rows, logged in as an admin; list and show are
measured with wrk in interleaved rounds (reversed on odd rounds). The goal: each
within 5 % of the earlier panelforge (ratio now / then ≥ 0.95).
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from . import emitted, manifests, seed
from .common import HOME, PYTHON, ROOT, interleave, load_average, median, run
from .loadgen import Load, wrk

# The last commit of main before issue 13's runtime (hooks, scope, abilities).
REVISION = "0cdaa33"
ROWS = 10_000
OPS = {"list": emitted.LIST, "show": emitted.SHOW}


def _old_generator(revision: str, folder: Path) -> Path:
    """The ``generator`` package of ``revision``, unpacked into ``folder``."""
    archive = subprocess.run(
        [
            "git",
            "archive",
            revision,
            "generator",
            "templates",
            "specs",
            "pyproject.toml",
        ],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(folder, filter="data")
    return folder


def _generate(work: Path, name: str, source: Path | None) -> emitted.Project:
    """The articles project, by this panelforge or by the one unpacked at ``source``."""
    manifest = manifests.dump(manifests.articles(jwt=False), work / f"{name}.yaml")
    path = work / name
    env = {**os.environ, "PANELFORGE_CACHE_DIR": str(work / f"cache-{name}")}
    if source is not None:
        env["PYTHONPATH"] = str(source)
    argv = [PYTHON, "-m", "generator", "generate", manifest, "-o", path, "--quiet"]
    run(argv, cwd=source or ROOT, env=env)
    return emitted.Project(path, jwt=False)


def _master(work: Path, project: emitted.Project) -> Path:
    """A database migrated by ``project``, seeded, with the benchmark's user."""
    master = work / f"{project.path.name}.db"
    url = f"sqlite:///{master}"
    project.app(url, "migrate")
    seed.seed_sqlite(master, ROWS)
    project.create_user(url)
    seed.sqlite_journal_default(master)
    return master


def measure(revision: str, rounds: int, seconds: int) -> dict[tuple[str, str], float]:
    """Median requests per second by (``then``/``now``, operation)."""
    HOME.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="overhead-", dir=HOME))
    try:
        old = _old_generator(revision, work / "then-panelforge")
        projects = {
            "then": _generate(work, "then", old),
            "now": _generate(work, "now", None),
        }
        masters = {key: _master(work, p) for key, p in projects.items()}
        runs: dict[tuple[str, str], list[float]] = {}
        for number, key in interleave(rounds, list(projects)):
            print(f"round {number + 1}/{rounds}: {key}", file=sys.stderr, flush=True)
            db = work / f"serve-{key}.db"
            shutil.copyfile(masters[key], db)
            server = projects[key].server(f"sqlite:///{db}", work / f"{key}.log")
            server.start(probe="/admin/resource/articles/crud/1")
            try:
                read, _write = emitted.login_headers(server, projects[key])
                for op, path in OPS.items():
                    wrk(server, Load(path, read, 16, 1))  # warm-up
                    result = wrk(server, Load(path, read, 16, seconds))
                    runs.setdefault((key, op), []).append(result.rps)
            finally:
                server.stop()
        return {k: median(v) for k, v in runs.items()}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def main(argv: list[str] | None = None) -> int:
    """Print the table and whether the 5 % goal holds."""
    parser = argparse.ArgumentParser(prog="python -m tests.benchmarks.overhead")
    parser.add_argument("--against", default=REVISION, help="default: %(default)s")
    parser.add_argument("--rounds", type=int, default=4)
    parser.add_argument("--seconds", type=int, default=4)
    args = parser.parse_args(argv)
    print(f"load average at start: {load_average()}")
    rps = measure(args.against, args.rounds, args.seconds)
    print(f"\n| op | panelforge {args.against} req/s | now req/s | now / then |")
    print("|---|---|---|---|")
    met = True
    for op in OPS:
        then, now = rps[("then", op)], rps[("now", op)]
        ratio = now / then
        met = met and ratio >= 0.95
        print(f"| {op} | {then:,.0f} | {now:,.0f} | {ratio:.3f} |")
    print(f"\ngoal now / then ≥ 0.95 for list and show: {'met' if met else 'NOT met'}")
    print(f"load average at end: {load_average()}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
