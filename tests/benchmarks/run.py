"""Run the benchmark suite of issue 8 and print (and record) its tables.

    .venv/bin/python tests/benchmarks/run.py          # all of it, < 15 min on 2 cores
    .venv/bin/python tests/benchmarks/run.py --quick  # a ~2-minute smoke run
    .venv/bin/python tests/benchmarks/run.py --only serving,scale,workers
    .venv/bin/python tests/benchmarks/run.py --only serving --stacks django
    .venv/bin/python tests/benchmarks/run.py --profile  # where the time goes

Each comparison runs side by side in this one run (interleaved rounds, reverse order on
odd rounds); ratios are against baselines measured in the same run. A full run writes
its results into docs/benchmarks.md (between the ``<!-- results:… -->`` markers);
``--quick`` and ``--no-write`` write nothing unless ``--output`` is given.
"""

from __future__ import annotations

import argparse
import datetime
import shutil
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

if __package__ in (None, ""):  # run as a script (PEP 366): import as ``benchmarks``
    sys.path[0] = str(Path(__file__).resolve().parents[1])
    __package__ = "benchmarks"  # noqa: A001

from . import report  # noqa: E402
from .common import HOME, ROOT, load_average, machine  # noqa: E402
from .generation import GenerationConfig, run_generation  # noqa: E402
from .scale import ScaleConfig, run_scale  # noqa: E402
from .servers import uvicorn_stack  # noqa: E402
from .serving import ServingConfig, run_serving  # noqa: E402
from .workers import WorkersConfig, run_workers  # noqa: E402

SECTIONS = ("generation", "serving", "scale", "workers")
DOCUMENT = ROOT / "docs" / "benchmarks.md"


def _configs(args: argparse.Namespace) -> dict[str, object]:
    if args.quick:
        configs: dict[str, object] = {
            "generation": GenerationConfig(
                sizes=(10, 100), rounds={10: 1, 100: 1}, fcg_sizes=(10,)
            ),
            "serving": ServingConfig(rounds=1, seconds=1, create_seconds=1),
            "scale": ScaleConfig(sizes=(10_000, 100_000), rounds=1, seconds=1),
            "workers": WorkersConfig(rounds=1, seconds=1),
        }
    else:
        configs = {
            "generation": GenerationConfig(),
            "serving": ServingConfig(),
            "scale": ScaleConfig(),
            "workers": WorkersConfig(),
        }
    if args.fcg_all:
        generation = configs["generation"]
        generation.fcg_sizes = generation.sizes
    if args.stacks:
        configs["serving"].groups = tuple(g.strip() for g in args.stacks.split(","))
    if args.rounds:
        generation = configs["generation"]
        generation.rounds = dict.fromkeys(generation.sizes, args.rounds)
        configs["serving"].rounds = args.rounds
        configs["scale"].rounds = args.rounds
        configs["workers"].rounds = args.rounds
    return configs


def _section(name: str, config: object, work: Path, log: Callable) -> tuple:
    if name == "generation":
        results = run_generation(config, work / "generation", log)
        return report.generation_report(results)
    if name == "serving":
        return report.serving_report(run_serving(config, work / "serving", log))
    if name == "workers":
        return report.workers_report(run_workers(config, work / "workers", log))
    return report.scale_report(run_scale(config, work / "scale", log))


def _profile() -> int:
    from .profiles import generation_profile, serving_profile

    HOME.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="profile-", dir=HOME))

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        print(f"Load average at start: {load_average()}\n")
        print(generation_profile(100, work / "generation", log) + "\n", flush=True)
        print(serving_profile(work / "serving", log), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="tests/benchmarks/run.py",
        description="panelforge's benchmarks: generation, serving and scale.",
    )
    parser.add_argument("--quick", action="store_true", help="a ~2-minute smoke run")
    parser.add_argument(
        "--only",
        default=",".join(SECTIONS),
        help="comma-separated sections to run (default: %(default)s)",
    )
    parser.add_argument("--rounds", type=int, help="rounds for every comparison")
    parser.add_argument(
        "--stacks",
        choices=("fastapi", "django", "fastapi,django"),
        help="serving: only the FastAPI or only the Django stacks (default: both)",
    )
    parser.add_argument(
        "--fcg-all",
        action="store_true",
        help="run fastapi-code-generator at every size (500 resources: minutes)",
    )
    parser.add_argument("--output", type=Path, help=f"default: {DOCUMENT}")
    parser.add_argument("--no-write", action="store_true", help="print only")
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    parser.add_argument(
        "--profile",
        action="store_true",
        help="instead of the suite: where the time goes (generation at 100 "
        "resources, list and show in-process); prints only",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the chosen sections; print their tables and goals; record them."""
    args = _parser().parse_args(argv)
    chosen = [s.strip() for s in args.only.split(",") if s.strip()]
    if unknown := set(chosen) - set(SECTIONS):
        print(
            f"error: unknown section(s): {', '.join(sorted(unknown))}", file=sys.stderr
        )
        return 2
    if args.profile:
        return _profile()
    configs = _configs(args)
    started = time.monotonic()
    stamp = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    info = machine()
    info["servers"] = f"uvicorn with {uvicorn_stack()}; gunicorn sync worker"
    print("# panelforge benchmarks" + (" (quick)" if args.quick else ""), flush=True)
    print(report.machine_section(info), flush=True)

    def log(message: str) -> None:
        elapsed = time.monotonic() - started
        print(f"[{elapsed:6.0f} s] {message}", file=sys.stderr, flush=True)

    HOME.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="run-", dir=HOME))
    blocks: dict[str, str] = {}
    goals: list[report.Goal] = []
    try:
        for name in chosen:
            section_start = time.monotonic()
            log(f"{name}: starting (load average {load_average()})")
            body, section_goals = _section(name, configs[name], work, log)
            took = time.monotonic() - section_start
            goal_lines = "\n".join(goal.line() for goal in section_goals)
            text = (
                f"Run {stamp}{' (quick)' if args.quick else ''}; this section took "
                f"{took:.0f} s.\n\n{body}\n\nGoals:\n\n{goal_lines}"
            )
            blocks[name] = text
            goals += section_goals
            print(f"\n## {name.capitalize()}\n\n{text}\n", flush=True)
    finally:
        if args.keep:
            log(f"scratch files kept in {work}")
        else:
            shutil.rmtree(work, ignore_errors=True)
    total = time.monotonic() - started
    info["suite wall time"] = f"{total:.0f} s ({', '.join(chosen)})"
    print(f"## Goals\n\n{chr(10).join(g.line() for g in goals)}\n")
    print(f"Whole run: {total:.0f} s")
    output = args.output or (None if args.quick or args.no_write else DOCUMENT)
    if output is not None:
        blocks["machine"] = f"Run {stamp}.\n\n{report.machine_section(info)}"
        report.update_document(output, blocks)
        print(f"wrote {output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
