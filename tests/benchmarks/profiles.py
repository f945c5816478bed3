"""Where the time goes: ``run.py --profile`` (not part of the suite; prints only).

- Generation: ``panelforge generate`` in one process per case (cold, warm no-op,
  one-field change) with black's ``format_str`` and the spec validation timed.
- Serving: the emitted app and baselines a and b driven in-process through ASGI, one
  request at a time (no HTTP, no concurrency): microseconds per list and show request,
  thread-pool hops per request, and the time spent in each function run in the pool.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from . import emitted, manifests, serving
from .common import BENCH_DIR, PYTHON, ROOT, run
from .report import num, table

PROBES = BENCH_DIR / "probes.py"
REQUESTS = 500


def _probe(argv: list[str], env: dict[str, str], cwd: Path) -> dict:
    printed = run([PYTHON, PROBES, *argv], env=env, cwd=cwd, timeout=900).stdout
    return json.loads(printed.strip().splitlines()[-1])


def generation_profile(size: int, work: Path, log: Callable[[str], None]) -> str:
    """Seconds in black, in spec validation and elsewhere, per generation case."""
    work.mkdir(parents=True, exist_ok=True)
    manifest, dest, cache = work / "panel.yaml", work / "out", work / "cache"
    original = manifests.synthetic(size)
    manifests.dump(original, manifest)
    cache.mkdir(exist_ok=True)
    env = {**os.environ, "PANELFORGE_CACHE_DIR": str(cache), "PYTHONPATH": str(ROOT)}
    argv = ["generation", "generate", str(manifest), "-o", str(dest), "--quiet"]
    rows = []
    for case in ("cold", "warm no-op", "one-field change"):
        if case == "one-field change":
            manifests.dump(manifests.change_one_field(original), manifest)
        log(f"  profiling generation, {size} resources: {case}")
        found = _probe(argv, env, work)
        black = found["seconds"].get("black.format_str", 0.0)
        spec = found["seconds"].get("spec validation", 0.0)
        rows.append(
            [
                case,
                num(found["total"], 2),
                f"{num(black, 2)} ({found['calls'].get('black.format_str', 0)} files)",
                num(spec, 2),
                num(found["total"] - black - spec, 2),
            ]
        )
    shutil.rmtree(work, ignore_errors=True)
    header = ["Case", "in-process s", "black s", "spec validation s", "the rest s"]
    return f"Generation, {size} resources (in-process, one run each):\n\n" + table(
        header, rows
    )


def serving_profile(work: Path, log: Callable[[str], None]) -> str:
    """Per-request cost of list and show, in-process, for the emitted app, a and b."""
    work.mkdir(parents=True, exist_ok=True)
    setup = serving.prepare(work, serving.ROWS, log)
    login = json.dumps({"username": emitted.EMAIL, "password": emitted.PASSWORD})
    cases: list[tuple[str, Path, str, dict[str, str]]] = []
    emitted_apps = (("emitted (session)", setup.session), ("emitted (JWT)", setup.jwt))
    for label, project in emitted_apps:
        if project is not None:
            db = _copy(setup.master, work, len(cases))
            env = {**project.env(f"sqlite:///{db}"), "PROBE_LOGIN": login}
            cases.append((label, project.path, "app.main:app", env))
    baselines = (
        ("b FastAPI + ORM", "fastapi_orm"),
        ("a Starlette raw", "starlette_raw"),
    )
    for label, module in baselines:
        db = _copy(setup.master, work, len(cases))
        env = serving._baseline_env(db, setup.pragmas)
        cases.append((label, serving.BASELINES, f"{module}:app", env))
    rows = []
    for label, app_dir, target, env in cases:
        log(f"  profiling serving in-process: {label}")
        argv = ["asgi", str(app_dir), target, str(REQUESTS), emitted.LIST, emitted.SHOW]
        found = _probe(argv, env, app_dir)
        for path, op in ((emitted.LIST, "list"), (emitted.SHOW, "show")):
            data = found[path]
            threads = data["threads_us"]
            elsewhere = data["us_per_request"] - sum(threads.values())
            handoffs = data["hops_per_request"] * data["empty_hop_us"]
            rows.append(
                [
                    label,
                    op,
                    num(data["us_per_request"]),
                    num(data["hops_per_request"], 1),
                    ", ".join(f"{k} {num(v)}" for k, v in threads.items()) or "–",
                    num(handoffs),
                    num(elsewhere - handoffs),
                ]
            )
    header = [
        "Stack",
        "op",
        "µs/request",
        "pool hops",
        "µs in the pool, by function",
        "µs in hand-offs (hops × an empty hop)",
        "µs on the event loop",
    ]
    return (
        f"Serving in-process, {REQUESTS} requests one at a time (10,000 rows, the "
        "emitted app's SQLite settings):\n\n" + table(header, rows)
    )


def _copy(master: Path, work: Path, number: int) -> Path:
    db = work / f"profile-{number}.db"
    shutil.copyfile(master, db)
    return db
