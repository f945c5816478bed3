"""What every benchmark shares: paths, interleaving, timing, medians, the machine."""

from __future__ import annotations

import os
import platform
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

ROOT = Path(__file__).resolve().parents[2]
BENCH_DIR = Path(__file__).resolve().parent
PYTHON = sys.executable
BIN = Path(PYTHON).parent
PANELFORGE = BIN / "panelforge"
COPIER = BIN / "copier"
# Where tools that cannot share panelforge's venv live (fastapi-code-generator pins an
# older click than black needs), and scratch space; PANELFORGE_BENCH_HOME overrides.
HOME = Path(os.environ.get("PANELFORGE_BENCH_HOME", "/tmp/panelforge-bench"))

T = TypeVar("T")


def interleave(rounds: int, items: Sequence[T]) -> Iterator[tuple[int, T]]:
    """``(round, item)`` for every round, in order on even rounds, reversed on odd."""
    for number in range(rounds):
        for item in items if number % 2 == 0 else list(reversed(items)):
            yield number, item


def load_average() -> str:
    """The 1/5/15-minute load averages, as ``os.getloadavg`` gives them."""
    return "/".join(f"{value:.2f}" for value in os.getloadavg())


def median(values: Sequence[float]) -> float:
    """The median, or NaN for no values."""
    return statistics.median(values) if values else float("nan")


def run(
    argv: Sequence[str | os.PathLike[str]],
    *,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
    input: str | None = None,  # noqa: A002
    timeout: float = 600,
) -> subprocess.CompletedProcess[str]:
    """Run a command; raise with its output when it fails."""
    result = subprocess.run(
        [str(a) for a in argv],
        cwd=cwd,
        env=env,
        input=input,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(
            f"{' '.join(map(str, argv))} exited {result.returncode}:\n"
            f"{result.stdout[-2000:]}{result.stderr[-4000:]}"
        )
    return result


def timed_run(
    argv: Sequence[str | os.PathLike[str]], **kwargs: object
) -> tuple[float, str]:
    """Wall seconds of one successful run of a command, and what it printed."""
    start = time.perf_counter()
    result = run(argv, **kwargs)  # type: ignore[arg-type]
    return time.perf_counter() - start, result.stdout


@dataclass
class Samples:
    """Measurements of one case over the rounds, plus the load when each was taken."""

    values: list[float] = field(default_factory=list)
    loads: list[float] = field(default_factory=list)

    def add(self, value: float) -> None:
        """Record one measurement and the 1-minute load average now."""
        self.values.append(value)
        self.loads.append(os.getloadavg()[0])

    @property
    def median(self) -> float:
        """The median of the measurements."""
        return median(self.values)


def _package_version(name: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(name)
    except metadata.PackageNotFoundError:
        return None


VERSIONED = (
    "panelforge",
    "copier",
    "black",
    "jinja2",
    "openapi-spec-validator",
    "jsonschema-rs",
    "fastapi",
    "starlette",
    "uvicorn",
    "uvloop",
    "httptools",
    "sqlalchemy",
    "pydantic",
    "orjson",
    "pyjwt",
    "psycopg",
    "django",
    "djangorestframework",
    "gunicorn",
)


def _memory_gib() -> float:
    try:
        for line in Path("/proc/meminfo").read_text().splitlines():
            if line.startswith("MemTotal:"):
                return int(line.split()[1]) / 1024 / 1024
    except OSError:
        pass
    return float("nan")


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def _tool_version(argv: Sequence[str]) -> str:
    try:
        result = subprocess.run(
            argv, capture_output=True, text=True, timeout=10, check=False
        )
    except (OSError, subprocess.TimeoutExpired):
        return "not installed"
    text = (result.stdout + result.stderr).strip().splitlines()
    return text[0] if text else "unknown"


def machine() -> dict[str, str]:
    """The machine and software the numbers were taken on."""
    import sqlite3

    versions = ", ".join(
        f"{name} {version}"
        for name in VERSIONED
        if (version := _package_version(name)) is not None
    )
    return {
        "CPU": f"{os.cpu_count()} × {_cpu_model()}",
        "memory": f"{_memory_gib():.1f} GiB",
        "OS": f"{platform.system()} {platform.release()} ({platform.machine()})",
        "Python": platform.python_version(),
        "SQLite": sqlite3.sqlite_version,
        "wrk": _tool_version(["wrk", "--version"]).split(" [")[0],
        "PostgreSQL": _tool_version(["psql", "--version"]),
        "packages": versions,
        "load average at start (1/5/15 min)": load_average(),
    }
